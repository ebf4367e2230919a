import type { Db } from '../db/open';
import { notFound } from '../http/errors';

/**
 * Finding a live row of the caller's org, or a 404. Another org's row is a 404 too: never
 * reveal that it exists.
 */
export interface TaskRef {
  taskId: number;
  projectId: number | null;
  spaceId: number | null;
  parentTaskId: number | null;
}

const taskRefOf = (db: Db, orgId: number, taskId: number): TaskRef | undefined =>
  db
    .prepare(
      'SELECT task_id AS taskId, project_id AS projectId, space_id AS spaceId, parent_task_id AS parentTaskId FROM tasks WHERE task_id = ? AND org_id = ? AND deleted = 0',
    )
    .get(taskId, orgId) as TaskRef | undefined;

/** Any live task (personal, project, or a subtask) of the org. */
export const findTask = (db: Db, orgId: number, taskId: number): TaskRef => {
  const t = taskRefOf(db, orgId, taskId);
  if (!t) throw notFound(`task ${taskId}`);
  return t;
};

/** A live subtask whose parent is `taskId`. */
export const findSubtask = (db: Db, orgId: number, taskId: number, subtaskId: number): TaskRef => {
  findTask(db, orgId, taskId);
  const s = taskRefOf(db, orgId, subtaskId);
  if (!s || s.parentTaskId !== taskId) throw notFound(`subtask ${subtaskId} of task ${taskId}`);
  return s;
};

export const findSpace = (db: Db, orgId: number, spaceId: number): void => {
  const row = db
    .prepare('SELECT 1 FROM spaces WHERE space_id = ? AND org_id = ? AND deleted = 0')
    .get(spaceId, orgId);
  if (!row) throw notFound(`space ${spaceId}`);
};

/** A live project of the space. */
export const findProject = (db: Db, orgId: number, spaceId: number, projectId: number): void => {
  findSpace(db, orgId, spaceId);
  const row = db
    .prepare(
      'SELECT 1 FROM projects WHERE project_id = ? AND space_id = ? AND org_id = ? AND deleted = 0',
    )
    .get(projectId, spaceId, orgId);
  if (!row) throw notFound(`project ${projectId} in space ${spaceId}`);
};

/**
 * A change to something a task embeds (checklist, attachments, custom values) is a change of
 * the task: its modifiedTime moves so that a delta pull hands it out again.
 */
export const touchTask = (db: Db, taskId: number, userId: number, now: number): void => {
  db.prepare(
    'UPDATE tasks SET modified_time = MAX(modified_time + 1, ?), modified_by = ? WHERE task_id = ?',
  ).run(now, userId, taskId);
};

export const touchProject = (db: Db, projectId: number, userId: number, now: number): void => {
  db.prepare(
    'UPDATE projects SET modified_time = MAX(modified_time + 1, ?), modified_by = ? WHERE project_id = ?',
  ).run(now, userId, projectId);
};
