/**
 * What the sync panel must tell the user about an edit that was sent and left the queue, when
 * the engine could not be sure it did exactly what the user meant (a create made again
 * because its lost answer's entity could not be told from another's: there may be a twin).
 * They stay until the user dismisses them.
 */
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { type EntityKey, kindSpec, type QueuedMutation } from './types';

export interface SyncNotice {
  noticeId: number;
  /** The entity it is about (its server key once known). */
  entity: EntityKey;
  message: string;
  createdAt: number;
}

export const addNotice = (db: Sqlite, entity: EntityKey, message: string, now: number): void => {
  stmt(db, 'INSERT INTO outbox_notices (entity, message, created_at) VALUES (?, ?, ?)').run(
    entity,
    message,
    now,
  );
};

export const listNotices = (db: Sqlite): SyncNotice[] =>
  (
    stmt(
      db,
      'SELECT notice_id, entity, message, created_at FROM outbox_notices ORDER BY notice_id',
    ).all() as { notice_id: number; entity: EntityKey; message: string; created_at: number }[]
  ).map((r) => ({
    noticeId: r.notice_id,
    entity: r.entity,
    message: r.message,
    createdAt: r.created_at,
  }));

export const dismissNotice = (db: Sqlite, noticeId: number): void => {
  stmt(db, 'DELETE FROM outbox_notices WHERE notice_id = ?').run(noticeId);
};

const entityWords: Record<string, string> = {
  task: 'Task',
  checklist: 'Checklist item',
  attachment: 'File',
  timer: 'Time entry',
  project: 'Project',
  space: 'Space',
  notification: 'Notification',
};

/** What a create made, in words: its kind and its name. */
const describeCreate = (row: QueuedMutation): string => {
  const what = entityWords[kindSpec(row.kind).entity] ?? 'Item';
  const b = (row.body ?? {}) as Record<string, unknown>;
  const files = Array.isArray(b.files) ? (b.files as { fileName?: unknown }[]) : [];
  const name = [b.taskTitle, b.name, b.projectName, b.spaceName, files[0]?.fileName].find(
    (v): v is string => typeof v === 'string' && v.length > 0,
  );
  return name === undefined ? what : `${what} “${name}”`;
};

/** The notice of a create sent again while another just like it was already on the server. */
export const possibleTwin = (row: QueuedMutation): string =>
  `${describeCreate(row)} was sent again after its answer was lost, but the server already had ` +
  'one just like it made at the same moment, perhaps by you elsewhere. There may now be two: ' +
  'keep one and delete the other.';
