import type { Db } from '../db/open';
import { badRequest, notFound } from '../http/errors';
import { findProject } from './lookup';
import { stmt } from './statements';
import { TASK_COLUMNS, type TaskRow } from './tasks-dto';

/**
 * Resolving a task from its path, or a 404. Another org's task is a 404 (never reveal it
 * exists), and so is a task reached through the wrong path: a project task under
 * /v1/tasks/{id}, a personal task under a project, a subtask under another parent, a
 * subtask where a top-level task is expected. Only getTaskById answers any live task.
 */
export const liveTask = (db: Db, orgId: number, taskId: number): TaskRow => {
  const row = stmt(
    db,
    `SELECT ${TASK_COLUMNS} FROM tasks t WHERE t.task_id = ? AND t.org_id = ? AND t.deleted = 0`,
  ).get(taskId, orgId) as TaskRow | undefined;
  if (!row) throw notFound(`task ${taskId}`);
  return row;
};

/** A top-level personal task (no project, no parent). */
export const personalTask = (db: Db, orgId: number, taskId: number): TaskRow => {
  const row = liveTask(db, orgId, taskId);
  if (row.project_id !== null || row.parent_task_id !== null)
    throw notFound(`personal task ${taskId}`);
  return row;
};

/** A subtask of the personal task `parentId`. */
export const personalSubtask = (
  db: Db,
  orgId: number,
  parentId: number,
  subtaskId: number,
): TaskRow => {
  personalTask(db, orgId, parentId);
  return subtaskOf(db, orgId, parentId, subtaskId);
};

/**
 * The parent of a new personal subtask. A project task is the wrong path (404); a subtask
 * exists but cannot have subtasks (400: one level of nesting only).
 */
export const personalSubtaskParent = (db: Db, orgId: number, parentId: number): TaskRow => {
  const row = liveTask(db, orgId, parentId);
  if (row.project_id !== null) throw notFound(`personal task ${parentId}`);
  if (row.parent_task_id !== null) throw noNesting(parentId);
  return row;
};

const noNesting = (taskId: number) =>
  badRequest('subtasks cannot have subtasks', [
    { field: 'parentTaskId', message: `task ${taskId} is itself a subtask`, rejectedValue: taskId },
  ]);

/** A live task whose parent is `parentId`, once the parent's own path has been checked. */
const subtaskOf = (db: Db, orgId: number, parentId: number, subtaskId: number): TaskRow => {
  const row = liveTask(db, orgId, subtaskId);
  if (row.parent_task_id !== parentId) throw notFound(`subtask ${subtaskId} of task ${parentId}`);
  return row;
};

/** /v1/spaces/{spaceId}/projects/{projectId}/tasks/{taskId} */
export interface ProjectTaskPath {
  spaceId: number;
  projectId: number;
  taskId: number;
}

/** Any live task of the project (top-level or subtask), after checking the space/project path. */
const inProject = (db: Db, orgId: number, p: ProjectTaskPath): TaskRow => {
  findProject(db, orgId, p.spaceId, p.projectId);
  const row = liveTask(db, orgId, p.taskId);
  if (row.project_id !== p.projectId) throw notFound(`task ${p.taskId} in project ${p.projectId}`);
  return row;
};

/** A top-level task of the project. */
export const projectTask = (db: Db, orgId: number, p: ProjectTaskPath): TaskRow => {
  const row = inProject(db, orgId, p);
  if (row.parent_task_id !== null) throw notFound(`task ${p.taskId} in project ${p.projectId}`);
  return row;
};

/** The parent of a new project subtask: as projectTask, but a subtask is a 400, not a 404. */
export const projectSubtaskParent = (db: Db, orgId: number, p: ProjectTaskPath): TaskRow => {
  const row = inProject(db, orgId, p);
  if (row.parent_task_id !== null) throw noNesting(p.taskId);
  return row;
};

export const projectSubtask = (
  db: Db,
  orgId: number,
  p: ProjectTaskPath & { subtaskId: number },
): TaskRow => {
  projectTask(db, orgId, p);
  return subtaskOf(db, orgId, p.taskId, p.subtaskId);
};
