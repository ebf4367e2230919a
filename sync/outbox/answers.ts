/**
 * The server's answer to a replayed edit, written to the replica: the optimistic row gives way
 * to the server's row. A create's local id is mapped to the server's id and the local rows are
 * replaced by the server's; queued edits of the entity (and of entities under it) are then
 * re-applied by the replica's rebase hook, because the answer is written as server data.
 */
import type {
  Attachment,
  ChecklistItem,
  NotificationReadResponse,
  Project,
  Space,
  Task,
  TimerRecord,
} from '../../shared/api';
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { writeTimer } from '../db/queries/activity-write';
import { toMs } from '../db/queries/convert';
import {
  deleteProjects,
  deleteSpace,
  writeProject,
  writeSpace,
} from '../db/queries/projects-write';
import { deleteTasks, writeAttachment, writeTask } from '../db/queries/tasks-write';
import { mapLocalId } from './local-ids';
import {
  type EntityKey,
  type EntityKind,
  entityKey,
  goneIsDone,
  isLocalId,
  kindSpec,
  parseEntityKey,
  type QueuedMutation,
} from './types';

export interface Applied {
  /** Entities whose rows the answer wrote (the rebase re-applies their queued edits). */
  touched: EntityKey[];
  /** Local keys that now have a server key. */
  rekeyed: { from: EntityKey; to: EntityKey }[];
}

export const writeChecklistItem = (db: Sqlite, c: ChecklistItem, onTaskId: number): void => {
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

/** Removes an entity's rows (a local copy the server's replaces, or what the server deleted). */
export const removeEntityRows = (db: Sqlite, kind: EntityKind, id: number): void => {
  switch (kind) {
    case 'task':
      deleteTasks(db, [id]);
      return;
    case 'project':
      deleteProjects(db, [id]);
      return;
    case 'space':
      deleteSpace(db, id);
      return;
    case 'checklist':
      stmt(db, 'DELETE FROM checklist_items WHERE checklist_id = ?').run(id);
      return;
    case 'attachment':
      stmt(db, 'DELETE FROM attachments WHERE attachment_id = ?').run(id);
      return;
    case 'timer':
      stmt(db, 'DELETE FROM timers WHERE track_id = ?').run(id);
      return;
    case 'notification':
      stmt(db, 'DELETE FROM notifications WHERE notification_id = ?').run(id);
      return;
  }
};

/** The id the server gave the entity an answer describes. */
const serverIdOfAnswer = (kind: EntityKind, answer: unknown): number => {
  const a = answer as Record<string, unknown>;
  const field = {
    task: 'taskId',
    checklist: 'checklistId',
    attachment: 'attachmentId',
    timer: 'trackId',
    project: 'projectId',
    space: 'spaceId',
    notification: 'notificationId',
  }[kind];
  const v = a[field];
  if (typeof v !== 'number') throw new TypeError(`the answer names no ${field}`);
  return v;
};

/** Writes the server's copy of one entity. */
const writeEntity = (
  db: Sqlite,
  kind: EntityKind,
  answer: unknown,
  path: Record<string, number>,
  now: number,
): void => {
  switch (kind) {
    case 'task':
      writeTask(db, answer as Task);
      return;
    case 'project':
      writeProject(db, answer as Project);
      return;
    case 'space':
      writeSpace(db, answer as Space);
      return;
    case 'checklist':
      writeChecklistItem(db, answer as ChecklistItem, path.subtaskId ?? path.taskId ?? 0);
      return;
    case 'attachment': {
      // A project attachment's path also names the space; a task's names no project.
      const onTask = path.subtaskId ?? path.taskId ?? null;
      writeAttachment(
        db,
        { taskId: onTask, projectId: onTask === null ? (path.projectId ?? null) : null },
        answer as Attachment,
      );
      return;
    }
    case 'timer':
      writeTimer(db, answer as TimerRecord, now);
      return;
    case 'notification': {
      const n = answer as NotificationReadResponse;
      stmt(db, 'UPDATE notifications SET read = 1 WHERE notification_id = ?').run(n.notificationId);
      return;
    }
  }
};

/**
 * Each file's local id with the attachment the server made of it: by file name (the answer's
 * order is not promised), in the order the files went.
 */
const uploadPairs = (
  row: QueuedMutation,
  items: readonly unknown[],
  localIds: readonly number[],
): [number, unknown][] => {
  const files = (row.body as { files?: { fileName?: unknown }[] } | null)?.files ?? [];
  const left = [...items];
  const pairs: [number, unknown][] = [];
  localIds.forEach((localId, i) => {
    const name = files[i]?.fileName;
    const at = left.findIndex((a) => (a as { fileName?: unknown }).fileName === name);
    const item = at >= 0 ? left.splice(at, 1)[0] : left.shift();
    if (item !== undefined) pairs.push([localId, item]);
  });
  return pairs;
};

/**
 * Applies the answer of `row` (already settled by the caller, in the same transaction).
 * Attachment uploads answer a list: the row's local attachment rows give way to all of it.
 */
export const applyAnswer = (
  db: Sqlite,
  row: QueuedMutation,
  answer: unknown,
  path: Record<string, number>,
  now: number,
  localAttachmentIds: readonly number[] = [],
): Applied => {
  const spec = kindSpec(row.kind);
  const self = parseEntityKey(row.entity);
  const applied: Applied = { touched: [], rekeyed: [] };
  const touch = (key: EntityKey) => applied.touched.push(key);

  // A delete's answer, or an edit whose entity was found gone, which was all it meant.
  if (spec.effect === 'delete' || (answer === null && goneIsDone(row.kind))) {
    removeEntityRows(db, self.kind, self.id);
    touch(row.entity);
    return applied;
  }
  const items = Array.isArray(answer) ? (answer as unknown[]) : [answer];
  if (spec.effect === 'create') {
    const locals = self.kind === 'attachment' ? [self.id, ...localAttachmentIds] : [self.id];
    for (const id of new Set(locals)) if (isLocalId(id)) removeEntityRows(db, self.kind, id);
    const made = self.kind === 'attachment' ? uploadPairs(row, items, localAttachmentIds) : [];
    if (made.length === 0 && items[0] !== undefined) made.push([self.id, items[0]]);
    for (const [localId, item] of made) {
      if (!isLocalId(localId)) continue;
      const serverId = serverIdOfAnswer(self.kind, item);
      mapLocalId(db, self.kind, localId, serverId);
      applied.rekeyed.push({
        from: entityKey(self.kind, localId),
        to: entityKey(self.kind, serverId),
      });
    }
  }
  for (const item of items) {
    writeEntity(db, self.kind, item, path, now);
    touch(entityKey(self.kind, serverIdOfAnswer(self.kind, item)));
  }
  return applied;
};
