/**
 * Projects read back from the replica as the server's project DTO, and the project list of a
 * space with the server's semantics (getAll_2: shared/filters, the same compiler).
 *
 * The DTO: columns of `projects`; projectStatus / projectPriority / projectHealth, projectMail,
 * tenantId from `detail` (kept as the server sent them); tags and members from their tables
 * (each kept whole as JSON), ordered by their ids like the server; spaceName from the space
 * the replica holds now (fresher than the copy in `detail`); the space's space-level and the
 * project's own custom field definitions with an empty fieldValue (a project has no values);
 * `overdue` against the caller's clock; `deleted: false` (the replica keeps live rows only).
 */
import type { Contact, Project } from '../../../shared/api';
import {
  compileOrderBy,
  compileProjectFilter,
  type ListProjectFilter,
  type Page,
  type PagingRequest,
  type ProjectSqlShape,
  pageOf,
  pageWindow,
  projectSortColumns,
} from '../../../shared/filters';
import { stmt } from '../kysely';
import type { Sqlite } from '../open';
import type { ProjectsTable } from '../types';
import { toIso } from './convert';
import { fieldDto, fieldsForScope, loadFieldDefinitions } from './custom-fields';
import { IN_JSON, idsJson } from './id-list';
import { dynamicStmt, isOverdue, jsonOr, loadUserRefs, refOf, withExtra } from './tasks-read';

export type ProjectRow = ProjectsTable;

const PROJECT_COLUMN_NAMES = [
  'project_id',
  'space_id',
  'project_name',
  'description',
  'start_date',
  'due_date',
  'completion',
  'is_public',
  'archived',
  'completed',
  'completed_time',
  'status',
  'priority',
  'health',
  'contact',
  'created_by',
  'modified_by',
  'created_time',
  'modified_time',
  'detail',
  'extra',
] as const satisfies readonly (keyof ProjectsTable)[];

/** Every column of `projects`, for a FROM clause aliasing it `p`. */
export const PROJECT_COLUMNS = PROJECT_COLUMN_NAMES.map((c) => `p.${c}`).join(', ');

/** What projects-write.ts keeps in `detail`. */
interface ProjectDetail {
  projectStatus?: Project['projectStatus'];
  projectPriority?: Project['projectPriority'];
  projectHealth?: Project['projectHealth'];
  projectMail?: string | null;
  spaceName?: string | null;
  tenantId?: number | null;
}

type Child = Record<string, unknown>;

/** Children kept as JSON, in the order of their own id (the server's order), else as stored. */
const byOwnId = (items: Child[], key: string): Child[] =>
  items.every((i) => typeof i[key] === 'number')
    ? items.sort((a, b) => (a[key] as number) - (b[key] as number))
    : items;

const children = (db: Sqlite, sql: string, ids: string, idKey: string): Map<number, Child[]> => {
  const out = new Map<number, Child[]>();
  for (const r of stmt(db, sql).all(ids) as { k: number; v: string }[]) {
    const list = out.get(r.k);
    const item = JSON.parse(r.v) as Child;
    if (list) list.push(item);
    else out.set(r.k, [item]);
  }
  for (const list of out.values()) byOwnId(list, idKey);
  return out;
};

/** DTOs of rows already read, in the rows' order. */
export const projectDtos = (db: Sqlite, rows: readonly ProjectRow[], nowMs: number): Project[] => {
  if (rows.length === 0) return [];
  const ids = idsJson(rows.map((r) => r.project_id));
  const tags = children(
    db,
    `SELECT project_id AS k, tag AS v FROM project_tags WHERE project_id IN ${IN_JSON} ORDER BY project_id, name`,
    ids,
    'projectTagId',
  );
  const members = children(
    db,
    `SELECT project_id AS k, member AS v FROM project_members WHERE project_id IN ${IN_JSON} ORDER BY project_id, user_id`,
    ids,
    'projectMemberId',
  );
  const spaceNames = new Map(
    (
      stmt(db, `SELECT space_id, space_name FROM spaces WHERE space_id IN ${IN_JSON}`).all(
        idsJson(rows.map((r) => r.space_id)),
      ) as { space_id: number; space_name: string }[]
    ).map((s) => [s.space_id, s.space_name]),
  );
  const defs = loadFieldDefinitions(
    db,
    rows.map((r) => r.space_id),
    rows.map((r) => r.project_id),
  );
  const users = loadUserRefs(
    db,
    rows.flatMap((r) => [r.created_by, r.modified_by]),
  );

  return rows.map((r): Project => {
    const detail = jsonOr<ProjectDetail>(r.detail, {});
    const dto: Project = {
      tenantId: detail.tenantId ?? null,
      spaceId: r.space_id,
      projectId: r.project_id,
      contact: jsonOr<Contact | null>(r.contact, null),
      projectName: r.project_name,
      description: r.description,
      startDate: toIso(r.start_date),
      dueDate: toIso(r.due_date),
      completion: r.completion,
      deleted: false,
      public: r.is_public === 1,
      overdue: isOverdue(r.due_date, r.completed, nowMs),
      archived: r.archived === 1,
      createdTime: toIso(r.created_time),
      modifiedTime: toIso(r.modified_time),
      deletedTime: null,
      completedTime: toIso(r.completed_time),
      createdBy: refOf(users, r.created_by),
      modifiedBy: refOf(users, r.modified_by),
      deletedBy: null,
      projectStatus: detail.projectStatus ?? null,
      projectPriority: detail.projectPriority ?? null,
      projectHealth: detail.projectHealth ?? null,
      projectTags: (tags.get(r.project_id) ?? []) as Project['projectTags'],
      projectMembers: (members.get(r.project_id) ?? []) as Project['projectMembers'],
      projectMail: detail.projectMail ?? null,
      spaceName: spaceNames.get(r.space_id) ?? detail.spaceName ?? null,
      customFields: fieldsForScope(defs, r.space_id, r.project_id).map((d) => fieldDto(d, [])),
    };
    // Fixed shape first, unmodelled fields after (see withExtra): several times faster.
    return withExtra(dto, r.extra);
  });
};

/** The projects with these ids, in the order of `ids`; unknown ids are skipped. */
export const readProjects = (db: Sqlite, ids: readonly number[], nowMs: number): Project[] => {
  if (ids.length === 0) return [];
  const rows = stmt(
    db,
    `SELECT ${PROJECT_COLUMNS} FROM projects p WHERE p.project_id IN ${IN_JSON}`,
  ).all(idsJson(ids)) as ProjectRow[];
  const byId = new Map(rows.map((r) => [r.project_id, r]));
  return projectDtos(
    db,
    [...new Set(ids)].flatMap((id) => byId.get(id) ?? []),
    nowMs,
  );
};

export const readProject = (db: Sqlite, projectId: number, nowMs: number): Project | null =>
  readProjects(db, [projectId], nowMs)[0] ?? null;

/** Every project of the replica, by id. */
export const readAllProjects = (db: Sqlite, nowMs: number): Project[] =>
  projectDtos(
    db,
    stmt(
      db,
      `SELECT ${PROJECT_COLUMNS} FROM projects p ORDER BY p.project_id`,
    ).all() as ProjectRow[],
    nowMs,
  );

/** The names of these projects (those the replica holds). */
export const projectNames = (db: Sqlite, ids: readonly number[]): Map<number, string> =>
  new Map(
    (
      stmt(db, `SELECT project_id, project_name FROM projects WHERE project_id IN ${IN_JSON}`).all(
        idsJson(ids),
      ) as { project_id: number; project_name: string }[]
    ).map((r) => [r.project_id, r.project_name]),
  );

/** The replica's project tables as the shared filter compiler sees them (columns of 0001). */
export const replicaProjectShape: ProjectSqlShape = {
  alias: 'p',
  columns: {
    id: 'project_id',
    name: 'project_name',
    statusName: 'status',
    priorityLabel: 'priority',
    healthLabel: 'health',
    isPublic: 'is_public',
    createdBy: 'created_by',
    startDate: 'start_date',
    dueDate: 'due_date',
    createdTime: 'created_time',
    modifiedTime: 'modified_time',
    completed: 'completed',
    completion: 'completion',
  },
  tags: { table: 'project_tags', projectId: 'project_id', name: 'name' },
  members: { table: 'project_members', projectId: 'project_id', userId: 'user_id' },
};
const sortColumns = projectSortColumns(replicaProjectShape);

/**
 * One page of a space's projects, as GET /v1/spaces/{spaceId}/projects answers it; the app's
 * range conditions (dates by day, Done %) narrow it further.
 */
export const listProjects = (
  db: Sqlite,
  spaceId: number,
  query: PagingRequest & ListProjectFilter,
  nowMs: number,
): Page<Project> => {
  const filter = compileProjectFilter(query, replicaProjectShape, nowMs);
  const where = `p.space_id = ? AND (${filter.sql})`;
  const params = [spaceId, ...filter.params];
  const { n } = dynamicStmt(db, `SELECT COUNT(*) AS n FROM projects p WHERE ${where}`).get(
    ...params,
  ) as { n: number };
  const { limit, offset } = pageWindow(query.page, query.size);
  const orderBy = compileOrderBy(query.sort, sortColumns, sortColumns.projectId);
  const rows =
    offset >= n
      ? []
      : (dynamicStmt(
          db,
          `SELECT ${PROJECT_COLUMNS} FROM projects p WHERE ${where} ${orderBy} LIMIT ? OFFSET ?`,
        ).all(...params, limit, offset) as ProjectRow[]);
  return pageOf(projectDtos(db, rows, nowMs), n, query.page, query.size);
};
