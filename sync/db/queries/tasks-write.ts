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
  taskColumns,
} from './task-rows';
import { upsertUsers } from './users';

export const flushPageShared = (db: Sqlite, shared: SharedRows): void => {
  upsertUsers(db, shared.users);
  upsertFieldDefinitions(db, shared.fields);
};

const columnsOf = (n: number) => Array.from({ length: n }, (_, i) => `value ->> ${i}`).join(', ');
// jsonb_each hands each row over as JSONB; json_each would print it back to text for every
// `->>` to parse again (a task row's 22 columns: ~15 µs against ~5 µs).
const fromRows = (n: number) => `SELECT ${columnsOf(n)} FROM jsonb_each(?)`;
const IN_IDS = '(SELECT value FROM json_each(?))';

/** `a.c IS NOT b.c OR …` over `columns`: whether a row would change. */
const differs = (a: string, b: string, columns: readonly string[]) =>
  columns.map((c) => `${a}.${c} IS NOT ${b}.${c}`).join(' OR ');
const setFrom = (b: string, columns: readonly string[]) =>
  columns.map((c) => `${c} = ${b}.${c}`).join(', ');

/**
 * The upsert of task rows read by `source`, a SELECT of the 22 columns in `taskColumns` order
 * with a WHERE clause (without one, SQLite would read ON CONFLICT as a join constraint).
 */
export const upsertTasksSql = (source: string) =>
  `INSERT INTO tasks (${taskColumns.join(', ')}) ${source}
  ON CONFLICT(task_id) DO UPDATE SET ${setFrom('excluded', taskColumns.slice(1))}`;

/**
 * Columns an index or the search index reads. An UPDATE that names one rewrites that index's
 * entry (and re-indexes the text) even when the value is the same, so writeTasks sets them in
 * a statement of their own, only for rows where one of them changed.
 */
const keyedColumns = [
  'project_id',
  'parent_task_id',
  'title',
  'description',
  'status',
  'due_date',
  'completed',
] as const;
const plainColumns = taskColumns
  .slice(1)
  .filter((c) => !(keyedColumns as readonly string[]).includes(c));

const writeTasksSql = `INSERT INTO tasks (${taskColumns.join(', ')}) ${fromRows(taskColumns.length)} WHERE true
  ON CONFLICT(task_id) DO UPDATE SET ${setFrom('excluded', plainColumns)}
  WHERE ${differs('tasks', 'excluded', plainColumns)}`;
const updateKeyedSql = `UPDATE tasks SET ${setFrom('n', keyedColumns)}
  FROM (SELECT ${taskColumns.map((c, i) => `value ->> ${i} AS ${c}`).join(', ')} FROM jsonb_each(?)) AS n
  WHERE tasks.task_id = n.task_id AND (${differs('tasks', 'n', keyedColumns)})`;

type Child = (typeof childInserts)[number];
/** Removes the part's rows that the new rows no longer have (by key), for the given tasks. */
const deleteStaleSql = (c: Child) =>
  `DELETE FROM ${c.table} WHERE task_id IN ${IN_IDS} AND (${c.key.join(', ')}) NOT IN
   (SELECT ${c.key.map((k) => `value ->> ${c.names.indexOf(k)}`).join(', ')} FROM jsonb_each(?))`;
/** Inserts the part's rows; a row already there is updated only where it differs. */
const upsertChildSql = (c: Child) => {
  const rest = c.names.filter((n) => !c.key.includes(n));
  const insert = `INSERT INTO ${c.table} (${c.names.join(', ')}) ${fromRows(c.columns)} WHERE true ON CONFLICT(${c.key.join(', ')})`;
  return rest.length === 0
    ? `${insert} DO NOTHING`
    : `${insert} DO UPDATE SET ${setFrom('excluded', rest)} WHERE ${differs(c.table, 'excluded', rest)}`;
};

/**
 * Upserts tasks and what each embeds (tags, owners, values, checklist, files), writing only
 * what changed: a row equal to the replica's is not touched, so an answer or a pull that
 * repeats what the replica has costs reads, not pages. Every table gets a statement or two
 * for the whole batch, its rows passed as one JSON array that SQLite unpacks with jsonb_each:
 * a page of a thousand tasks costs a few dozen statements, not ten thousand. A plain TaskDto
 * leaves checklist and files as they are; a task without customFields leaves its values.
 */
export const writeTasks = (db: Sqlite, items: readonly (Task | BulkTask)[]): void => {
  if (items.length === 0) return;
  const page = pageRows(items);
  // One row per task, the last copy: UPDATE … FROM takes an arbitrary one of several matches.
  const rows = [...new Map(page.rows.map((r) => [r.task[0], r])).values()];
  const tasks = JSON.stringify(rows.map((r) => r.task));
  stmt(db, writeTasksSql).run(tasks);
  stmt(db, updateKeyedSql).run(tasks);
  for (const c of childInserts) {
    const carrying = rows.filter((r) => r[c.part] !== null);
    if (carrying.length === 0) continue;
    const parts = JSON.stringify(carrying.flatMap((r) => r[c.part] ?? []));
    stmt(db, deleteStaleSql(c)).run(JSON.stringify(carrying.map((r) => r.task[0])), parts);
    if (parts !== '[]') stmt(db, upsertChildSql(c)).run(parts);
  }
  flushPageShared(db, sharedRows(page.shared));
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
