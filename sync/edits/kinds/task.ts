/** Tasks and subtasks: create, update, delete. */
import type { Task, TaskCreateRequest } from '../../../shared/api/tasks';
import type { EditOf, EditResult } from '../../../shared/edits/commands';
import { patchState } from '../../../shared/edits/keyed-lists';
import { entityExists } from '../../db/entity-rows';
import { deleteTasks, writeTask } from '../../db/queries/tasks-write';
import { beforeDone, noteDoneMove } from '../reopen';
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
import type { EditTx, EntityModule } from './types';

const createTask = ({ db, ...tx }: EditTx, c: EditOf<'task.create'>): EditResult => {
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
  const body = tx.checkBody(operationId, c.fields);
  return tx.created({ kind: 'task.create', entity: 'task', operationId, path, body });
};

const updateTask = ({ db, ...tx }: EditTx, c: EditOf<'task.update'>): EditResult => {
  const place = taskPlace(db, c.taskId);
  const { operationId, path } = taskOp(place, 'update');
  const state = taskState(db, place.taskId) ?? {};
  // Reopen: back to the status and completion from before the task was completed here.
  const remembered = c.reopen ? beforeDone(db, place.taskId) : null;
  const patch = remembered ? { ...c.patch, ...remembered } : c.patch;
  // A custom field is patched per field (shared/edits/keyed-lists.ts): the others are kept.
  const body = tx.checkBody(operationId, patchState(state, patch));
  noteDoneMove(db, place.taskId, state, body);
  return tx.existing({
    kind: 'task.update',
    entity: 'task',
    id: place.taskId,
    operationId,
    path,
    body,
  });
};

const deleteTask = ({ db, ...tx }: EditTx, c: EditOf<'task.delete'>): EditResult => {
  const place = taskPlace(db, c.taskId);
  const { operationId, path } = taskOp(place, 'delete');
  return tx.existing({
    kind: 'task.delete',
    entity: 'task',
    id: place.taskId,
    operationId,
    path,
    deep: true,
  });
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
