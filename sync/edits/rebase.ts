/**
 * The rebase: after the server's rows landed in the replica (a pull, an answer), the edits
 * still queued are applied again on top, in mutation order, so a pull never hides a local
 * change. Runs inside the server-data transaction (`Replica.onServerWrite`).
 *
 * Per field, the last writer wins: a field the user changed (the row's body against its
 * base) keeps the user's value unless the server changed it too, later than the edit (the
 * server's modifiedTime against the row's `updated_at`); a field the user did not touch takes
 * the server's new value. The row's body and base become the merged state and the server's
 * new copy, so what is sent is the merge. An update of something the server deleted becomes
 * a conflict for the user to resolve, never a silent loss.
 */
import type { Sqlite } from '../db/open';
import type { Replica } from '../db/replica';
import {
  type EntityKey,
  type EntityKind,
  type Json,
  type JsonObject,
  kindSpec,
  markConflict,
  parseEntityKey,
  type QueuedMutation,
} from '../outbox';
import { type EditBase, isEditBase, snapshotBase } from './commit';
import { reapplyRow, rowsToReapply } from './reapply';
import { currentId, entityExists, entityState } from './state';
import { refreshCounts } from './write-tasks';

const kindOfKey = (key: string) => key.slice(0, key.lastIndexOf(':'));

/** Whether the server wrote `key`: named, or all of its kind (`task:*`). */
export const touches = (touched: ReadonlySet<string>, key: string): boolean =>
  touched.has(key) || touched.has(`${kindOfKey(key)}:*`);

const same = (a: Json | undefined, b: Json | undefined) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The merge of a queued update with the server's new state. `base` is what the user edited
 * from; `editedAt` when the user last changed the row; `serverModified` the server's time.
 */
export const mergeFields = (
  body: JsonObject,
  base: JsonObject | null,
  server: JsonObject,
  serverModified: number | null,
  editedAt: number,
): JsonObject => {
  const out: JsonObject = { ...server };
  const serverLater = serverModified !== null && serverModified > editedAt;
  for (const [k, mine] of Object.entries(body)) {
    const userChanged = base === null || !same(mine, base[k]);
    const serverChanged = base !== null && !same(server[k], base[k]);
    if (!userChanged) out[k] = Object.hasOwn(server, k) ? (server[k] as Json) : mine;
    else out[k] = serverChanged && serverLater ? (server[k] as Json) : mine;
  }
  return out;
};

/**
 * Entities whose absence after a server write means the server deleted them: the replica gets
 * the whole of them (tombstones, complete lists). Timers and notifications come as partial
 * lists (active timers, the newest notifications): absent is not deleted.
 */
const deletionIsReliable = (kind: EntityKind) => kind !== 'timer' && kind !== 'notification';

const isObject = (v: Json): v is JsonObject =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

export interface RebaseReport {
  /** Rows whose effect was written again. */
  reapplied: number;
  /** Rows whose body took the server's newer fields. */
  merged: number[];
  /** Rows turned into conflicts: their entity is gone on the server. */
  conflicts: number[];
}

const setBase = (db: Sqlite, mutationId: number, base: EditBase) => {
  db.prepare('UPDATE outbox SET base = ? WHERE mutation_id = ?').run(
    JSON.stringify(base),
    mutationId,
  );
};

const setBodyAndBase = (db: Sqlite, mutationId: number, body: Json, base: EditBase) => {
  db.prepare('UPDATE outbox SET body = ?, base = ? WHERE mutation_id = ?').run(
    JSON.stringify(body),
    JSON.stringify(base),
    mutationId,
  );
};

/**
 * Re-applies every queued row (pending, in flight) whose entity or a reference of which the
 * server just wrote, and every row that depends on one re-applied, in mutation order.
 */
export const reapplyPending = (
  db: Sqlite,
  touched: ReadonlySet<string>,
  now: number,
): RebaseReport => {
  const report: RebaseReport = { reapplied: 0, merged: [], conflicts: [] };
  const counted = new Set<number | null>();
  if (touched.size === 0) return report;
  const todo = rowsToReapply(db, touched);
  if (todo.length === 0) return report;

  // The server's copy of each entity it wrote itself, before any local edit goes on top.
  const fresh = new Map<EntityKey, EditBase>();
  const lastBody = new Map<EntityKey, Json>();
  for (const r of todo) if (kindSpec(r.kind).effect === 'update') lastBody.set(r.entity, r.body);
  for (const r of todo) {
    const { kind, id } = parseEntityKey(r.entity);
    if (id > 0 && !fresh.has(r.entity) && touches(touched, r.entity))
      fresh.set(r.entity, snapshotBase(db, kind, id, false));
    else if (
      id > 0 &&
      !fresh.has(r.entity) &&
      rewrittenWithParent(db, kind, id, lastBody.get(r.entity))
    )
      fresh.set(r.entity, snapshotBase(db, kind, id, false));
    // A delete the server re-sent the entity for: a rollback must restore this copy.
    const deep = kindSpec(r.kind).effect === 'delete' && id > 0 && touches(touched, r.entity);
    if (deep && r.state === 'pending') {
      const now = snapshotBase(db, kind, id, true);
      if (now.state !== null) setBase(db, r.mutationId, now);
    }
  }

  for (const r of todo) {
    const { kind, id } = parseEntityKey(r.entity);
    const effect = kindSpec(r.kind).effect;
    let body = r.body;
    if ((effect === 'update' || effect === 'move') && id > 0) {
      const server = fresh.get(r.entity) ?? null;
      const gone = server ? server.state === null : !entityExists(db, kind, id);
      // Absent from a partial list (active timers, newest notifications) is not deleted: the
      // edit goes on top again.
      if (gone && deletionIsReliable(kind)) {
        if (r.state === 'pending') {
          markConflict(
            db,
            r.mutationId,
            {
              kind: 'local',
              failure: 'conflict',
              message: `this ${kind} was deleted on the server after you edited it: recreate it with your changes, or discard them`,
            },
            now,
          );
          report.conflicts.push(r.mutationId);
        }
        continue;
      }
      if (server?.state && effect === 'update' && isObject(body) && kind !== 'timer') {
        const base = isEditBase(r.base) ? r.base.state : null;
        const merged = mergeFields(body, base, server.state, server.modifiedTime, r.updatedAt);
        if (!same(merged, body)) report.merged.push(r.mutationId);
        body = merged;
        if (r.state === 'pending') setBodyAndBase(db, r.mutationId, merged, server);
      }
    }
    // The server never writes a local id's rows: a create whose rows are still there needs
    // only the counts of what it hangs on (the server's counts do not include it).
    if (effect === 'create' && id < 0 && entityExists(db, kind, currentId(db, kind, id))) {
      counted.add(countedOn(db, r));
      continue;
    }
    if (reapplyRow(db, { ...r, body }, now)) report.reapplied++;
  }
  refreshCounts(db, counted);
  return report;
};

/**
 * Checklist items come with their task (a bulk page embeds them) and are not named
 * themselves: one whose row no longer shows the state the queued edit wrote was rewritten by
 * the server, and is that edit's new base.
 */
const rewrittenWithParent = (
  db: Sqlite,
  kind: EntityKind,
  id: number,
  body: Json | undefined,
): boolean => {
  if (kind !== 'checklist' || body === undefined || !isObject(body)) return false;
  const state = entityState(db, kind, id);
  return state !== null && Object.keys(body).some((k) => !same(body[k], state[k]));
};

/** The task whose counts a create changes (a subtask's parent, an item's or a file's task). */
const countedOn = (db: Sqlite, r: QueuedMutation): number | null => {
  const ref = r.path.subtaskId ?? r.path.parentTaskId ?? r.path.taskId;
  if (ref === undefined || r.kind.startsWith('timer.')) return null;
  return currentId(db, 'task', ref);
};

/** Hooks the rebase into every server-data transaction of the replica. */
export const installRebase = (replica: Replica, clock: () => number = Date.now): void => {
  replica.onServerWrite((db, touched) => {
    reapplyPending(db, touched, clock());
  });
};
