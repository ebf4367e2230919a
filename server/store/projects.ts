import type { FieldError, Project, ProjectCreateRequest } from '../../shared/api';
import {
  compileOrderBy,
  compileProjectFilter,
  type Page,
  type ProjectFilter,
  type ProjectSqlShape,
  pageOf,
  pageWindow,
  projectFilterKinds,
  projectSortColumns,
} from '../../shared/filters';
import type { Db } from '../db/open';
import { badRequest, notFound } from '../http/errors';
import type { Ctx } from '../http/route';
import { PROJECT_COLUMNS, type ProjectRow, projectDtos } from './projects-dto';
import { NEXT_MODIFIED, stmt } from './statements';
import { type ListQuery, pickFilter } from './task-list';
import { removeFiles, softDeleteTasks } from './tasks';
import { ms } from './time';
import { completedProjectCategory } from './vocab';

/**
 * Writing and listing projects. Status, priority and health are names matched (without
 * case) against the org's vocabulary tables; omitted ones take the org's default. The
 * creator is always a member. An update sends the full editable state like a create.
 */
interface ProjectInput {
  name: string;
  description: string;
  startDate: number | null;
  dueDate: number | null;
  completion: number;
  statusId: number;
  complete: boolean;
  priorityId: number;
  healthId: number;
  tags: string[];
  members: number[];
  isPublic: boolean;
  contactId: number | null;
}

const vocab = (
  db: Db,
  orgId: number,
  table: string,
  idColumn: string,
  nameColumn: string,
  name: string | undefined,
  field: string,
  errors: FieldError[],
): { id: number; category?: string } | undefined => {
  const extra = table === 'project_statuses' ? ', category' : '';
  const row = (
    name === undefined
      ? stmt(
          db,
          `SELECT ${idColumn} AS id${extra} FROM ${table} WHERE org_id = ? ORDER BY is_default DESC, ${idColumn} LIMIT 1`,
        ).get(orgId)
      : stmt(
          db,
          `SELECT ${idColumn} AS id${extra} FROM ${table} WHERE org_id = ? AND ${nameColumn} = ? COLLATE NOCASE`,
        ).get(orgId, name.trim())
  ) as { id: number; category?: string } | undefined;
  if (!row) {
    const known = (
      stmt(db, `SELECT ${nameColumn} AS n FROM ${table} WHERE org_id = ? ORDER BY ${idColumn}`).all(
        orgId,
      ) as { n: string }[]
    )
      .map((r) => r.n)
      .join(', ');
    errors.push({ field, message: `unknown ${field}; one of ${known}`, rejectedValue: name });
  }
  return row;
};

const resolveInput = (
  db: Db,
  ctx: Ctx,
  body: ProjectCreateRequest,
  creator: number,
): ProjectInput => {
  const errors: FieldError[] = [];
  const status = vocab(
    db,
    ctx.orgId,
    'project_statuses',
    'status_id',
    'name',
    body.status,
    'status',
    errors,
  );
  const priority = vocab(
    db,
    ctx.orgId,
    'project_priorities',
    'priority_id',
    'label',
    body.priority,
    'priority',
    errors,
  );
  const health = vocab(
    db,
    ctx.orgId,
    'project_health',
    'health_id',
    'label',
    body.health,
    'health',
    errors,
  );
  const member = stmt(db, 'SELECT 1 FROM org_members WHERE org_id = ? AND user_id = ?');
  const members = [creator];
  for (const m of body.members ?? []) {
    if (member.get(ctx.orgId, m) === undefined)
      errors.push({
        field: 'members',
        message: `user ${m} is not a member of this organization`,
        rejectedValue: m,
      });
    else if (!members.includes(m)) members.push(m);
  }
  const contactId = body.contactId ?? null;
  if (
    contactId !== null &&
    stmt(db, 'SELECT 1 FROM contacts WHERE contact_id = ? AND org_id = ?').get(
      contactId,
      ctx.orgId,
    ) === undefined
  )
    errors.push({
      field: 'contactId',
      message: `no contact ${contactId} in this organization`,
      rejectedValue: contactId,
    });
  const tags: string[] = [];
  for (const t of body.tags ?? [])
    if (!tags.some((x) => x.toLowerCase() === t.toLowerCase())) tags.push(t);
  if (errors.length > 0 || !status || !priority || !health)
    throw badRequest('invalid project', errors);
  return {
    name: body.projectName,
    description: body.description ?? '',
    startDate: ms(body.startDate),
    dueDate: ms(body.dueDate),
    completion: body.completion ?? 0,
    statusId: status.id,
    complete: status.category === completedProjectCategory,
    priorityId: priority.id,
    healthId: health.id,
    tags,
    members,
    isPublic: body.public ?? true,
    contactId,
  };
};

/** Members and tags: rows that stay keep their ids (and who invited / created them). */
const writeChildren = (
  db: Db,
  ctx: Ctx,
  projectId: number,
  creator: number,
  input: ProjectInput,
) => {
  const existing = stmt(db, 'SELECT user_id FROM project_members WHERE project_id = ?').all(
    projectId,
  ) as { user_id: number }[];
  const drop = stmt(db, 'DELETE FROM project_members WHERE project_id = ? AND user_id = ?');
  for (const e of existing) if (!input.members.includes(e.user_id)) drop.run(projectId, e.user_id);
  const add = stmt(
    db,
    'INSERT OR IGNORE INTO project_members (project_id, user_id, invited_by, role_id, role_name) VALUES (?, ?, ?, ?, ?)',
  );
  for (const m of input.members)
    if (m === creator) add.run(projectId, m, null, 1, 'Owner');
    else add.run(projectId, m, ctx.userId, 2, 'Member');

  const tags = stmt(db, 'SELECT project_tag_id, name FROM project_tags WHERE project_id = ?').all(
    projectId,
  ) as {
    project_tag_id: number;
    name: string;
  }[];
  const dropTag = stmt(db, 'DELETE FROM project_tags WHERE project_tag_id = ?');
  for (const t of tags)
    if (!input.tags.some((n) => n.toLowerCase() === t.name.toLowerCase()))
      dropTag.run(t.project_tag_id);
  const addTag = stmt(
    db,
    'INSERT OR IGNORE INTO project_tags (project_id, name, created_by) VALUES (?, ?, ?)',
  );
  for (const n of input.tags) addTag.run(projectId, n, ctx.userId);
};

/** What a create and an update both write from the input, in both statements' column order. */
const inputValues = (input: ProjectInput) => [
  input.name,
  input.description,
  input.startDate,
  input.dueDate,
  input.completion,
  input.isPublic ? 1 : 0,
  input.statusId,
  input.priorityId,
  input.healthId,
  input.contactId,
  input.complete ? 1 : 0,
];

export const createProject = (
  db: Db,
  ctx: Ctx,
  spaceId: number,
  body: ProjectCreateRequest,
): number => {
  const input = resolveInput(db, ctx, body, ctx.userId);
  const info = stmt(
    db,
    `INSERT INTO projects (org_id, space_id, project_name, description, start_date, due_date, completion, is_public,
       status_id, priority_id, health_id, contact_id, completed, completed_time, created_by, modified_by, created_time, modified_time)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    ctx.orgId,
    spaceId,
    ...inputValues(input),
    input.complete ? ctx.now : null,
    ctx.userId,
    ctx.userId,
    ctx.now,
    ctx.now,
  );
  const projectId = Number(info.lastInsertRowid);
  writeChildren(db, ctx, projectId, ctx.userId, input);
  return projectId;
};

export const updateProject = (
  db: Db,
  ctx: Ctx,
  row: ProjectRow,
  body: ProjectCreateRequest,
): void => {
  const input = resolveInput(db, ctx, body, row.created_by);
  const completedTime = input.complete
    ? row.completed === 1
      ? row.completed_time
      : ctx.now
    : null;
  stmt(
    db,
    `UPDATE projects SET project_name = ?, description = ?, start_date = ?, due_date = ?, completion = ?, is_public = ?,
       status_id = ?, priority_id = ?, health_id = ?, contact_id = ?, completed = ?, completed_time = ?,
       modified_by = ?, modified_time = ${NEXT_MODIFIED}
     WHERE project_id = ?`,
  ).run(...inputValues(input), completedTime, ctx.userId, ctx.now, row.project_id);
  writeChildren(db, ctx, row.project_id, row.created_by, input);
};

/** A live project of the space (path consistency: another space's project is a 404). */
export const projectRow = (
  db: Db,
  orgId: number,
  spaceId: number,
  projectId: number,
): ProjectRow => {
  const row = stmt(
    db,
    `SELECT ${PROJECT_COLUMNS} FROM projects p JOIN spaces s ON s.space_id = p.space_id AND s.deleted = 0
     WHERE p.project_id = ? AND p.space_id = ? AND p.org_id = ? AND p.deleted = 0`,
  ).get(projectId, spaceId, orgId) as ProjectRow | undefined;
  if (!row) throw notFound(`project ${projectId} in space ${spaceId}`);
  return row;
};

/**
 * Soft-deletes projects with their tasks (and the tasks' subtasks, checklists, timers and
 * attachments); the projects' own attachments are removed for real with their files.
 */
export const softDeleteProjects = (
  db: Db,
  filesDir: string,
  projectIds: readonly number[],
  ctx: Ctx,
): void => {
  const taskIds = stmt(db, 'SELECT task_id FROM tasks WHERE project_id = ? AND deleted = 0');
  const files = stmt(db, 'SELECT stored_name FROM attachments WHERE project_id = ?');
  for (const projectId of projectIds) {
    softDeleteTasks(
      db,
      filesDir,
      (taskIds.all(projectId) as { task_id: number }[]).map((r) => r.task_id),
      ctx,
    );
    const names = (files.all(projectId) as { stored_name: string }[]).map((f) => f.stored_name);
    stmt(db, 'DELETE FROM attachments WHERE project_id = ?').run(projectId);
    removeFiles(filesDir, names);
    stmt(
      db,
      `UPDATE projects SET deleted = 1, deleted_time = ?, deleted_by = ?, modified_by = ?, modified_time = ${NEXT_MODIFIED}
       WHERE project_id = ? AND deleted = 0`,
    ).run(ctx.now, ctx.userId, ctx.userId, ctx.now, projectId);
  }
};

/** Projects joined to their vocabularies, so status/priority/health filter by name. */
const FROM = `projects p
  LEFT JOIN project_statuses ps ON ps.status_id = p.status_id
  LEFT JOIN project_priorities pp ON pp.priority_id = p.priority_id
  LEFT JOIN project_health ph ON ph.health_id = p.health_id`;

const projectShape: ProjectSqlShape = {
  alias: 'p',
  columns: {
    id: 'project_id',
    name: 'project_name',
    statusName: '(ps.name)',
    priorityLabel: '(pp.label)',
    healthLabel: '(ph.label)',
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
const sortColumns = projectSortColumns(projectShape);

export const listProjects = (
  db: Db,
  orgId: number,
  spaceId: number,
  query: ListQuery,
  now: number,
): Page<Project> => {
  const filter = compileProjectFilter(
    pickFilter<ProjectFilter>(projectFilterKinds, query),
    projectShape,
    now,
  );
  const where = `p.org_id = ? AND p.space_id = ? AND p.deleted = 0 AND (${filter.sql})`;
  const params = [orgId, spaceId, ...filter.params];
  const { n } = db.prepare(`SELECT COUNT(*) AS n FROM ${FROM} WHERE ${where}`).get(...params) as {
    n: number;
  };
  const { limit, offset } = pageWindow(query.page, query.size);
  const orderBy = compileOrderBy(query.sort, sortColumns, sortColumns.projectId);
  const rows =
    offset >= n
      ? []
      : (db
          .prepare(
            `SELECT ${PROJECT_COLUMNS} FROM ${FROM} WHERE ${where} ${orderBy} LIMIT ? OFFSET ?`,
          )
          .all(...params, limit, offset) as ProjectRow[]);
  return pageOf(projectDtos(db, rows, now), n, query.page, query.size);
};
