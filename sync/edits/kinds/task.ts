/** Tasks and subtasks: create, update, delete. */
import type { Task, TaskCreateRequest } from '../../../shared/api/tasks';
import type { EditOf, EditResult } from '../../../shared/edits/commands';
import { patchState } from '../../../shared/edits/keyed-lists';
import type { Sqlite } from '../../db/open';
import { deleteTasks, writeTask } from '../../db/queries/tasks-write';
import { checkBody, editCreate, editExisting } from '../commit';
import { entityExists } from '../entities';
import { beforeDone, noteDoneMove } from '../reopen';
import { addRowsOf, idsWhere, type RowSet } from '../rows';
import {
  currentId,
  EditError,
  localUser,
  notInReplica,
  spaceOfProject,
  taskOp,
  taskPlace,
  taskState,
} from '../state';
import { parentOf, refreshCounts, writeTaskState } from '../write-tasks';
import { asObject, pick } from './json';
import { stopTimerUnder } from './timer';
import type { EditContext, EntityModule } from './types';

const createTask = (db: Sqlite, c: EditOf<'task.create'>, ctx: EditContext): EditResult => {
  let operationId: string;
  let path: Record<string, number>;
  if (c.parentTaskId !== undefined) {
    const parent = taskPlace(db, c.parentTaskId);
    if (parent.parentTaskId !== null) throw new EditError('a subtask cannot have subtasks');
    if (c.projectId !== undefined && currentId(db, 'project', c.projectId) !== parent.projectId)
      throw new EditError(`task ${c.parentTaskId} is not in project ${c.projectId}`);
    if (parent.projectId === null) {
      operationId = 'createPersonalSubtask';
      path = { parentTaskId: c.parentTaskId };
    } else {
      operationId = 'createProjectSubtask';
      path = {
        spaceId: parent.spaceId ?? 0,
        projectId: parent.projectId,
        taskId: c.parentTaskId,
      };
    }
  } else if (c.projectId !== undefined) {
    const spaceId = spaceOfProject(db, currentId(db, 'project', c.projectId));
    if (spaceId === null) throw notInReplica(`project ${c.projectId}`);
    operationId = 'createProjectTask';
    path = { spaceId, projectId: c.projectId };
  } else {
    operationId = 'createTask';
    path = {};
  }
  const body = checkBody(operationId, c.fields);
  return editCreate(db, { kind: 'task.create', entity: 'task', operationId, path, body }, ctx.now);
};

const updateTask = (db: Sqlite, c: EditOf<'task.update'>, ctx: EditContext): EditResult => {
  const place = taskPlace(db, c.taskId);
  const { operationId, path } = taskOp(place, 'update');
  const state = taskState(db, place.taskId) ?? {};
  // Reopen: back to the status and completion from before the task was completed here.
  const remembered = c.reopen ? beforeDone(db, place.taskId) : null;
  const patch = remembered ? { ...c.patch, ...remembered } : c.patch;
  // A custom field is patched per field (shared/edits/keyed-lists.ts): the others are kept.
  const body = checkBody(operationId, patchState(state, patch));
  noteDoneMove(db, place.taskId, state, body);
  return editExisting(
    db,
    { kind: 'task.update', entity: 'task', id: place.taskId, operationId, path, body },
    ctx.now,
  );
};

const deleteTask = (db: Sqlite, c: EditOf<'task.delete'>, ctx: EditContext): EditResult => {
  const place = taskPlace(db, c.taskId);
  const { operationId, path } = taskOp(place, 'delete');
  stopTimerUnder(db, { taskId: place.taskId }, ctx);
  return editExisting(
    db,
    { kind: 'task.delete', entity: 'task', id: place.taskId, operationId, path, deep: true },
    ctx.now,
  );
};

const tables = ['tasks', 'task_tags', 'task_owners', 'custom_field_values'] as const;
/** Rows that are gone when their task is: a task delete's base keeps them. */
const dependents = ['checklist_items', 'attachments', 'timers'] as const;

/** A task and, transitively, its subtasks. */
const taskTree = (db: Sqlite, ids: readonly number[]): number[] =>
  idsWhere(
    db,
    `WITH RECURSIVE tree(id) AS (SELECT value FROM json_each(?)
       UNION SELECT t.task_id FROM tasks t JOIN tree ON t.parent_task_id = tree.id)
     SELECT id FROM tree`,
    JSON.stringify(ids),
  );

/** Tasks' rows; `deep` adds their subtasks and what goes with them (items, files, timers). */
export const taskRows = (db: Sqlite, ids: readonly number[], deep: boolean, into: RowSet) => {
  const all = deep ? taskTree(db, ids) : [...ids];
  addRowsOf(db, into, 'task_id', tables, all);
  if (deep) addRowsOf(db, into, 'task_id', dependents, all);
};

/** The path parameter naming a new subtask's parent (a top-level task's path has neither). */
const createdUnder = (operationId: string): string =>
  operationId === 'createPersonalSubtask' ? 'parentTaskId' : 'taskId';

const recreateOps: Record<string, [string, string[]]> = {
  updateTask: ['createTask', []],
  updateProjectTask: ['createProjectTask', ['spaceId', 'projectId']],
  updatePersonalSubtask: ['createPersonalSubtask', ['parentTaskId']],
  updateSubtask: ['createProjectSubtask', ['spaceId', 'projectId', 'taskId']],
};

export const task: EntityModule<'task'> = {
  kinds: {
    'task.create': {
      apply: createTask,
      effect: (db, { row, id, body, ref, now }) => {
        const parent = ref('task', createdUnder(row.operationId));
        if (parent !== null && !entityExists(db, 'task', parent)) return false;
        writeTaskState(
          db,
          id,
          {
            spaceId: ref('space', 'spaceId'),
            projectId: ref('project', 'projectId'),
            parentTaskId: row.operationId === 'createTask' ? null : parent,
          },
          body as unknown as TaskCreateRequest,
          now,
          localUser(db),
        );
        refreshCounts(db, [parent]);
        return true;
      },
    },
    'task.update': {
      apply: updateTask,
      effect: (db, { id, body, now }) => {
        if (!entityExists(db, 'task', id)) return false;
        const place = taskPlace(db, id);
        const own = db
          .prepare('SELECT space_id, project_id FROM tasks WHERE task_id = ?')
          .get(id) as { space_id: number | null; project_id: number | null };
        writeTaskState(
          db,
          id,
          { spaceId: own.space_id, projectId: own.project_id, parentTaskId: place.parentTaskId },
          body as unknown as TaskCreateRequest,
          now,
        );
        return true;
      },
    },
    'task.delete': {
      apply: deleteTask,
      effect: (db, { row, id, ref }) => {
        // Applied again after a pull, the row may be gone already: its path names the parent.
        const parent =
          parentOf(db, id) ??
          ref('task', 'parentTaskId') ??
          (row.path.subtaskId === undefined ? null : ref('task', 'taskId'));
        const removed = deleteTasks(db, [id]) > 0;
        refreshCounts(db, [parent]);
        return removed;
      },
    },
  },
  rows: { column: 'task_id', tables, modifiedTime: true },
  deepRows: (db, id, into) => taskRows(db, [id], true, into),
  state: taskState,
  answer: { idField: 'taskId', write: (db, item) => writeTask(db, item as Task) },
  remove: (db, id) => {
    deleteTasks(db, [id]);
  },
  recreate: (row) => {
    const [operationId, keep] = recreateOps[row.operationId] ?? ['createTask', []];
    return {
      kind: 'task.create',
      operationId,
      path: pick(row.path, keep),
      body: asObject(row.body),
    };
  },
};
