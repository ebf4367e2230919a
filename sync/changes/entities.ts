/**
 * Where each entity kind's name, task and last writer are in the replica: what a change keeps
 * of an entity when it is recorded (the entity may be gone by the time the user reads it).
 */
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';

interface Where {
  table: string;
  id: string;
  name: string;
  /** The task it belongs to (a task is its own). */
  task: string | null;
  /** Who wrote it last on the server, where the replica keeps it. */
  by: string | null;
}

const where: Readonly<Record<string, Where>> = {
  task: { table: 'tasks', id: 'task_id', name: 'title', task: 'task_id', by: 'modified_by' },
  checklist: {
    table: 'checklist_items',
    id: 'checklist_id',
    name: 'name',
    task: 'task_id',
    by: null,
  },
  attachment: {
    table: 'attachments',
    id: 'attachment_id',
    name: 'file_name',
    task: 'task_id',
    by: null,
  },
  timer: { table: 'timers', id: 'track_id', name: 'notes', task: 'task_id', by: null },
  project: {
    table: 'projects',
    id: 'project_id',
    name: 'project_name',
    task: null,
    by: 'modified_by',
  },
  space: { table: 'spaces', id: 'space_id', name: 'space_name', task: null, by: null },
  notification: {
    table: 'notifications',
    id: 'notification_id',
    name: 'title',
    task: 'task_id',
    by: null,
  },
};

export interface EntityFacts {
  name: string | null;
  taskId: number | null;
  by: number | null;
}

/** An entity's name, task and last writer as the replica holds them now (nulls if absent). */
export const entityFacts = (db: Sqlite, kind: string, id: number): EntityFacts => {
  const w = where[kind];
  if (!w) return { name: null, taskId: null, by: null };
  const r = stmt(
    db,
    `SELECT ${w.name} AS name, ${w.task ?? 'NULL'} AS taskId, ${w.by ?? 'NULL'} AS byUser
     FROM ${w.table} WHERE ${w.id} = ?`,
  ).get(id) as { name: string | null; taskId: number | null; byUser: number | null } | undefined;
  return { name: r?.name ?? null, taskId: r?.taskId ?? null, by: r?.byUser ?? null };
};
