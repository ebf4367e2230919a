/**
 * The replica's rows of a task, built from the API's shapes without the database (plain
 * data): the writers (tasks-write.ts, tasks-stage.ts) hand them to SQLite, and a first fill
 * builds them on the page decoder's worker thread (sync/engine/page-decode.ts), which should
 * load no more than this.
 */
import type { Attachment, BulkTask, CustomField, Task, UserRef } from '../../../shared/api';
import { customValueColumns } from '../../../shared/filters/custom-value-columns';
import type { TasksTable } from '../types';
import { bit, extraOf, toMs } from './convert';

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

/** What a page shares, as plain arrays: it may be built on another thread. */
export interface SharedRows {
  users: UserRef[];
  fields: CustomField[];
}

export const sharedRows = (shared: PageShared): SharedRows => ({
  users: [...shared.users.values()],
  fields: [...shared.fields.values()].filter((f) => f.fieldName !== undefined),
});

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

/** The tasks table's columns, in the order of `TaskRows['task']`. */
export const taskColumns = [
  'task_id',
  'space_id',
  'project_id',
  'parent_task_id',
  'title',
  'description',
  'status',
  'priority',
  'start_date',
  'due_date',
  'completion',
  'completed',
  'completed_time',
  'created_by',
  'modified_by',
  'created_time',
  'modified_time',
  'subtask_count',
  'checklist_count',
  'checklist_completed_count',
  'attachment_count',
  'extra',
] as const satisfies readonly (keyof TasksTable)[];

interface ChildTable {
  part: Exclude<keyof TaskRows, 'task'>;
  table: string;
  /** Its columns, in the order of the part's rows. */
  names: readonly string[];
  /** The primary key: what identifies a row of the part. */
  key: readonly string[];
  /** On a key already present during a bulk move: keep the first row, or take the last. */
  onDuplicate: 'IGNORE' | 'REPLACE';
}

const childTable = (c: ChildTable) => ({
  ...c,
  columns: c.names.length,
  sql: `INSERT OR ${c.onDuplicate} INTO ${c.table} (${c.names.join(', ')})`,
});

/** The parts of `TaskRows` that are child tables, and how each is inserted from rows. */
export const childInserts = [
  childTable({
    part: 'tags',
    table: 'task_tags',
    names: ['task_id', 'name'],
    key: ['task_id', 'name'],
    onDuplicate: 'IGNORE',
  }),
  childTable({
    part: 'owners',
    table: 'task_owners',
    names: ['task_id', 'user_id', 'due_date', 'completed'],
    key: ['task_id', 'user_id'],
    onDuplicate: 'IGNORE',
  }),
  childTable({
    part: 'values',
    table: 'custom_field_values',
    names: ['task_id', 'field_id', 'value', 'text', 'num'],
    key: ['task_id', 'field_id'],
    onDuplicate: 'REPLACE',
  }),
  childTable({
    part: 'checklist',
    table: 'checklist_items',
    names: [
      'checklist_id',
      'task_id',
      'name',
      'completed',
      'assignee_id',
      'position',
      'created_time',
      'modified_time',
      'extra',
    ],
    key: ['checklist_id'],
    onDuplicate: 'REPLACE',
  }),
  childTable({
    part: 'files',
    table: 'attachments',
    names: [
      'attachment_id',
      'task_id',
      'project_id',
      'file_name',
      'extension',
      'content_type',
      'size',
      'download_url',
      'created_by',
      'created_time',
      'extra',
    ],
    key: ['attachment_id'],
    onDuplicate: 'REPLACE',
  }),
] as const;

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

export const attachmentRow = (
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

/** A staged task: its rows for every table, in `TaskRows` order. */
export type StagedTask = [
  TaskRows['task'],
  TaskRows['tags'],
  TaskRows['owners'],
  TaskRows['values'],
  TaskRows['checklist'],
  TaskRows['files'],
];

export const stagedTasksJson = (rows: readonly TaskRows[]): string =>
  JSON.stringify(
    rows.map((r): StagedTask => [r.task, r.tags, r.owners, r.values, r.checklist, r.files]),
  );

/**
 * A page of the export made ready for the stage without the database, so that it can be
 * built on another thread (sync/engine/page-decoder.ts) and cross to the writer as is.
 */
export interface StagePage {
  /** The JSON of a `StagedTask[]` of the live tasks; null when there is none. */
  staged: string | null;
  /** Tombstoned task ids. */
  dead: number[];
  shared: SharedRows;
  upserted: number;
}

export const encodeStagePage = (items: readonly BulkTask[]): StagePage => {
  const live = items.filter((t) => !t.deleted);
  const dead = items.filter((t) => t.deleted).map((t) => t.taskId);
  const { rows, shared } = pageRows(live);
  return {
    staged: rows.length > 0 ? stagedTasksJson(rows) : null,
    dead,
    shared: sharedRows(shared),
    upserted: live.length,
  };
};
