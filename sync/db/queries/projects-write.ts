import type { Project, Space } from '../../../shared/api';
import { stmt } from '../kysely';
import type { Sqlite } from '../open';
import { bit, extraOf, toMs } from './convert';
import { upsertFieldDefinitions } from './custom-fields';
import { deleteTasks } from './tasks-write';
import { upsertUsers } from './users';

const projectKeys = new Set([
  'tenantId',
  'spaceId',
  'projectId',
  'contact',
  'projectName',
  'description',
  'startDate',
  'dueDate',
  'completion',
  'deleted',
  'public',
  'overdue',
  'archived',
  'createdTime',
  'modifiedTime',
  'deletedTime',
  'completedTime',
  'createdBy',
  'modifiedBy',
  'deletedBy',
  'projectStatus',
  'projectPriority',
  'projectHealth',
  'projectTags',
  'projectMembers',
  'projectMail',
  'spaceName',
  'customFields',
]);
const spaceKeys = new Set([
  'spaceId',
  'spaceName',
  'description',
  'color',
  'spaceType',
  'createdBy',
  'deletedBy',
  'createdTime',
  'modifiedTime',
  'deletedTime',
  'deleted',
  'archived',
  'spaceMembers',
  'customFields',
]);

const spaceMemberKeys = new Set(['spaceMemberId', 'spaceId', 'user', 'joined', 'hidden']);

/** The contract: a project is complete when its status's category says so. */
export const isProjectComplete = (p: Project): boolean =>
  (p.projectStatus?.projectStatusCategory ?? '').toUpperCase() === 'COMPLETED' ||
  (p.completedTime !== null && p.completedTime !== undefined);

export const writeProject = (db: Sqlite, p: Project): void => {
  const detail = {
    projectStatus: p.projectStatus ?? null,
    projectPriority: p.projectPriority ?? null,
    projectHealth: p.projectHealth ?? null,
    projectMail: p.projectMail ?? null,
    spaceName: p.spaceName ?? null,
    overdue: p.overdue ?? null,
    tenantId: p.tenantId ?? null,
  };
  stmt(
    db,
    `INSERT OR REPLACE INTO projects (project_id, space_id, project_name, description, start_date, due_date, completion,
       is_public, archived, completed, completed_time, status, priority, health, contact, created_by, modified_by,
       created_time, modified_time, detail, extra)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    p.projectId,
    p.spaceId,
    p.projectName,
    p.description ?? null,
    toMs(p.startDate),
    toMs(p.dueDate),
    p.completion ?? null,
    bit(p.public),
    bit(p.archived),
    bit(isProjectComplete(p)),
    toMs(p.completedTime),
    p.projectStatus?.projectStatusName ?? null,
    p.projectPriority?.priorityLabel ?? null,
    p.projectHealth?.healthLabel ?? null,
    p.contact ? JSON.stringify(p.contact) : null,
    p.createdBy?.userId ?? null,
    p.modifiedBy?.userId ?? null,
    toMs(p.createdTime),
    toMs(p.modifiedTime),
    JSON.stringify(detail),
    extraOf(p, projectKeys),
  );
  stmt(db, 'DELETE FROM project_tags WHERE project_id = ?').run(p.projectId);
  const tag = stmt(
    db,
    'INSERT OR IGNORE INTO project_tags (project_id, name, tag) VALUES (?, ?, ?)',
  );
  for (const t of p.projectTags ?? []) tag.run(p.projectId, t.tagName, JSON.stringify(t));
  stmt(db, 'DELETE FROM project_members WHERE project_id = ?').run(p.projectId);
  const member = stmt(
    db,
    'INSERT OR IGNORE INTO project_members (project_id, user_id, member) VALUES (?, ?, ?)',
  );
  for (const m of p.projectMembers ?? [])
    if (m.user) member.run(p.projectId, m.user.userId, JSON.stringify(m));
  upsertUsers(db, [p.createdBy, p.modifiedBy, ...(p.projectMembers ?? []).map((m) => m.user)]);
  if (p.customFields) upsertFieldDefinitions(db, p.customFields);
};

/**
 * What a removal of projects or a space takes. `fieldDefinitions: false` keeps the custom
 * field definitions: a delete the user just made may be undone before it is sent, and the
 * tasks it puts back (with edits queued on them) need their definitions; the server's
 * tombstone drops them at the next pull.
 */
export interface RemovalOptions {
  fieldDefinitions?: boolean;
}

/** Removes projects with their tasks, tags, members, files and field definitions. */
export const deleteProjects = (
  db: Sqlite,
  projectIds: readonly number[],
  { fieldDefinitions = true }: RemovalOptions = {},
): number => {
  if (projectIds.length === 0) return 0;
  const ids = JSON.stringify(projectIds);
  const taskIds = stmt(
    db,
    'SELECT task_id FROM tasks WHERE project_id IN (SELECT value FROM json_each(?))',
  ).all(ids) as { task_id: number }[];
  deleteTasks(
    db,
    taskIds.map((r) => r.task_id),
  );
  for (const table of ['project_tags', 'project_members', 'attachments']) {
    stmt(db, `DELETE FROM ${table} WHERE project_id IN (SELECT value FROM json_each(?))`).run(ids);
  }
  if (fieldDefinitions)
    stmt(db, 'DELETE FROM custom_fields WHERE project_id IN (SELECT value FROM json_each(?))').run(
      ids,
    );
  return stmt(db, 'DELETE FROM projects WHERE project_id IN (SELECT value FROM json_each(?))').run(
    ids,
  ).changes;
};

export const applyProjectItems = (
  db: Sqlite,
  items: readonly Project[],
): { upserted: number; deleted: number } => {
  const tombstones: number[] = [];
  let upserted = 0;
  for (const p of items) {
    if (p.deleted) tombstones.push(p.projectId);
    else {
      writeProject(db, p);
      upserted++;
    }
  }
  return { upserted, deleted: deleteProjects(db, tombstones) };
};

/** Upserts one space with its members, users and field definitions. */
export const writeSpace = (db: Sqlite, s: Space): void => {
  stmt(
    db,
    `INSERT OR REPLACE INTO spaces (space_id, space_name, description, color, space_type, archived, created_by, created_time, modified_time, extra)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    s.spaceId,
    s.spaceName,
    s.description ?? null,
    s.color ?? null,
    s.spaceType ?? null,
    bit(s.archived),
    s.createdBy?.userId ?? null,
    toMs(s.createdTime),
    toMs(s.modifiedTime),
    extraOf(s, spaceKeys),
  );
  stmt(db, 'DELETE FROM space_members WHERE space_id = ?').run(s.spaceId);
  const members = s.spaceMembers ?? [];
  const member = () =>
    stmt(
      db,
      'INSERT OR REPLACE INTO space_members (space_member_id, space_id, user_id, role_name, joined, hidden, extra) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
  for (const m of members)
    member().run(
      m.spaceMemberId,
      s.spaceId,
      m.user?.userId ?? null,
      m.spaceRole?.spaceRoleName ?? null,
      bit(m.joined ?? true),
      bit(m.hidden),
      // The whole role (its id too) and invitedBy ride along in extra.
      extraOf(m, spaceMemberKeys),
    );
  upsertUsers(db, [s.createdBy, s.modifiedBy, ...(s.spaceMembers ?? []).map((m) => m.user)]);
  if (s.customFields) upsertFieldDefinitions(db, s.customFields);
};

/** Removes a space with its members, its own field definitions, its projects and their tasks. */
export const deleteSpace = (db: Sqlite, spaceId: number, options: RemovalOptions = {}): void => {
  const projects = stmt(db, 'SELECT project_id FROM projects WHERE space_id = ?').all(spaceId) as {
    project_id: number;
  }[];
  deleteProjects(
    db,
    projects.map((p) => p.project_id),
    options,
  );
  if (options.fieldDefinitions !== false)
    stmt(db, 'DELETE FROM custom_fields WHERE space_id = ? AND project_id IS NULL').run(spaceId);
  stmt(db, 'DELETE FROM space_members WHERE space_id = ?').run(spaceId);
  stmt(db, 'DELETE FROM spaces WHERE space_id = ?').run(spaceId);
};

/**
 * The spaces list is small and complete: it replaces what the replica has. A space that is
 * gone takes its projects and their tasks with it.
 */
export const replaceSpaces = (
  db: Sqlite,
  spaces: readonly Space[],
): { upserted: number; deleted: number } => {
  const live = spaces.filter((s) => !s.deleted);
  const keep = JSON.stringify(live.map((s) => s.spaceId));
  const gone = stmt(
    db,
    'SELECT space_id FROM spaces WHERE space_id NOT IN (SELECT value FROM json_each(?))',
  ).all(keep) as { space_id: number }[];
  for (const { space_id } of gone) deleteSpace(db, space_id);
  for (const s of live) writeSpace(db, s);
  return { upserted: live.length, deleted: gone.length };
};
