import type { Attachment, BulkTask, CustomField, Task, UserRef } from '../../../shared/api';
import { customValueColumns } from '../../../shared/filters';
import { stmt } from '../kysely';
import type { Sqlite } from '../open';
import { bit, extraOf, toMs } from './convert';
import { upsertFieldDefinitions } from './custom-fields';
import { upsertUsers } from './users';

const taskKeys = new Set([
  'taskId',
  'spaceId',
  'projectId',
  'parentTaskId',
  'taskTitle',
  'description',
  'status',
  'priority',
  'tags',
  'owners',
  'startDate',
  'dueDate',
  'completion',
  'completedTime',
  'overdue',
  'createdBy',
  'modifiedBy',
  'createdTime',
  'modifiedTime',
  'deleted',
  'deletedTime',
  'customFields',
  'subtaskCount',
  'checklistCount',
  'checklistCompletedCount',
  'attachmentCount',
  'checklists',
  'attachments',
]);
const checklistKeys = new Set([
  'checklistId',
  'taskId',
  'subtaskId',
  'name',
  'completed',
  'assigneeId',
  'position',
  'createdTime',
  'modifiedTime',
]);
const attachmentKeys = new Set([
  'attachmentId',
  'fileName',
  'extension',
  'contentType',
  'size',
  'downloadUrl',
  'taskId',
  'subtaskId',
  'projectId',
  'createdBy',
  'createdTime',
]);

/**
 * The server computes `completed` from its own vocabulary; the DTO does not carry it, so the
 * replica takes "has a completedTime" or the contract's "Done means complete".
 */
export const isTaskComplete = (t: Pick<Task, 'status' | 'completedTime'>): boolean =>
  (t.completedTime !== null && t.completedTime !== undefined) ||
  (t.status ?? '').toLowerCase() === 'done';

/**
 * What a page shares across its tasks (user references, custom field definitions) is
 * written once per page, not once per task.
 */
export interface PageShared {
  users: Map<number, UserRef>;
  fields: Map<number, CustomField>;
}

const newPageShared = (): PageShared => ({ users: new Map(), fields: new Map() });

const collect = (shared: PageShared, refs: (UserRef | null | undefined)[]) => {
  for (const r of refs) if (r && !shared.users.has(r.userId)) shared.users.set(r.userId, r);
};

export const flushPageShared = (db: Sqlite, shared: PageShared): void => {
  upsertUsers(db, shared.users.values());
  upsertFieldDefinitions(
    db,
    [...shared.fields.values()].filter((f) => f.fieldName !== undefined),
  );
};

/** Rows handed to SQLite as one JSON array per table and statement (see writeTasks). */
const jsonRows = (db: Sqlite, sql: string, rows: unknown[][]): void => {
  if (rows.length > 0) stmt(db, sql).run(JSON.stringify(rows));
};

const columnsOf = (n: number) => Array.from({ length: n }, (_, i) => `value ->> ${i}`).join(', ');
const fromRows = (n: number) => `SELECT ${columnsOf(n)} FROM json_each(?)`;
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
 * The rows of each table that a task fills, each table's row as an array of its columns
 * (the order of the inserts below, see `childInserts`). `null`: the item does not carry that
 * part, so what the replica has of it stays (a plain TaskDto has no checklist or files; a
 * task without customFields keeps its values).
 */
export interface TaskRows {
  task: unknown[];
  tags: unknown[][];
  owners: unknown[][];
  values: unknown[][] | null;
  checklist: unknown[][] | null;
  files: unknown[][] | null;
}

/** The parts of `TaskRows` that are child tables, and how each is inserted from rows. */
export const childInserts = [
  { part: 'tags', sql: 'INSERT OR IGNORE INTO task_tags (task_id, name)', columns: 2 },
  {
    part: 'owners',
    sql: 'INSERT OR IGNORE INTO task_owners (task_id, user_id, due_date, completed)',
    columns: 4,
  },
  {
    part: 'values',
    sql: 'INSERT OR REPLACE INTO custom_field_values (task_id, field_id, value, text, num)',
    columns: 5,
  },
  {
    part: 'checklist',
    sql: 'INSERT OR REPLACE INTO checklist_items (checklist_id, task_id, name, completed, assignee_id, position, created_time, modified_time, extra)',
    columns: 9,
  },
  {
    part: 'files',
    sql: 'INSERT OR REPLACE INTO attachments (attachment_id, task_id, project_id, file_name, extension, content_type, size, download_url, created_by, created_time, extra)',
    columns: 11,
  },
] as const satisfies readonly { part: keyof TaskRows; sql: string; columns: number }[];

/** Every table's rows of one task, and what it shares with its page into `shared`. */
export const taskRows = (t: Task | BulkTask, shared: PageShared): TaskRows => {
  const id = t.taskId;
  const due = toMs(t.dueDate);
  const done = bit(isTaskComplete(t));
  const task = [
    id,
    t.spaceId ?? null,
    t.projectId ?? null,
    t.parentTaskId ?? null,
    t.taskTitle,
    t.description ?? null,
    t.status ?? null,
    t.priority ?? null,
    toMs(t.startDate),
    due,
    t.completion ?? null,
    done,
    toMs(t.completedTime),
    t.createdBy?.userId ?? null,
    t.modifiedBy?.userId ?? null,
    toMs(t.createdTime),
    toMs(t.modifiedTime),
    t.subtaskCount ?? 0,
    t.checklistCount ?? 0,
    t.checklistCompletedCount ?? 0,
    t.attachmentCount ?? 0,
    extraOf(t, taskKeys),
  ];
  const tags = (t.tags ?? []).map((name) => [id, name]);
  const owners = (t.owners ?? []).map((o) => [id, o.userId, due, done]);
  collect(shared, [t.createdBy, t.modifiedBy, ...(t.owners ?? [])]);
  let values: unknown[][] | null = null;
  if (t.customFields) {
    values = [];
    for (const f of t.customFields) {
      // A page may carry a definition whole once and slim elsewhere: keep the fullest copy.
      const known = shared.fields.get(f.taskCustomFieldId);
      if (!known || Object.keys(f).length > Object.keys(known).length)
        shared.fields.set(f.taskCustomFieldId, f);
      for (const v of f.fieldValue ?? []) {
        if (v.taskId !== id || v.value === null || v.value === undefined) continue;
        const cols = customValueColumns(f.fieldType, v.value, f.customFieldOption ?? []);
        values.push([id, f.taskCustomFieldId, JSON.stringify(v.value), cols.text, cols.num]);
      }
    }
  }
  // A bulk item embeds its checklist and files; a plain TaskDto does not.
  const { checklists, attachments } = t as BulkTask;
  const checklist = checklists
    ? checklists.map((c) => [
        c.checklistId,
        id,
        c.name,
        bit(c.completed),
        c.assigneeId ?? null,
        c.position,
        toMs(c.createdTime),
        toMs(c.modifiedTime),
        extraOf(c, checklistKeys),
      ])
    : null;
  let files: unknown[][] | null = null;
  if (attachments) {
    files = attachments.map((a) => attachmentRow(a, id, null));
    collect(
      shared,
      attachments.map((a) => a.createdBy),
    );
  }
  return { task, tags, owners, values, checklist, files };
};

/** Every task's rows, in task id order, and what the page shares. */
export const pageRows = (
  items: readonly (Task | BulkTask)[],
): { rows: TaskRows[]; shared: PageShared } => {
  const shared = newPageShared();
  // In id order: neighbouring rows land in the same b-tree pages (the export's order is by time).
  const sorted = [...items].sort((a, b) => a.taskId - b.taskId);
  return { rows: sorted.map((t) => taskRows(t, shared)), shared };
};

/**
 * Upserts tasks and replaces what each embeds (tags, owners, values, checklist, files). Every
 * table gets one statement for the whole batch, its rows passed as one JSON array that SQLite
 * unpacks with json_each: a page of a thousand tasks costs a dozen statements, not ten
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
  flushPageShared(db, shared);
};

/** One task: the same path as a page of one. */
export const writeTask = (db: Sqlite, t: Task | BulkTask): void => writeTasks(db, [t]);

const attachmentRow = (
  a: Attachment,
  taskId: number | null,
  projectId: number | null,
): unknown[] => [
  a.attachmentId,
  taskId,
  projectId,
  a.fileName,
  a.extension ?? null,
  a.contentType ?? null,
  a.size ?? null,
  a.downloadUrl ?? null,
  a.createdBy?.userId ?? null,
  toMs(a.createdTime),
  extraOf(a, attachmentKeys),
];

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
