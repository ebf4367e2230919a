import type { ChecklistItem } from '../../shared/api';
import type { Db } from '../db/open';
import { badRequest, notFound } from '../http/errors';
import { type ChecklistRow, checklistColumns, checklistDto } from './items-dto';
import { type TaskRef, touchTask } from './lookup';
import { isOrgMember } from './users';

/**
 * Checklist items of one task or subtask (`on`, already found in the caller's org). Positions
 * are dense from 0: a create appends, a delete closes its gap, and nothing else moves them.
 * Every change touches the task the item is on, so a delta pull hands that task out again.
 */

export interface ChecklistWho {
  userId: number;
  orgId: number;
  now: number;
}

const dtoOf = (r: ChecklistRow, on: TaskRef) => checklistDto(r, on.parentTaskId);

/** An assignee must belong to the org; checked before anything is written. */
const checkAssignee = (
  db: Db,
  orgId: number,
  assigneeId: number | null | undefined,
): number | null => {
  if (assigneeId === null || assigneeId === undefined) return null;
  if (!isOrgMember(db, orgId, assigneeId))
    throw badRequest('invalid request body', [
      {
        field: 'assigneeId',
        message: 'must be a member of the organization',
        rejectedValue: assigneeId,
      },
    ]);
  return assigneeId;
};

const itemRow = (db: Db, on: TaskRef, checklistId: number): ChecklistRow => {
  const row = db
    .prepare(
      `SELECT ${checklistColumns} FROM checklist_items WHERE checklist_id = ? AND task_id = ?`,
    )
    .get(checklistId, on.taskId) as ChecklistRow | undefined;
  // An item of another task (or of another org's task) is simply not under this path.
  if (!row) throw notFound(`checklist item ${checklistId} of task ${on.taskId}`);
  return row;
};

export const listChecklist = (db: Db, on: TaskRef): ChecklistItem[] =>
  (
    db
      .prepare(
        `SELECT ${checklistColumns} FROM checklist_items WHERE task_id = ? ORDER BY position, checklist_id`,
      )
      .all(on.taskId) as ChecklistRow[]
  ).map((r) => dtoOf(r, on));

export const createChecklistItem = (
  db: Db,
  on: TaskRef,
  input: { name: string; assigneeId?: number | null },
  who: ChecklistWho,
): ChecklistItem => {
  const assignee = checkAssignee(db, who.orgId, input.assigneeId);
  const { next } = db
    .prepare('SELECT COALESCE(MAX(position) + 1, 0) AS next FROM checklist_items WHERE task_id = ?')
    .get(on.taskId) as { next: number };
  const info = db
    .prepare(
      'INSERT INTO checklist_items (task_id, name, completed, assignee_id, position, created_time, modified_time) VALUES (?, ?, 0, ?, ?, ?, ?)',
    )
    .run(on.taskId, input.name, assignee, next, who.now, who.now);
  touchTask(db, on.taskId, who.userId, who.now);
  return dtoOf(itemRow(db, on, Number(info.lastInsertRowid)), on);
};

/** Replaces name, state and assignee: an omitted assigneeId unassigns (contract). */
export const updateChecklistItem = (
  db: Db,
  on: TaskRef,
  checklistId: number,
  input: { name: string; completed: boolean; assigneeId?: number | null },
  who: ChecklistWho,
): ChecklistItem => {
  itemRow(db, on, checklistId);
  const assignee = checkAssignee(db, who.orgId, input.assigneeId);
  db.prepare(
    'UPDATE checklist_items SET name = ?, completed = ?, assignee_id = ?, modified_time = ? WHERE checklist_id = ?',
  ).run(input.name, input.completed ? 1 : 0, assignee, who.now, checklistId);
  touchTask(db, on.taskId, who.userId, who.now);
  return dtoOf(itemRow(db, on, checklistId), on);
};

export const deleteChecklistItem = (
  db: Db,
  on: TaskRef,
  checklistId: number,
  who: ChecklistWho,
): void => {
  const row = itemRow(db, on, checklistId);
  db.prepare('DELETE FROM checklist_items WHERE checklist_id = ?').run(checklistId);
  // Close the gap; the items after it move up one and are thereby modified too.
  db.prepare(
    'UPDATE checklist_items SET position = position - 1, modified_time = ? WHERE task_id = ? AND position > ?',
  ).run(who.now, on.taskId, row.position);
  touchTask(db, on.taskId, who.userId, who.now);
};
