import type { BulkTask, Project } from '../../shared/api';
import type { ApiClient } from '../../sync/api';
import { toMs } from '../../sync/db/queries/convert';
import type { Replica } from '../../sync/db/replica';

/** A normalized view of one task with what it embeds, comparable across server and replica. */
export interface TaskSnap {
  id: number;
  title: string;
  description: string | null;
  status: string | null;
  priority: string | null;
  projectId: number | null;
  parentTaskId: number | null;
  dueDate: number | null;
  startDate: number | null;
  modifiedTime: number | null;
  owners: number[];
  tags: string[];
  checklist: string[];
  attachments: string[];
  values: string[];
}

const sorted = <T>(xs: T[]) => [...xs].sort();

export const snapOfBulkTask = (t: BulkTask): TaskSnap => ({
  id: t.taskId,
  title: t.taskTitle,
  description: t.description ?? null,
  status: t.status ?? null,
  priority: t.priority ?? null,
  projectId: t.projectId ?? null,
  parentTaskId: t.parentTaskId ?? null,
  dueDate: toMs(t.dueDate),
  startDate: toMs(t.startDate),
  modifiedTime: toMs(t.modifiedTime),
  owners: sorted((t.owners ?? []).map((o) => o.userId)),
  tags: sorted(t.tags ?? []),
  checklist: (t.checklists ?? [])
    .slice()
    .sort((a, b) => a.position - b.position)
    .map(
      (c) =>
        `${c.checklistId}:${c.name}:${c.completed ? 1 : 0}:${c.assigneeId ?? ''}:${c.position}`,
    ),
  attachments: sorted(
    (t.attachments ?? []).map((a) => `${a.attachmentId}:${a.fileName}:${a.size}`),
  ),
  values: sorted(
    (t.customFields ?? []).flatMap((f) =>
      (f.fieldValue ?? [])
        .filter((v) => v.taskId === t.taskId && v.value !== null)
        .map((v) => `${f.taskCustomFieldId}=${JSON.stringify(v.value)}`),
    ),
  ),
});

/** Every live task of the org through the bulk export (no modifiedSince: no tombstones). */
export const serverTasks = async (client: ApiClient): Promise<TaskSnap[]> => {
  const out: TaskSnap[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.ops.bulkTasks({
      query: { size: 5000, ...(cursor ? { cursor } : {}) },
    });
    out.push(...page.items.map(snapOfBulkTask));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out.sort((a, b) => a.id - b.id);
};

export const serverProjects = async (client: ApiClient): Promise<Project[]> => {
  const out: Project[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.ops.bulkProjects({
      query: { size: 5000, ...(cursor ? { cursor } : {}) },
    });
    out.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out.sort((a, b) => a.projectId - b.projectId);
};

interface TaskRow {
  task_id: number;
  title: string;
  description: string | null;
  status: string | null;
  priority: string | null;
  project_id: number | null;
  parent_task_id: number | null;
  due_date: number | null;
  start_date: number | null;
  modified_time: number | null;
}

export const replicaTasks = (replica: Replica): TaskSnap[] => {
  const db = replica.db;
  const rows = db
    .prepare(
      'SELECT task_id, title, description, status, priority, project_id, parent_task_id, due_date, start_date, modified_time FROM tasks ORDER BY task_id',
    )
    .all() as TaskRow[];
  const list = <T>(sql: string, id: number) => db.prepare(sql).all(id) as T[];
  return rows.map((r) => ({
    id: r.task_id,
    title: r.title,
    description: r.description,
    status: r.status,
    priority: r.priority,
    projectId: r.project_id,
    parentTaskId: r.parent_task_id,
    dueDate: r.due_date,
    startDate: r.start_date,
    modifiedTime: r.modified_time,
    owners: sorted(
      list<{ user_id: number }>('SELECT user_id FROM task_owners WHERE task_id = ?', r.task_id).map(
        (o) => o.user_id,
      ),
    ),
    tags: sorted(
      list<{ name: string }>('SELECT name FROM task_tags WHERE task_id = ?', r.task_id).map(
        (o) => o.name,
      ),
    ),
    checklist: list<{
      checklist_id: number;
      name: string;
      completed: number;
      assignee_id: number | null;
      position: number;
    }>(
      'SELECT checklist_id, name, completed, assignee_id, position FROM checklist_items WHERE task_id = ? ORDER BY position',
      r.task_id,
    ).map((c) => `${c.checklist_id}:${c.name}:${c.completed}:${c.assignee_id ?? ''}:${c.position}`),
    attachments: sorted(
      list<{ attachment_id: number; file_name: string; size: number }>(
        'SELECT attachment_id, file_name, size FROM attachments WHERE task_id = ?',
        r.task_id,
      ).map((a) => `${a.attachment_id}:${a.file_name}:${a.size}`),
    ),
    values: sorted(
      list<{ field_id: number; value: string }>(
        'SELECT field_id, value FROM custom_field_values WHERE task_id = ?',
        r.task_id,
      ).map((v) => `${v.field_id}=${v.value}`),
    ),
  }));
};
