/** Checklist items of tasks and subtasks: create, update (rename, tick, assign), delete. */
import type { ChecklistItem } from '../../../shared/api';
import type { EditOf, EditResult } from '../../../shared/edits/commands';
import { entityExists } from '../../db/entity-rows';
import { stmt } from '../../db/kysely';
import type { Sqlite } from '../../db/open';
import { toMs } from '../../db/queries/convert';
import { checklistState, currentId, notInReplica, onTaskPath, taskPlace } from '../state';
import {
  checklistTaskOf,
  deleteChecklistItem,
  refreshCounts,
  updateChecklistItem,
  upsertChecklistItem,
} from '../write-tasks';
import { asObject, numOrNull, pick } from './json';
import type { EditTx, EntityModule } from './types';

const checklistOp = (db: Sqlite, taskId: number, verb: 'create' | 'update' | 'delete') => {
  const { sub, path } = onTaskPath(taskPlace(db, taskId));
  return { operationId: `${verb}CheckListFor${sub ? 'Subtask' : 'Task'}`, path };
};

/** An existing item: its id now, and the operation and path of `verb` on it. */
const knownItem = (db: Sqlite, checklistId: number, verb: 'update' | 'delete') => {
  const id = currentId(db, 'checklist', checklistId);
  const taskId = checklistTaskOf(db, id);
  if (taskId === null) throw notInReplica(`checklist item ${checklistId}`);
  const { operationId, path } = checklistOp(db, taskId, verb);
  return { id, operationId, path: { ...path, checklistId: id } };
};

const createItem = (tx: EditTx, c: EditOf<'checklist.create'>): EditResult => {
  const { operationId, path } = checklistOp(tx.db, c.taskId, 'create');
  const body = tx.checkBody(operationId, { name: c.name, assigneeId: c.assigneeId ?? null });
  return tx.created({ kind: 'checklist.create', entity: 'checklist', operationId, path, body });
};

const updateItem = (tx: EditTx, c: EditOf<'checklist.update'>): EditResult => {
  const { id, operationId, path } = knownItem(tx.db, c.checklistId, 'update');
  // The API replaces name, state and assignee: the patch completes the item's current state.
  const body = tx.checkBody(operationId, { ...checklistState(tx.db, id), ...c.patch });
  return tx.existing({
    kind: 'checklist.update',
    entity: 'checklist',
    id,
    operationId,
    path,
    body,
  });
};

const deleteItem = (tx: EditTx, c: EditOf<'checklist.delete'>): EditResult => {
  const { id, operationId, path } = knownItem(tx.db, c.checklistId, 'delete');
  return tx.existing({
    kind: 'checklist.delete',
    entity: 'checklist',
    id,
    operationId,
    path,
    deep: true,
  });
};

const writeChecklistItem = (db: Sqlite, c: ChecklistItem, onTaskId: number): void => {
  stmt(
    db,
    `INSERT OR REPLACE INTO checklist_items (checklist_id, task_id, name, completed, assignee_id, position,
       created_time, modified_time, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
  ).run(
    c.checklistId,
    c.subtaskId ?? c.taskId ?? onTaskId,
    c.name,
    c.completed ? 1 : 0,
    c.assigneeId ?? null,
    c.position,
    toMs(c.createdTime),
    toMs(c.modifiedTime),
  );
};

export const checklist: EntityModule<'checklist'> = {
  kinds: {
    'checklist.create': {
      apply: createItem,
      effect: (db, { id, body, ref, now }) => {
        const on = ref('task', 'subtaskId') ?? ref('task', 'taskId');
        if (on === null || !entityExists(db, 'task', on)) return false;
        upsertChecklistItem(
          db,
          id,
          on,
          { name: String(body.name ?? ''), assigneeId: numOrNull(body.assigneeId) },
          now,
        );
        refreshCounts(db, [on]);
        return true;
      },
    },
    'checklist.update': {
      apply: updateItem,
      effect: (db, { id, body }) => {
        const on = checklistTaskOf(db, id);
        if (on === null) return false;
        updateChecklistItem(db, id, {
          name: String(body.name ?? ''),
          completed: body.completed === true,
          assigneeId: numOrNull(body.assigneeId),
        });
        refreshCounts(db, [on]);
        return true;
      },
    },
    'checklist.delete': {
      apply: deleteItem,
      effect: (db, { id, ref }) => {
        const on = deleteChecklistItem(db, id);
        refreshCounts(db, [on ?? ref('task', 'subtaskId') ?? ref('task', 'taskId')]);
        return on !== null;
      },
    },
  },
  traits: { embedded: true },
  answer: {
    idField: 'checklistId',
    write: (db, item, path) =>
      writeChecklistItem(db, item as ChecklistItem, path.subtaskId ?? path.taskId ?? 0),
  },
  remove: (db, id) => {
    stmt(db, 'DELETE FROM checklist_items WHERE checklist_id = ?').run(id);
  },
  recreate: (row) => {
    const body = asObject(row.body);
    const sub = row.operationId === 'updateCheckListForSubtask';
    return {
      kind: 'checklist.create',
      operationId: sub ? 'createCheckListForSubtask' : 'createCheckListForTask',
      path: pick(row.path, sub ? ['taskId', 'subtaskId'] : ['taskId']),
      body: { name: body.name ?? '', assigneeId: body.assigneeId ?? null },
      ...(body.completed === true
        ? {
            followUp: {
              operationId: sub ? 'updateCheckListForSubtask' : 'updateCheckListForTask',
              body,
            },
          }
        : {}),
    };
  },
};
