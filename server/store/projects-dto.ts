import type { Contact, Project, UserRef } from '../../shared/api';
import type { Db } from '../db/open';
import { customFieldDto, type FieldCatalog, loadFieldCatalog } from './custom-fields';
import { columnsOf, type Fields, isOverdue, toDto } from './dto-fields';
import { IN_IDS, idsParam, stmt } from './statements';
import { iso } from './time';
import { userRefs } from './users';

/** A row of `projects`, as every project query selects it (PROJECT_COLUMNS, aliased `p`). */
export interface ProjectRow {
  project_id: number;
  org_id: number;
  space_id: number;
  project_name: string;
  description: string;
  start_date: number | null;
  due_date: number | null;
  completion: number;
  is_public: number;
  archived: number;
  status_id: number | null;
  priority_id: number | null;
  health_id: number | null;
  contact_id: number | null;
  completed: number;
  completed_time: number | null;
  created_by: number;
  modified_by: number;
  created_time: number;
  modified_time: number;
  deleted: number;
  deleted_time: number | null;
  deleted_by: number | null;
}

/** What a project DTO takes from elsewhere than its row's columns. */
export type ProjectPart =
  | 'contact'
  | 'overdue'
  | 'projectStatus'
  | 'projectPriority'
  | 'projectHealth'
  | 'projectTags'
  | 'projectMembers'
  | 'projectMail'
  | 'spaceName'
  | 'customFields';

/** The Project's fields (./dto-fields): every project answer, and the bulk export's items. */
export const projectFields = [
  { key: 'tenantId', column: 'org_id', shown: 'num' },
  { key: 'spaceId', column: 'space_id', shown: 'num' },
  { key: 'projectId', column: 'project_id', shown: 'num' },
  { key: 'contact', part: 'contact' },
  { key: 'projectName', column: 'project_name', shown: 'str' },
  { key: 'description', column: 'description', shown: 'str' },
  { key: 'startDate', column: 'start_date', shown: 'iso' },
  { key: 'dueDate', column: 'due_date', shown: 'iso' },
  { key: 'completion', column: 'completion', shown: 'num' },
  { key: 'deleted', column: 'deleted', shown: 'flag' },
  { key: 'public', column: 'is_public', shown: 'flag' },
  { key: 'overdue', part: 'overdue' },
  { key: 'archived', column: 'archived', shown: 'flag' },
  { key: 'createdTime', column: 'created_time', shown: 'iso' },
  { key: 'modifiedTime', column: 'modified_time', shown: 'iso' },
  { key: 'deletedTime', column: 'deleted_time', shown: 'iso' },
  { key: 'completedTime', column: 'completed_time', shown: 'iso' },
  { key: 'createdBy', column: 'created_by', shown: 'ref' },
  { key: 'modifiedBy', column: 'modified_by', shown: 'ref' },
  { key: 'deletedBy', column: 'deleted_by', shown: 'refOrNull' },
  { key: 'projectStatus', part: 'projectStatus' },
  { key: 'projectPriority', part: 'projectPriority' },
  { key: 'projectHealth', part: 'projectHealth' },
  { key: 'projectTags', part: 'projectTags' },
  { key: 'projectMembers', part: 'projectMembers' },
  { key: 'projectMail', part: 'projectMail' },
  { key: 'spaceName', part: 'spaceName' },
  { key: 'customFields', part: 'customFields' },
] as const satisfies Fields<ProjectRow, ProjectPart>;

/** The columns every project query selects: the fields', then what parts read. */
export const PROJECT_COLUMN_LIST = columnsOf<ProjectRow>(projectFields, [
  'completed',
  'status_id',
  'priority_id',
  'health_id',
  'contact_id',
]);

export const PROJECT_COLUMNS = PROJECT_COLUMN_LIST.map((c) => `p.${c}`).join(', ');

const loadProjectRow = (db: Db, projectId: number): ProjectRow | undefined =>
  stmt(db, `SELECT ${PROJECT_COLUMNS} FROM projects p WHERE p.project_id = ?`).get(projectId) as
    | ProjectRow
    | undefined;

export interface StatusRow {
  status_id: number;
  org_id: number;
  name: string;
  color: string;
  category: string;
  is_default: number;
  created_time: number;
}
export interface LabelRow {
  id: number;
  org_id: number;
  label: string;
  color: string;
  is_default: number;
  is_primary: number;
}
export interface ProjectTagRow {
  project_tag_id: number;
  project_id: number;
  name: string;
  color: string;
  created_by: number;
}
export interface ProjectMemberRow {
  project_member_id: number;
  project_id: number;
  user_id: number;
  invited_by: number | null;
  role_id: number;
  role_name: string;
}

const byId = <T>(rows: T[], id: (r: T) => number): Map<number, T> =>
  new Map(rows.map((r) => [id(r), r]));

const group = <T>(rows: T[], key: (r: T) => number): Map<number, T[]> => {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
};

/**
 * The stored contact (JSON of the spec's contact object) with its identity forced from the
 * row, so a body missing them still fits the contract. A body that is not an object is no
 * contact at all.
 */
export const contactDto = (orgId: number, contactId: number, body: string): Contact | null => {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    return { ...(parsed as Record<string, unknown>), tenantId: orgId, contactId } as Contact;
  } catch {
    return null;
  }
};

export const projectStatusDto = (status: StatusRow): NonNullable<Project['projectStatus']> => ({
  tenantId: status.org_id,
  projectStatusId: status.status_id,
  projectStatusName: status.name,
  color: status.color,
  projectStatusCategory: status.category,
  createdTime: iso(status.created_time),
  modifiedTime: iso(status.created_time),
  createdBy: null,
  modifiedBy: null,
  default: status.is_default === 1,
});

export const projectPriorityDto = (p: LabelRow): NonNullable<Project['projectPriority']> => ({
  tenantId: p.org_id,
  projectPriorityId: p.id,
  priorityLabel: p.label,
  color: p.color,
  createdBy: null,
  modifiedBy: null,
  default: p.is_default === 1,
  primary: p.is_primary === 1,
});

export const projectHealthDto = (h: LabelRow): NonNullable<Project['projectHealth']> => ({
  tenantId: h.org_id,
  projectHealthId: h.id,
  healthLabel: h.label,
  color: h.color,
  createdBy: null,
  modifiedBy: null,
  default: h.is_default === 1,
  primary: h.is_primary === 1,
});

export const projectTagDto = (
  orgId: number,
  t: ProjectTagRow,
): NonNullable<Project['projectTags']>[number] => ({
  tenantId: orgId,
  projectTagId: t.project_tag_id,
  tagName: t.name,
  color: t.color,
  createdBy: t.created_by,
  modifiedBy: t.created_by,
});

const projectMemberDto = (
  m: ProjectMemberRow,
  ref: (id: number) => UserRef,
): NonNullable<Project['projectMembers']>[number] => ({
  projectMemberId: m.project_member_id,
  projectId: m.project_id,
  user: ref(m.user_id),
  invitedBy: m.invited_by === null ? null : ref(m.invited_by),
  role: { projectRoleId: m.role_id, projectRoleName: m.role_name },
});

/** What the project DTOs of a page embed, loaded with a fixed number of queries. */
export interface ProjectPageParts {
  statuses: Map<number, StatusRow>;
  priorities: Map<number, LabelRow>;
  health: Map<number, LabelRow>;
  tags: Map<number, ProjectTagRow[]>;
  members: Map<number, ProjectMemberRow[]>;
  contacts: Map<number, { contact_id: number; body: string }>;
  spaceNames: Map<number, { space_id: number; space_name: string }>;
  catalog: FieldCatalog;
  /** Every user the DTOs name: `userIds` given, members, inviters, field authors. */
  users: Map<number, UserRef>;
}

export const loadProjectPageParts = (
  db: Db,
  orgId: number,
  page: {
    projectIds: number[];
    spaceIds: number[];
    contactIds: number[];
    /** The rows' own users (creator, modifier, deleter). */
    userIds: number[];
  },
): ProjectPageParts => {
  const ids = idsParam(page.projectIds);
  const statuses = byId(
    stmt(
      db,
      'SELECT status_id, org_id, name, color, category, is_default, created_time FROM project_statuses WHERE org_id = ?',
    ).all(orgId) as StatusRow[],
    (r) => r.status_id,
  );
  const labels = (table: string, idColumn: string) =>
    byId(
      stmt(
        db,
        `SELECT ${idColumn} AS id, org_id, label, color, is_default, is_primary FROM ${table} WHERE org_id = ?`,
      ).all(orgId) as LabelRow[],
      (r) => r.id,
    );
  const priorities = labels('project_priorities', 'priority_id');
  const health = labels('project_health', 'health_id');
  const tags = group(
    stmt(
      db,
      `SELECT project_tag_id, project_id, name, color, created_by FROM project_tags WHERE project_id IN ${IN_IDS} ORDER BY project_tag_id`,
    ).all(ids) as ProjectTagRow[],
    (r) => r.project_id,
  );
  const members = group(
    stmt(
      db,
      `SELECT project_member_id, project_id, user_id, invited_by, role_id, role_name FROM project_members WHERE project_id IN ${IN_IDS} ORDER BY project_member_id`,
    ).all(ids) as ProjectMemberRow[],
    (r) => r.project_id,
  );
  const contacts = byId(
    page.contactIds.length === 0
      ? []
      : (stmt(db, `SELECT contact_id, body FROM contacts WHERE contact_id IN ${IN_IDS}`).all(
          idsParam(page.contactIds),
        ) as {
          contact_id: number;
          body: string;
        }[]),
    (r) => r.contact_id,
  );
  const spaceNames = byId(
    stmt(db, `SELECT space_id, space_name FROM spaces WHERE space_id IN ${IN_IDS}`).all(
      idsParam(new Set(page.spaceIds)),
    ) as { space_id: number; space_name: string }[],
    (r) => r.space_id,
  );
  const catalog = loadFieldCatalog(db, orgId, page.spaceIds, page.projectIds);

  const userIds: number[] = [...catalog.userIds(), ...page.userIds];
  for (const list of members.values())
    for (const m of list) {
      userIds.push(m.user_id);
      if (m.invited_by !== null) userIds.push(m.invited_by);
    }
  const users = userRefs(db, userIds);
  return { statuses, priorities, health, tags, members, contacts, spaceNames, catalog, users };
};

/**
 * Project DTOs for a page of rows, in order, with a fixed number of queries. `completed` is
 * the stored flag (status category COMPLETED); `overdue` is computed at read time.
 */
export const projectDtos = (db: Db, rows: readonly ProjectRow[], now: number): Project[] => {
  const first = rows[0];
  if (!first) return [];
  const userIds: number[] = [];
  for (const r of rows) {
    userIds.push(r.created_by, r.modified_by);
    if (r.deleted_by !== null) userIds.push(r.deleted_by);
  }
  const { statuses, priorities, health, tags, members, contacts, spaceNames, catalog, users } =
    loadProjectPageParts(db, first.org_id, {
      projectIds: rows.map((r) => r.project_id),
      spaceIds: rows.map((r) => r.space_id),
      contactIds: rows.map((r) => r.contact_id).filter((c): c is number => c !== null),
      userIds,
    });
  const ref = (id: number): UserRef => users.get(id) ?? { userId: id };

  const parts: Record<ProjectPart, (r: ProjectRow) => unknown> = {
    contact: (r) => {
      const contact = r.contact_id === null ? undefined : contacts.get(r.contact_id);
      return contact ? contactDto(r.org_id, contact.contact_id, contact.body) : null;
    },
    overdue: (r) => isOverdue(r.due_date, r.completed, now),
    projectStatus: (r) => {
      const status = r.status_id === null ? undefined : statuses.get(r.status_id);
      return status ? projectStatusDto(status) : null;
    },
    projectPriority: (r) => {
      const priority = r.priority_id === null ? undefined : priorities.get(r.priority_id);
      return priority ? projectPriorityDto(priority) : null;
    },
    projectHealth: (r) => {
      const h = r.health_id === null ? undefined : health.get(r.health_id);
      return h ? projectHealthDto(h) : null;
    },
    projectTags: (r) => (tags.get(r.project_id) ?? []).map((t) => projectTagDto(r.org_id, t)),
    projectMembers: (r) => (members.get(r.project_id) ?? []).map((m) => projectMemberDto(m, ref)),
    projectMail: () => null,
    spaceName: (r) => spaceNames.get(r.space_id)?.space_name ?? null,
    customFields: (r) =>
      catalog
        .forScope({ spaceId: r.space_id, projectId: r.project_id })
        .map((def) => customFieldDto(def, catalog, users, [])),
  };
  return rows.map((r) => toDto(projectFields, r, parts, ref) as Project);
};

export const projectDtoById = (db: Db, projectId: number, now: number): Project => {
  const row = loadProjectRow(db, projectId);
  const [dto] = row ? projectDtos(db, [row], now) : [];
  if (!dto) throw new Error(`project ${projectId} vanished inside its own transaction`);
  return dto;
};
