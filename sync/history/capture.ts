/**
 * Taking an edit's history entry: what undoing it needs is read from the replica just before
 * the edit (its fields' values, a deleted entity's copy) and just after (the values it set,
 * the ids it made), in the edit's transaction.
 */
import type { EditCommand, EditKind, EditResult } from '../../shared/edits/commands';
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { entityState } from '../edits/entities';
import { checklistState, currentId, taskState } from '../edits/state';
import { activeTimerId } from '../edits/timers';
import type { EntityKind, JsonObject } from '../outbox';
import type { DeletedCopy, Entry, FileCopy, ItemCopy, TaskCopy } from './types';

/**
 * How each edit kind is undone. A Record over every kind: a new kind does not compile until
 * it says which it is (and, if not a plain create, is handled below).
 */
const family: Record<EditKind, Entry['t']> = {
  'task.create': 'create',
  'task.update': 'update',
  'task.delete': 'delete',
  'checklist.create': 'create',
  'checklist.update': 'update',
  'checklist.delete': 'delete',
  'attachment.upload': 'create',
  'attachment.rename': 'update',
  'attachment.delete': 'delete',
  'timer.start': 'create',
  'timer.pause': 'move',
  'timer.resume': 'move',
  'timer.stop': 'move',
  'timer.update': 'update',
  'timer.delete': 'delete',
  'timer.range': 'create',
  'timer.manual': 'create',
  'space.create': 'create',
  'space.update': 'update',
  'space.delete': 'delete',
  'project.create': 'create',
  'project.update': 'update',
  'project.delete': 'delete',
  'notification.read': 'move',
  'notification.delete': 'delete',
};

/** An update's entity and the fields it names (in the entity's state shape). */
export const updateTarget = (
  c: EditCommand,
): { entity: EntityKind; id: number; fields: string[] } | null => {
  switch (c.kind) {
    case 'task.update':
      return { entity: 'task', id: c.taskId, fields: Object.keys(c.patch) };
    case 'checklist.update':
      return { entity: 'checklist', id: c.checklistId, fields: Object.keys(c.patch) };
    case 'timer.update':
      return { entity: 'timer', id: c.trackId, fields: Object.keys(c.patch) };
    case 'space.update':
      return { entity: 'space', id: c.spaceId, fields: Object.keys(c.patch) };
    case 'project.update':
      return { entity: 'project', id: c.projectId, fields: Object.keys(c.patch) };
    case 'attachment.rename':
      return { entity: 'attachment', id: c.attachmentId, fields: ['fileName'] };
    default:
      return null;
  }
};

/** A delete's entity. */
export const deleteTarget = (c: EditCommand): { entity: EntityKind; id: number } | null => {
  switch (c.kind) {
    case 'task.delete':
      return { entity: 'task', id: c.taskId };
    case 'checklist.delete':
      return { entity: 'checklist', id: c.checklistId };
    case 'attachment.delete':
      return { entity: 'attachment', id: c.attachmentId };
    case 'timer.delete':
      return { entity: 'timer', id: c.trackId };
    case 'space.delete':
      return { entity: 'space', id: c.spaceId };
    case 'project.delete':
      return { entity: 'project', id: c.projectId };
    case 'notification.delete':
      return { entity: 'notification', id: c.notificationId };
    default:
      return null;
  }
};

export const pick = (o: JsonObject | null, keys: string[]): JsonObject => {
  const out: JsonObject = {};
  for (const k of keys) if (o && Object.hasOwn(o, k)) out[k] = o[k] ?? null;
  return out;
};

const itemsOf = (db: Sqlite, taskId: number): ItemCopy[] =>
  (
    stmt(db, 'SELECT checklist_id FROM checklist_items WHERE task_id = ? ORDER BY position').all(
      taskId,
    ) as { checklist_id: number }[]
  ).flatMap(({ checklist_id: id }) => {
    const s = checklistState(db, id);
    return s
      ? [
          {
            id,
            name: String(s.name),
            completed: s.completed === true,
            assigneeId: typeof s.assigneeId === 'number' ? s.assigneeId : null,
          },
        ]
      : [];
  });

interface FileRow {
  attachment_id: number;
  file_name: string;
  path: string | null;
  size: number | null;
  content_type: string | null;
}

const fileCopy = (r: FileRow): FileCopy => ({
  id: r.attachment_id,
  name: r.file_name,
  cached:
    r.path === null || r.size === null
      ? null
      : { path: r.path, size: r.size, contentType: r.content_type },
});

const filesWhere = (db: Sqlite, where: string, id: number): FileCopy[] =>
  (
    stmt(
      db,
      `SELECT a.attachment_id, a.file_name, f.path, f.size, f.content_type
       FROM attachments a LEFT JOIN attachment_files f ON f.attachment_id = a.attachment_id
       WHERE ${where} ORDER BY a.attachment_id`,
    ).all(id) as FileRow[]
  ).map(fileCopy);

const taskCopy = (db: Sqlite, id: number): TaskCopy => ({
  id,
  fields: taskState(db, id) ?? {},
  checklist: itemsOf(db, id),
  subtasks: (
    stmt(db, 'SELECT task_id FROM tasks WHERE parent_task_id = ? ORDER BY task_id').all(id) as {
      task_id: number;
    }[]
  ).map((r) => taskCopy(db, r.task_id)),
  files: filesWhere(db, 'a.task_id = ?', id),
  timers: (stmt(db, 'SELECT count(*) AS n FROM timers WHERE task_id = ?').get(id) as { n: number })
    .n,
});

const deletedCopy = (db: Sqlite, entity: EntityKind, id: number): DeletedCopy => {
  switch (entity) {
    case 'task': {
      const r = stmt(db, 'SELECT project_id, parent_task_id FROM tasks WHERE task_id = ?').get(
        id,
      ) as { project_id: number | null; parent_task_id: number | null } | undefined;
      return {
        entity,
        projectId: r?.project_id ?? null,
        parentTaskId: r?.parent_task_id ?? null,
        task: taskCopy(db, id),
      };
    }
    case 'checklist': {
      const r = stmt(db, 'SELECT task_id FROM checklist_items WHERE checklist_id = ?').get(id) as
        | { task_id: number }
        | undefined;
      const item = itemsOf(db, r?.task_id ?? 0).find((i) => i.id === id);
      return item
        ? { entity, taskId: r?.task_id ?? 0, item }
        : { entity, taskId: 0, item: { id, name: '', completed: false, assigneeId: null } };
    }
    case 'space': {
      const projects = stmt(db, 'SELECT count(*) AS n FROM projects WHERE space_id = ?').get(
        id,
      ) as { n: number };
      return { entity, fields: entityState(db, 'space', id) ?? {}, projects: projects.n };
    }
    case 'project': {
      const r = stmt(db, 'SELECT space_id FROM projects WHERE project_id = ?').get(id) as
        | { space_id: number }
        | undefined;
      const tasks = stmt(db, 'SELECT count(*) AS n FROM tasks WHERE project_id = ?').get(id) as {
        n: number;
      };
      return {
        entity,
        spaceId: r?.space_id ?? 0,
        fields: entityState(db, 'project', id) ?? {},
        tasks: tasks.n,
      };
    }
    case 'timer': {
      const r = stmt(
        db,
        'SELECT task_id, start_time, duration_seconds, billing_status, notes FROM timers WHERE track_id = ?',
      ).get(id) as
        | {
            task_id: number;
            start_time: number;
            duration_seconds: number;
            billing_status: string | null;
            notes: string | null;
          }
        | undefined;
      return {
        entity,
        taskId: r?.task_id ?? 0,
        startTime: r?.start_time ?? 0,
        durationSeconds: r?.duration_seconds ?? 0,
        billingStatus: r?.billing_status ?? null,
        notes: r?.notes ?? null,
      };
    }
    case 'attachment': {
      const r = stmt(db, 'SELECT task_id, project_id FROM attachments WHERE attachment_id = ?').get(
        id,
      ) as { task_id: number | null; project_id: number | null } | undefined;
      const file = filesWhere(db, 'a.attachment_id = ?', id)[0] ?? { id, name: '', cached: null };
      return { entity, taskId: r?.task_id ?? null, projectId: r?.project_id ?? null, file };
    }
    default:
      return { entity: 'notification' };
  }
};

/**
 * Reads what the edit's undo needs before it runs; the returned function completes the entry
 * from the edit's result once it ran (same transaction).
 */
export const capture = (db: Sqlite, c: EditCommand, userId: number): ((r: EditResult) => Entry) => {
  const finish = captureOwn(db, c);
  const running = c.kind === 'timer.stop' ? null : activeTimerId(db, userId);
  if (running === null) return finish;
  return (r) => {
    const e = finish(r);
    const state = stmt(db, 'SELECT state FROM timers WHERE track_id = ?').get(running) as
      | { state: string }
      | undefined;
    return state?.state === 'STOPPED' ? { ...e, stopped: running } : e;
  };
};

const captureOwn = (db: Sqlite, c: EditCommand): ((r: EditResult) => Entry) => {
  const upd = updateTarget(c);
  if (upd) {
    const id = currentId(db, upd.entity, upd.id);
    const before = pick(entityState(db, upd.entity, id), upd.fields);
    return () => ({
      t: 'update',
      command: c,
      entity: upd.entity,
      id,
      before,
      after: pick(entityState(db, upd.entity, id), upd.fields),
    });
  }
  const del = deleteTarget(c);
  if (del) {
    const id = currentId(db, del.entity, del.id);
    const state = entityState(db, del.entity, id);
    const copy = deletedCopy(db, del.entity, id);
    return (r) => ({
      t: 'delete',
      command: c,
      entity: del.entity,
      id,
      mutationId: r.mutationId,
      state,
      copy,
    });
  }
  if (family[c.kind] === 'create')
    return (r) => ({
      t: 'create',
      command: c,
      entity: r.entityKind as EntityKind,
      ids: [...r.ids],
    });
  switch (c.kind) {
    case 'timer.pause':
    case 'timer.resume':
    case 'timer.stop':
      return () => ({
        t: 'move',
        command: c,
        entity: 'timer',
        id: currentId(db, 'timer', c.trackId),
      });
    case 'notification.read':
      return () => ({ t: 'move', command: c, entity: 'notification', id: c.notificationId });
    default:
      // A kind the table names but no branch above takes: a bug here, not the user's.
      throw new Error(`${c.kind}: no undo is defined for it`);
  }
};
