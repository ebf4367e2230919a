import type { Attachment, BulkTask, Task } from '../../../shared/api';
import { stmt } from '../kysely';
import type { Sqlite } from '../open';
import { upsertFieldDefinitions } from './custom-fields';
import {
  attachmentRow,
  childInserts,
  pageRows,
  type SharedRows,
  sharedRows,
  type TaskRows,
} from './task-rows';
import { upsertUsers } from './users';

export const flushPageShared = (db: Sqlite, shared: SharedRows): void => {
  upsertUsers(db, shared.users);
  upsertFieldDefinitions(db, shared.fields);
};

/** Rows handed to SQLite as one JSON array per table and statement (see writeTasks). */
const jsonRows = (db: Sqlite, sql: string, rows: unknown[][]): void => {
  if (rows.length > 0) stmt(db, sql).run(JSON.stringify(rows));
};

const columnsOf = (n: number) => Array.from({ length: n }, (_, i) => `value ->> ${i}`).join(', ');
// jsonb_each hands each row over as JSONB; json_each would print it back to text for every
// `->>` to parse again (a task row's 22 columns: ~15 µs against ~5 µs).
const fromRows = (n: number) => `SELECT ${columnsOf(n)} FROM jsonb_each(?)`;
const IN_IDS = '(SELECT value FROM json_each(?))';

const TASK_COLUMN_COUNT = 22;

/**
 * The upsert of task rows read by `source`, a SELECT of the 22 columns in this order with a
 * WHERE clause (without one, SQLite would read ON CONFLICT as a join constraint).
 */
export const upsertTasksSql = (
  source: string,
) => `INSERT INTO tasks (task_id, space_id, project_id, parent_task_id, title, description, status,
    priority, start_date, due_date, completion, completed, completed_time, created_by, modified_by, created_time,
    modified_time, subtask_count, checklist_count, checklist_completed_count, attachment_count, extra)
  ${source}
  ON CONFLICT(task_id) DO UPDATE SET space_id = excluded.space_id, project_id = excluded.project_id,
    parent_task_id = excluded.parent_task_id, title = excluded.title, description = excluded.description,
    status = excluded.status, priority = excluded.priority, start_date = excluded.start_date,
    due_date = excluded.due_date, completion = excluded.completion, completed = excluded.completed,
    completed_time = excluded.completed_time, created_by = excluded.created_by, modified_by = excluded.modified_by,
    created_time = excluded.created_time, modified_time = excluded.modified_time,
    subtask_count = excluded.subtask_count, checklist_count = excluded.checklist_count,
    checklist_completed_count = excluded.checklist_completed_count, attachment_count = excluded.attachment_count,
    extra = excluded.extra`;

/**
 * Upserts tasks and replaces what each embeds (tags, owners, values, checklist, files). Every
 * table gets one statement for the whole batch, its rows passed as one JSON array that SQLite
 * unpacks with jsonb_each: a page of a thousand tasks costs a dozen statements, not ten
 * thousand. A plain TaskDto leaves checklist and files as they are; a task without
 * customFields leaves its values.
 */
export const writeTasks = (db: Sqlite, items: readonly (Task | BulkTask)[]): void => {
  if (items.length === 0) return;
  const { rows, shared } = pageRows(items);
  const idsWith = (part: keyof TaskRows) =>
    JSON.stringify(rows.filter((r) => r[part] !== null).map((r) => r.task[0]));
  const ids = idsWith('task');
  stmt(db, `DELETE FROM task_tags WHERE task_id IN ${IN_IDS}`).run(ids);
  stmt(db, `DELETE FROM task_owners WHERE task_id IN ${IN_IDS}`).run(ids);
  stmt(db, `DELETE FROM custom_field_values WHERE task_id IN ${IN_IDS}`).run(idsWith('values'));
  stmt(db, `DELETE FROM checklist_items WHERE task_id IN ${IN_IDS}`).run(idsWith('checklist'));
  stmt(db, `DELETE FROM attachments WHERE task_id IN ${IN_IDS}`).run(idsWith('files'));
  jsonRows(
    db,
    upsertTasksSql(`${fromRows(TASK_COLUMN_COUNT)} WHERE true`),
    rows.map((r) => r.task),
  );
  for (const c of childInserts)
    jsonRows(
      db,
      `${c.sql} ${fromRows(c.columns)}`,
      rows.flatMap((r) => r[c.part] ?? []),
    );
  flushPageShared(db, sharedRows(shared));
};

/** One task: the same path as a page of one. */
export const writeTask = (db: Sqlite, t: Task | BulkTask): void => writeTasks(db, [t]);

export const writeAttachment = (
  db: Sqlite,
  on: { taskId: number | null; projectId: number | null },
  a: Attachment,
): void => {
  stmt(db, `${childInserts[4].sql} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
    ...attachmentRow(a, on.taskId, on.projectId),
  );
  if (a.createdBy) upsertUsers(db, [a.createdBy]);
};

/** Removes tasks, their subtasks and everything they embed (a tombstone, or a deleted parent). */
export const deleteTasks = (db: Sqlite, taskIds: readonly number[]): number => {
  if (taskIds.length === 0) return 0;
  const ids = JSON.stringify(taskIds);
  const all = stmt(
    db,
    `WITH RECURSIVE doomed(id) AS (SELECT value FROM json_each(?) UNION SELECT t.task_id FROM tasks t JOIN doomed d ON t.parent_task_id = d.id)
     SELECT id FROM doomed`,
  ).all(ids) as { id: number }[];
  const list = JSON.stringify(all.map((r) => r.id));
  for (const table of [
    'task_tags',
    'task_owners',
    'custom_field_values',
    'checklist_items',
    'attachments',
    'timers',
  ]) {
    stmt(db, `DELETE FROM ${table} WHERE task_id IN (SELECT value FROM json_each(?))`).run(list);
  }
  return stmt(db, 'DELETE FROM tasks WHERE task_id IN (SELECT value FROM json_each(?))').run(list)
    .changes;
};

/** Applies one page of the bulk task export: upserts, and tombstones as deletes. */
export const applyTaskItems = (
  db: Sqlite,
  items: readonly BulkTask[],
): { upserted: number; deleted: number } => {
  const live = items.filter((t) => !t.deleted);
  writeTasks(db, live);
  return {
    upserted: live.length,
    deleted: deleteTasks(
      db,
      items.filter((t) => t.deleted).map((t) => t.taskId),
    ),
  };
};
