/**
 * The "Changes from sync" list in the replica (table sync_changes, migration 0012): recorded
 * where the engine learns that a sync changed the user's own work, read newest first, seen,
 * settled, and forgotten after 30 days.
 */
import type { SyncChangeKind } from '../../shared/bridge/changes';
import type { Json } from '../../shared/edits/kinds';
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { entityFacts } from './entities';

export const KEEP_MS = 30 * 24 * 3600_000;

export interface ChangeInput {
  kind: SyncChangeKind;
  /** `task:12` */
  entity: string;
  field?: string | null;
  mine?: Json;
  theirs?: Json;
  /** Who made the server's value (defaults to the entity's last writer, where kept). */
  byUser?: number | null;
  /** When the server's value was made, in the server's clock. */
  at?: number | null;
  /** The outbox row it is about (a refused or conflicting edit). */
  mutationId?: number | null;
  message: string;
  /** The entity's name and task, when the replica may no longer hold it (deleted). */
  name?: string | null;
  taskId?: number | null;
}

export interface StoredChange {
  changeId: number;
  kind: SyncChangeKind;
  entity: string;
  name: string | null;
  taskId: number | null;
  field: string | null;
  mine: Json;
  theirs: Json;
  byUser: number | null;
  at: number | null;
  mutationId: number | null;
  message: string;
  createdAt: number;
  seen: boolean;
  settled: boolean;
}

const json = (v: Json | undefined) => (v === undefined ? null : JSON.stringify(v));

/** Records a change (in the caller's transaction); the list's old entries go. */
export const recordChange = (db: Sqlite, c: ChangeInput, now: number): void => {
  const [kind, id] = c.entity.split(':');
  const facts = entityFacts(db, kind ?? '', Number(id));
  stmt(
    db,
    `INSERT INTO sync_changes (kind, entity, name, task_id, field, mine, theirs, by_user, at,
       mutation_id, message, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    c.kind,
    c.entity,
    c.name ?? facts.name,
    c.taskId ?? facts.taskId,
    c.field ?? null,
    json(c.mine),
    json(c.theirs),
    c.byUser ?? facts.by,
    c.at ?? null,
    c.mutationId ?? null,
    c.message,
    now,
  );
  stmt(db, 'DELETE FROM sync_changes WHERE created_at < ?').run(now - KEEP_MS);
};

interface Row {
  change_id: number;
  kind: SyncChangeKind;
  entity: string;
  name: string | null;
  task_id: number | null;
  field: string | null;
  mine: string | null;
  theirs: string | null;
  by_user: number | null;
  at: number | null;
  mutation_id: number | null;
  message: string;
  created_at: number;
  seen: number;
  settled: number;
}

const parse = (s: string | null): Json => (s === null ? null : (JSON.parse(s) as Json));

const toChange = (r: Row): StoredChange => ({
  changeId: r.change_id,
  kind: r.kind,
  entity: r.entity,
  name: r.name,
  taskId: r.task_id,
  field: r.field,
  mine: parse(r.mine),
  theirs: parse(r.theirs),
  byUser: r.by_user,
  at: r.at,
  mutationId: r.mutation_id,
  message: r.message,
  createdAt: r.created_at,
  seen: r.seen === 1,
  settled: r.settled === 1,
});

const COLUMNS = `change_id, kind, entity, name, task_id, field, mine, theirs, by_user, at,
  mutation_id, message, created_at, seen, settled`;

/** The changes of the last 30 days, newest first. */
export const listChanges = (db: Sqlite, now: number, limit = 500): StoredChange[] =>
  (
    stmt(
      db,
      `SELECT ${COLUMNS} FROM sync_changes WHERE created_at >= ? ORDER BY change_id DESC LIMIT ?`,
    ).all(now - KEEP_MS, limit) as Row[]
  ).map(toChange);

export const getChange = (db: Sqlite, changeId: number): StoredChange | null => {
  const r = stmt(db, `SELECT ${COLUMNS} FROM sync_changes WHERE change_id = ?`).get(changeId) as
    | Row
    | undefined;
  return r ? toChange(r) : null;
};

export const unseenChanges = (db: Sqlite, now: number): number =>
  stmt(db, 'SELECT COUNT(*) FROM sync_changes WHERE seen = 0 AND created_at >= ?')
    .pluck()
    .get(now - KEEP_MS) as number;

export const markChangesSeen = (db: Sqlite): void => {
  stmt(db, 'UPDATE sync_changes SET seen = 1 WHERE seen = 0').run();
};

/** The user acted on it (kept theirs, restored theirs): it stays in the list, settled. */
export const settleChange = (db: Sqlite, changeId: number): void => {
  stmt(db, 'UPDATE sync_changes SET settled = 1, seen = 1 WHERE change_id = ?').run(changeId);
};

/** Every open change about an outbox row settles with it (retried, discarded, recreated). */
export const settleChangesOf = (db: Sqlite, mutationId: number): void => {
  stmt(db, 'UPDATE sync_changes SET settled = 1 WHERE mutation_id = ? AND settled = 0').run(
    mutationId,
  );
};

/** The highest change id: the engine tells the window when it grows. */
export const lastChangeId = (db: Sqlite): number =>
  (stmt(db, 'SELECT COALESCE(MAX(change_id), 0) FROM sync_changes').pluck().get() as number) ?? 0;
