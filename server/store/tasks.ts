import { rmSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { FieldError, TaskCreateRequest } from '../../shared/api';
import type { Db } from '../db/open';
import { badRequest } from '../http/errors';
import type { Ctx } from '../http/route';
import {
  replaceFieldValues,
  resolveFieldValues,
  type Scope,
  type StoredValue,
} from './custom-fields';
import { touchTask } from './lookup';
import { notifyTaskChange } from './notify';
import { IN_IDS, idsParam, NEXT_MODIFIED, stmt } from './statements';
import type { TaskRow } from './tasks-dto';
import { ms } from './time';
import {
  canonical,
  defaultTaskPriority,
  defaultTaskStatus,
  isCompleteStatus,
  taskPriorities,
  taskStatuses,
} from './vocab';

/**
 * Writing tasks (personal tasks, project tasks and the subtasks of both). Every check runs
 * before the first write, so a refused body changes nothing (and the route's transaction
 * would roll back anyway).
 */
interface TaskInput {
  title: string;
  description: string;
  status: string;
  priority: string;
  startDate: number | null;
  dueDate: number | null;
  completion: number;
  owners: number[];
  tags: string[];
  fieldValues: StoredValue[];
}

/**
 * A create or update body, checked. An update sends the full editable state (contract), so
 * whatever an optional field omits becomes empty / the default, exactly as on a create:
 * no owners, no tags, no custom field values, status To Do, priority None.
 */
const resolveInput = (db: Db, orgId: number, scope: Scope, body: TaskCreateRequest): TaskInput => {
  const errors: FieldError[] = [];
  const status =
    body.status === undefined ? defaultTaskStatus : canonical(taskStatuses, body.status);
  if (status === undefined)
    errors.push({
      field: 'status',
      message: `unknown status; one of ${taskStatuses.join(', ')}`,
      rejectedValue: body.status,
    });
  const priority =
    body.priority === undefined ? defaultTaskPriority : canonical(taskPriorities, body.priority);
  if (priority === undefined)
    errors.push({
      field: 'priority',
      message: `unknown priority; one of ${taskPriorities.join(', ')}`,
      rejectedValue: body.priority,
    });

  const owners = [...new Set(body.owners ?? [])];
  const member = stmt(db, 'SELECT 1 FROM org_members WHERE org_id = ? AND user_id = ?');
  for (const o of owners)
    if (member.get(orgId, o) === undefined)
      errors.push({
        field: 'owners',
        message: `user ${o} is not a member of this organization`,
        rejectedValue: o,
      });

  // Tags are names compared without case (the column is NOCASE): the first spelling wins.
  const tags: string[] = [];
  for (const t of body.tags ?? [])
    if (!tags.some((x) => x.toLowerCase() === t.toLowerCase())) tags.push(t);

  const fieldValues = resolveFieldValues(db, orgId, scope, body.customFieldValues, errors);
  if (errors.length > 0 || status === undefined || priority === undefined)
    throw badRequest('invalid task', errors);
  return {
    title: body.taskTitle,
    description: body.description ?? '',
    status,
    priority,
    startDate: ms(body.startDate),
    dueDate: ms(body.dueDate),
    completion: body.completion ?? 0,
    owners,
    tags,
    fieldValues,
  };
};

const writeChildren = (db: Db, taskId: number, input: TaskInput) => {
  stmt(db, 'DELETE FROM task_owners WHERE task_id = ?').run(taskId);
  const owner = stmt(db, 'INSERT INTO task_owners (task_id, user_id) VALUES (?, ?)');
  for (const o of input.owners) owner.run(taskId, o);
  stmt(db, 'DELETE FROM task_tags WHERE task_id = ?').run(taskId);
  const tag = stmt(db, 'INSERT INTO task_tags (task_id, name) VALUES (?, ?)');
  for (const t of input.tags) tag.run(taskId, t);
  replaceFieldValues(db, taskId, input.fieldValues);
};

const ownersOf = (db: Db, taskId: number): number[] =>
  (
    stmt(db, 'SELECT user_id FROM task_owners WHERE task_id = ?').all(taskId) as {
      user_id: number;
    }[]
  ).map((r) => r.user_id);

/** Where a new task goes. A personal subtask inherits no project; a project subtask inherits both. */
export interface Placement {
  spaceId: number | null;
  projectId: number | null;
  parentTaskId: number | null;
}

export const createTask = (db: Db, ctx: Ctx, at: Placement, body: TaskCreateRequest): number => {
  const input = resolveInput(db, ctx.orgId, at, body);
  const complete = isCompleteStatus(input.status);
  const info = stmt(
    db,
    `INSERT INTO tasks (org_id, space_id, project_id, parent_task_id, title, description, status, priority,
       start_date, due_date, completion, completed, completed_time, created_by, modified_by, created_time, modified_time)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    ctx.orgId,
    at.spaceId,
    at.projectId,
    at.parentTaskId,
    input.title,
    input.description,
    input.status,
    input.priority,
    input.startDate,
    input.dueDate,
    input.completion,
    complete ? 1 : 0,
    complete ? ctx.now : null,
    ctx.userId,
    ctx.userId,
    ctx.now,
    ctx.now,
  );
  const taskId = Number(info.lastInsertRowid);
  writeChildren(db, taskId, input);
  // The parent's subtaskCount changed: a delta pull must hand the parent out again.
  if (at.parentTaskId !== null) touchTask(db, at.parentTaskId, ctx.userId, ctx.now);
  notifyTaskChange(db, {
    orgId: ctx.orgId,
    actorId: ctx.userId,
    taskId,
    projectId: at.projectId,
    title: input.title,
    previousOwners: [],
    owners: input.owners,
    previousDescription: '',
    description: input.description,
    now: ctx.now,
  });
  return taskId;
};

/** Replaces the task's editable state. completedTime is set on entering Done, cleared on leaving. */
export const updateTask = (db: Db, ctx: Ctx, row: TaskRow, body: TaskCreateRequest): void => {
  const input = resolveInput(
    db,
    ctx.orgId,
    { spaceId: row.space_id, projectId: row.project_id },
    body,
  );
  const previousOwners = ownersOf(db, row.task_id);
  const complete = isCompleteStatus(input.status);
  const completedTime = complete ? (row.completed === 1 ? row.completed_time : ctx.now) : null;
  stmt(
    db,
    `UPDATE tasks SET title = ?, description = ?, status = ?, priority = ?, start_date = ?, due_date = ?,
       completion = ?, completed = ?, completed_time = ?, modified_by = ?, modified_time = ${NEXT_MODIFIED}
     WHERE task_id = ?`,
  ).run(
    input.title,
    input.description,
    input.status,
    input.priority,
    input.startDate,
    input.dueDate,
    input.completion,
    complete ? 1 : 0,
    completedTime,
    ctx.userId,
    ctx.now,
    row.task_id,
  );
  writeChildren(db, row.task_id, input);
  notifyTaskChange(db, {
    orgId: ctx.orgId,
    actorId: ctx.userId,
    taskId: row.task_id,
    projectId: row.project_id,
    title: input.title,
    previousOwners,
    owners: input.owners,
    previousDescription: row.description,
    description: input.description,
    now: ctx.now,
  });
};

/**
 * Soft-deletes live tasks and their live subtasks: deleted=1 with who and when, and a fresh
 * modified_time so the bulk export's delta hands out the tombstones. What hangs off them is
 * removed for real: checklist items, timers, attachment rows and their files.
 * Returns the ids that were deleted.
 */
export const softDeleteTasks = (
  db: Db,
  filesDir: string,
  rootIds: readonly number[],
  ctx: Ctx,
): number[] => {
  if (rootIds.length === 0) return [];
  const roots = idsParam(rootIds);
  const ids = (
    stmt(
      db,
      `SELECT task_id FROM tasks WHERE deleted = 0 AND (task_id IN ${IN_IDS} OR parent_task_id IN ${IN_IDS})`,
    ).all(roots, roots) as { task_id: number }[]
  ).map((r) => r.task_id);
  if (ids.length === 0) return [];
  const all = idsParam(ids);
  stmt(
    db,
    `UPDATE tasks SET deleted = 1, deleted_time = ?, deleted_by = ?, modified_by = ?, modified_time = ${NEXT_MODIFIED}
     WHERE task_id IN ${IN_IDS}`,
  ).run(ctx.now, ctx.userId, ctx.userId, ctx.now, all);
  stmt(db, `DELETE FROM checklist_items WHERE task_id IN ${IN_IDS}`).run(all);
  stmt(db, `DELETE FROM timers WHERE task_id IN ${IN_IDS}`).run(all);
  const files = stmt(db, `SELECT stored_name FROM attachments WHERE task_id IN ${IN_IDS}`).all(
    all,
  ) as { stored_name: string }[];
  stmt(db, `DELETE FROM attachments WHERE task_id IN ${IN_IDS}`).run(all);
  removeFiles(
    filesDir,
    files.map((f) => f.stored_name),
  );
  return ids;
};

/**
 * Removes stored files, ignoring missing ones. Done inside the handler: should the transaction
 * roll back after this, the rows would point at missing files, which the attachment routes
 * must tolerate anyway (a file can vanish from disk for other reasons).
 */
export const removeFiles = (filesDir: string, storedNames: readonly string[]): void => {
  const root = resolve(filesDir);
  for (const name of storedNames) {
    const path = resolve(join(root, name));
    // A stored name is ours, but never let one reach outside the files directory.
    if (!path.startsWith(root + sep)) continue;
    rmSync(path, { force: true });
  }
};

/** Deleting a subtask changes its parent's subtaskCount: touch the parent too. */
export const deleteTaskAndTouchParent = (
  db: Db,
  filesDir: string,
  row: TaskRow,
  ctx: Ctx,
): void => {
  softDeleteTasks(db, filesDir, [row.task_id], ctx);
  if (row.parent_task_id !== null) touchTask(db, row.parent_task_id, ctx.userId, ctx.now);
};
