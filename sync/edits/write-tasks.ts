/**
 * Local writes of tasks, checklist items and attachments: the optimistic effect of an edit.
 * Tasks go through the replica's own writer (`writeTask`) as a DTO built from the request
 * body and the row's server-only columns, so a local task reads back like a server one.
 */
import type { Task } from '../../shared/api';
import type { TaskCreateRequest } from '../../shared/api/tasks';
import { guessContentType } from '../api/upload';
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { parseExtra, toIso } from '../db/queries/convert';
import { writeTask } from '../db/queries/tasks-write';
import type { TasksTable } from '../db/types';
import { isDoneStatus } from './reopen';
import { EditError, notInReplica, type TaskPlace } from './state';

const IN = '(SELECT value FROM json_each(?))';

const ref = (userId: number | null) => (userId === null ? null : { userId });

/** Definitions of the fields a body sets, each with this task's value. */
const fieldsOf = (db: Sqlite, taskId: number, body: TaskCreateRequest): Task['customFields'] =>
  (body.customFieldValues ?? []).map((v) => {
    const def = stmt(db, 'SELECT definition FROM custom_fields WHERE field_id = ?').get(
      v.taskCustomFieldId,
    ) as { definition: string } | undefined;
    if (!def) throw notInReplica(`custom field ${v.taskCustomFieldId}`);
    return {
      ...(JSON.parse(def.definition) as Record<string, unknown>),
      fieldValue: v.value === null ? [] : [{ taskId, value: v.value }],
    } as NonNullable<Task['customFields']>[number];
  });

/**
 * Writes a task's editable state over its row (or as a new row at `place`), keeping what only
 * the server sets (counts, creator, times) from the row it replaces.
 */
export const writeTaskState = (
  db: Sqlite,
  taskId: number,
  place: Omit<TaskPlace, 'taskId'>,
  body: TaskCreateRequest,
  now: number,
  createdBy: number | null = null,
): void => {
  const row = stmt(db, 'SELECT * FROM tasks WHERE task_id = ?').get(taskId) as
    | TasksTable
    | undefined;
  const done = isDoneStatus(body.status);
  const tags: string[] = [];
  for (const t of body.tags ?? [])
    if (!tags.some((x) => x.toLowerCase() === t.toLowerCase())) tags.push(t);
  const dto = {
    ...parseExtra(row?.extra ?? null),
    taskId,
    spaceId: place.spaceId,
    projectId: place.projectId,
    parentTaskId: place.parentTaskId,
    taskTitle: body.taskTitle,
    description: body.description ?? '',
    status: body.status ?? 'To Do',
    priority: body.priority ?? 'None',
    tags,
    owners: [...new Set(body.owners ?? [])].map((userId) => ({ userId })),
    startDate: body.startDate ?? null,
    dueDate: body.dueDate ?? null,
    completion: body.completion ?? 0,
    completedTime: done ? toIso(row?.completed_time ?? now) : null,
    createdBy: ref(row ? row.created_by : createdBy),
    modifiedBy: ref(row ? row.modified_by : createdBy),
    createdTime: toIso(row?.created_time ?? now),
    modifiedTime: toIso(row?.modified_time ?? now),
    customFields: fieldsOf(db, taskId, body),
    subtaskCount: row?.subtask_count ?? 0,
    checklistCount: row?.checklist_count ?? 0,
    checklistCompletedCount: row?.checklist_completed_count ?? 0,
    attachmentCount: row?.attachment_count ?? 0,
  } as Task;
  writeTask(db, dto);
};

/**
 * Recounts what a task's row counts (subtasks, checklist items, files) from the replica's
 * rows, after local edits changed them; a pull then brings the server's own counts.
 */
export const refreshCounts = (db: Sqlite, taskIds: Iterable<number | null | undefined>): void => {
  const ids = [...new Set([...taskIds].filter((v): v is number => typeof v === 'number'))];
  if (ids.length === 0) return;
  stmt(
    db,
    `UPDATE tasks SET
       subtask_count = (SELECT count(*) FROM tasks s WHERE s.parent_task_id = tasks.task_id),
       checklist_count = (SELECT count(*) FROM checklist_items c WHERE c.task_id = tasks.task_id),
       checklist_completed_count = (SELECT count(*) FROM checklist_items c
         WHERE c.task_id = tasks.task_id AND c.completed = 1),
       attachment_count = (SELECT count(*) FROM attachments a WHERE a.task_id = tasks.task_id)
     WHERE task_id IN ${IN}`,
  ).run(JSON.stringify(ids));
};

export const parentOf = (db: Sqlite, taskId: number): number | null =>
  (
    stmt(db, 'SELECT parent_task_id AS p FROM tasks WHERE task_id = ?').get(taskId) as
      | { p: number | null }
      | undefined
  )?.p ?? null;

// ---- checklist items -----------------------------------------------------------------------

/** A new item at the end of the list; re-applied, an existing row keeps its place. */
export const upsertChecklistItem = (
  db: Sqlite,
  checklistId: number,
  onTaskId: number,
  item: { name: string; assigneeId: number | null; completed?: boolean },
  now: number,
): void => {
  stmt(
    db,
    `INSERT INTO checklist_items (checklist_id, task_id, name, completed, assignee_id, position, created_time, modified_time)
     VALUES (@id, @task, @name, @completed, @assignee,
       (SELECT coalesce(max(position) + 1, 0) FROM checklist_items WHERE task_id = @task), @now, @now)
     ON CONFLICT(checklist_id) DO UPDATE SET name = excluded.name, assignee_id = excluded.assignee_id`,
  ).run({
    id: checklistId,
    task: onTaskId,
    name: item.name,
    completed: item.completed ? 1 : 0,
    assignee: item.assigneeId,
    now,
  });
};

export const updateChecklistItem = (
  db: Sqlite,
  checklistId: number,
  item: { name: string; completed: boolean; assigneeId?: number | null },
): void => {
  stmt(
    db,
    'UPDATE checklist_items SET name = ?, completed = ?, assignee_id = ? WHERE checklist_id = ?',
  ).run(item.name, item.completed ? 1 : 0, item.assigneeId ?? null, checklistId);
};

/** Removes an item and closes its gap, as the server does; the task it was on, or null. */
export const deleteChecklistItem = (db: Sqlite, checklistId: number): number | null => {
  const row = stmt(db, 'SELECT task_id, position FROM checklist_items WHERE checklist_id = ?').get(
    checklistId,
  ) as { task_id: number; position: number } | undefined;
  if (!row) return null;
  stmt(db, 'DELETE FROM checklist_items WHERE checklist_id = ?').run(checklistId);
  stmt(
    db,
    'UPDATE checklist_items SET position = position - 1 WHERE task_id = ? AND position > ?',
  ).run(row.task_id, row.position);
  return row.task_id;
};

export { checklistTaskOf } from '../db/entity-rows';

// ---- attachments ---------------------------------------------------------------------------

export interface LocalFile {
  fileName: string;
  size: number;
  contentType: string | null;
}

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : null;
};

/** Attachment rows for files being uploaded, under their local ids. */
export const insertLocalAttachments = (
  db: Sqlite,
  on: { taskId: number | null; projectId: number | null },
  ids: readonly number[],
  files: readonly LocalFile[],
  createdBy: number | null,
  now: number,
): void => {
  files.forEach((f, i) => {
    const id = ids[i];
    if (id === undefined) return;
    stmt(
      db,
      `INSERT OR REPLACE INTO attachments (attachment_id, task_id, project_id, file_name, extension, content_type, size,
         download_url, created_by, created_time, extra) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
    ).run(
      id,
      on.taskId,
      on.projectId,
      f.fileName,
      extensionOf(f.fileName),
      f.contentType ?? guessContentType(f.fileName),
      f.size,
      createdBy,
      now,
      // Shown as an upload in progress until the server's row replaces this one.
      JSON.stringify({ completedBytes: 0, totalSize: f.size }),
    );
  });
};

/** The server's rule: the new name comes without its extension, the stored one is kept. */
export const renamedFileName = (
  current: { file_name: string; extension: string | null },
  requested: string,
): string => {
  const ext = current.extension;
  let base = requested.trim();
  if (ext && base.toLowerCase().endsWith(`.${ext.toLowerCase()}`))
    base = base.slice(0, -(ext.length + 1));
  base = base.replace(/[.\s]+$/, '');
  if (base === '') throw new EditError('a file name must contain more than the extension');
  if (!ext) return base;
  const spelled = current.file_name.slice(-ext.length);
  return `${base}.${spelled.toLowerCase() === ext.toLowerCase() ? spelled : ext}`;
};

export interface AttachmentRow {
  attachment_id: number;
  task_id: number | null;
  project_id: number | null;
  file_name: string;
  extension: string | null;
}

export const attachmentRow = (db: Sqlite, attachmentId: number): AttachmentRow | undefined =>
  stmt(
    db,
    'SELECT attachment_id, task_id, project_id, file_name, extension FROM attachments WHERE attachment_id = ?',
  ).get(attachmentId) as AttachmentRow | undefined;

export const renameAttachment = (db: Sqlite, attachmentId: number, fileName: string): void => {
  const row = attachmentRow(db, attachmentId);
  if (!row) return;
  stmt(db, 'UPDATE attachments SET file_name = ? WHERE attachment_id = ?').run(
    renamedFileName(row, fileName),
    attachmentId,
  );
};

export const deleteAttachment = (db: Sqlite, attachmentId: number): number | null => {
  const row = attachmentRow(db, attachmentId);
  if (!row) return null;
  stmt(db, 'DELETE FROM attachments WHERE attachment_id = ?').run(attachmentId);
  stmt(db, 'DELETE FROM attachment_files WHERE attachment_id = ?').run(attachmentId);
  return row.task_id;
};
