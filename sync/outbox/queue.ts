/**
 * The outbox queue: rows in SQLite, in client mutation id order. Every function runs
 * synchronously on the caller's connection and inside the caller's transaction when there is
 * one (an edit is applied to the replica and enqueued in one transaction), otherwise in its
 * own.
 *
 * Life of a row: pending → (markInflight) inflight → settle (gone) | retryLater (pending,
 * later) | failPermanently (failed) | markConflict (conflict). Failed and conflict rows stay
 * visible until the user retries (`retryFailed`) or discards them (`discard`). A failed or
 * conflict row holds back the later rows of its own entity, never those of other entities.
 */
import { randomUUID } from 'node:crypto';
import { endpoints, pathParamNames } from '../../shared/api/endpoints';
import { recordChange } from '../changes/store';
import { first, qb, run, stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { writeTx } from '../db/write-tx';
import { type CoalesceRule, coalesce, entityOf } from './coalesce';
import { dependsOnOf } from './depends-on';
import { canonicalKey } from './local-ids';
import { getMutation, mutationsOfEntity, select, toJson } from './rows';
import {
  type EntityKey,
  type EntityKind,
  entitySpecs,
  type Json,
  kindSpec,
  type MutationKind,
  mutationKindNames,
  type NewMutation,
  type OutboxError,
  operationSpec,
  parseEntityKey,
  type QueuedMutation,
} from './types';

/** Reading rows lives in rows.ts; re-exported here with the rest of the queue. */
export { allMutations, getMutation, mutationsOfEntity } from './rows';

export class OutboxStateError extends Error {
  override readonly name = 'OutboxStateError';
}

const inTx = <T>(db: Sqlite, fn: () => T): T => (db.inTransaction ? fn() : writeTx(db, fn));

/** What leaves the queue, and the staged files to remove after the commit. */
export interface Dropped {
  mutations: QueuedMutation[];
  /** Relative paths for `removeStagedFiles(dataDir, files)`. */
  files: string[];
}

const removeRow = (db: Sqlite, mutationId: number, into: Dropped): QueuedMutation | undefined => {
  const row = getMutation(db, mutationId);
  if (!row) return undefined;
  stmt(db, 'DELETE FROM outbox WHERE mutation_id = ?').run(mutationId);
  const files = stmt(db, 'DELETE FROM outbox_files WHERE mutation_id = ? RETURNING path')
    .pluck()
    .all(mutationId) as string[];
  into.mutations.push(row);
  into.files.push(...files);
  return row;
};

/**
 * Removes the rows of entities that will never exist on the server, and every row that
 * depends on them, transitively (a checklist item on a subtask of a task created and deleted
 * offline). Rows in flight are left alone.
 */
const dropEntities = (db: Sqlite, keys: readonly EntityKey[], into: Dropped) => {
  const todo = [...keys];
  const seen = new Set<EntityKey>();
  for (let key = todo.shift(); key !== undefined; key = todo.shift()) {
    if (seen.has(key)) continue;
    seen.add(key);
    // Its own rows and the rows that reference it (outbox_refs holds both).
    const rows = select(
      db,
      'mutation_id IN (SELECT mutation_id FROM outbox_refs WHERE key = ?)',
      key,
    );
    for (const r of rows) {
      if (r.state === 'inflight') continue;
      removeRow(db, r.mutationId, into);
      if (kindSpec(r.kind).effect === 'create') todo.push(r.entity);
    }
  }
};

// ---- enqueue ----------------------------------------------------------------------------------

const checkPath = (m: NewMutation) => {
  const row = endpoints[m.operationId];
  for (const name of pathParamNames(row.path)) {
    const v = m.path[name];
    if (v === undefined || !Number.isSafeInteger(v) || v === 0)
      throw new TypeError(`${m.operationId}: path parameter ${name} must be a non-zero integer`);
  }
};

export interface EnqueueResult {
  /** The new row's id, or null when the edit was coalesced into other rows (or away). */
  mutationId: number | null;
  rule: CoalesceRule;
  /** The entity's current key (its server key when a local id is already mapped). */
  entity: EntityKey;
  /** Rows the edit made unnecessary (create + delete, delete after updates, dependents). */
  dropped: Dropped;
}

/**
 * Queues an edit the optimistic layer has applied to the replica, in the caller's
 * transaction: coalesces it with the entity's rows (see coalesce.ts), drops rows that will
 * never be needed, and inserts what remains with a fresh idempotency key (sent as
 * Idempotency-Key when the operation is a POST).
 */
export const enqueue = (db: Sqlite, mutation: NewMutation, now: number): EnqueueResult =>
  inTx(db, () => {
    const spec = operationSpec(mutation.kind, mutation.operationId);
    checkPath(mutation);
    const named = parseEntityKey(entityOf(mutation));
    const entity = canonicalKey(db, named.kind, named.id);
    const plan = coalesce(mutationsOfEntity(db, entity), mutation, entity);
    const dropped: Dropped = { mutations: [], files: [] };
    for (const id of plan.remove) removeRow(db, id, dropped);
    if (plan.rewrite) {
      // The merged update (same kind as the edit) or the create the update folded into.
      const r = plan.rewrite;
      const kind = kindOfRow(db, r.mutationId);
      const rowSpec = operationSpec(kind, r.operationId);
      run(
        db,
        qb
          .updateTable('outbox')
          .set({
            operation_id: r.operationId,
            path: JSON.stringify(r.path),
            body: toJson(r.body),
            depends_on: JSON.stringify(dependsOnOf(db, kind, rowSpec, r.path, r.body, entity)),
            updated_at: now,
            ...(r.edited ? { edited: JSON.stringify(r.edited) } : {}),
          })
          .where('mutation_id', '=', r.mutationId),
      );
    }
    dropEntities(db, plan.dropDependentsOf, dropped);
    let mutationId: number | null = null;
    if (plan.insert) {
      const body = mutation.body ?? null;
      const inserted = first(
        db,
        qb
          .insertInto('outbox')
          .values({
            entity,
            kind: mutation.kind,
            operation_id: mutation.operationId,
            path: JSON.stringify(mutation.path),
            body: toJson(body),
            idempotency_key: randomUUID(),
            depends_on: JSON.stringify(
              dependsOnOf(db, mutation.kind, spec, mutation.path, body, entity),
            ),
            state: 'pending',
            next_attempt_at: now,
            base: toJson(plan.insert.base),
            created_at: now,
            updated_at: now,
            edited: mutation.edited ? JSON.stringify(mutation.edited) : null,
          })
          .returning('mutation_id'),
      );
      mutationId = inserted?.mutation_id ?? null;
    }
    return { mutationId, rule: plan.rule, entity, dropped };
  });

const kindOfRow = (db: Sqlite, mutationId: number): MutationKind => {
  const row = first(
    db,
    qb.selectFrom('outbox').select('kind').where('mutation_id', '=', mutationId),
  );
  if (!row) throw new OutboxStateError(`no outbox row ${mutationId}`);
  return row.kind as MutationKind;
};

// ---- replay -----------------------------------------------------------------------------------

const kindList = (keep: (k: MutationKind) => boolean) =>
  mutationKindNames
    .filter(keep)
    .map((k) => `'${k}'`)
    .join(', ');
const deleteKinds = kindList((k) => kindSpec(k).effect === 'delete');
/**
 * Rows of a serial entity kind (`EntitySpec.serial`: timers, one running per user) wait for
 * every earlier unsent row of that kind, whichever entity. The first such row: those of the
 * kind's entities are a range of the entity index (`timer:` up to `timer;`), an uncorrelated
 * subquery, so SQLite evaluates it once per scan.
 */
const serialWaits = (Object.keys(entitySpecs) as EntityKind[])
  .filter((e) => entitySpecs[e].serial)
  .map(
    (e) => `AND NOT (o.kind IN (${kindList((k) => kindSpec(k).entity === e)}) AND o.mutation_id > (
      SELECT min(t.mutation_id) FROM outbox t
      WHERE t.entity >= '${e}:' AND t.entity < '${e};' AND t.state IN ('pending', 'inflight')))`,
  )
  .join('\n         ');

/**
 * When a pending row is due: at its time (`next_attempt_at`), on this machine's clock. A clock
 * stepped back since the row was scheduled (an NTP correction; `updated_at` then lies ahead of
 * now) would stretch its wait by the step: the edit would sit unsent for minutes, until the
 * clock caught up (issue 23). How much of the wait has passed cannot be told then, so such a
 * row is due at once: one early attempt at worst, and its next wait is on the new clock.
 */
export const dueAtSql = (row: string) =>
  `CASE WHEN ${row}.updated_at > @now THEN min(${row}.next_attempt_at, @now) ELSE ${row}.next_attempt_at END`;
/** Due by `dueAtSql` though its time has not come: the clock went back past its scheduling. */
const clockWentBack = (row: string) => `${row}.updated_at > @now`;

/**
 * Rows the pusher may send now, in replay order: pending and due (`dueAtSql`); no earlier row of the same
 * entity still queued (in any state); every entity they reference known to the server (no
 * local key left in depends_on); for a delete, no earlier pending or in-flight row that
 * references the entity (a child created under it goes first); and for a row of a serial
 * entity kind (a timer's), no earlier unsent row of any entity of that kind (`serialWaits`).
 * At most one row per entity,
 * so the rows returned are independent and may be sent in parallel.
 */
export const readyMutations = (db: Sqlite, now: number, limit = 4): QueuedMutation[] =>
  (
    stmt(
      db,
      // In replay order (the primary key): the scan stops at the first `limit` rows that
      // qualify, instead of testing every due row and sorting. Ids only: the rows taken are
      // read whole afterwards (their bodies and bases are what costs). The limit is written
      // into the SQL: bound as a parameter, it made each call ~6 times slower (measured).
      // One statement per pool size. A local key in depends_on (a JSON array of keys) reads
      // `kind:-id`: found in its text, for a fraction of unpacking the array in every row.
      `SELECT o.mutation_id FROM outbox o NOT INDEXED
       WHERE o.state = 'pending' AND (o.next_attempt_at <= @now OR ${clockWentBack('o')})
         AND NOT EXISTS (
           SELECT 1 FROM outbox e WHERE e.entity = o.entity AND e.mutation_id < o.mutation_id)
         AND instr(o.depends_on, ':-') = 0
         ${serialWaits}
         AND NOT (o.kind IN (${deleteKinds}) AND EXISTS (
           SELECT 1 FROM outbox x, json_each(x.depends_on) d
           WHERE x.mutation_id < o.mutation_id AND x.state IN ('pending', 'inflight')
             AND d.value = o.entity))
       ORDER BY o.mutation_id LIMIT ${Math.max(0, Math.trunc(limit))}`,
    )
      .pluck()
      .all({ now }) as number[]
  ).flatMap((id) => getMutation(db, id) ?? []);

const transition = (
  db: Sqlite,
  mutationId: number,
  from: readonly QueuedMutation['state'][],
  set: string,
  ...params: unknown[]
): void => {
  const changed = stmt(
    db,
    `UPDATE outbox SET ${set} WHERE mutation_id = ? AND state IN (${from.map((s) => `'${s}'`).join(', ')})`,
  ).run(...params, mutationId).changes;
  if (changed === 0) {
    const row = getMutation(db, mutationId);
    throw new OutboxStateError(
      row
        ? `outbox row ${mutationId} is ${row.state}, not ${from.join(' or ')}`
        : `no outbox row ${mutationId}`,
    );
  }
};

/** The pusher takes the row: counts the attempt (and notes the first). */
export const markInflight = (db: Sqlite, mutationId: number, now: number): void =>
  transition(
    db,
    mutationId,
    ['pending'],
    "state = 'inflight', attempts = attempts + 1, sent_at = coalesce(sent_at, ?), updated_at = ?",
    now,
    now,
  );

/**
 * The server confirmed the row: it leaves the queue with its files. Answers the staged files'
 * paths, to remove after the commit.
 */
export const settle = (db: Sqlite, mutationId: number): { files: string[] } =>
  inTx(db, () => {
    if (stmt(db, 'DELETE FROM outbox WHERE mutation_id = ?').run(mutationId).changes === 0)
      throw new OutboxStateError(`no outbox row ${mutationId}`);
    const files = stmt(db, 'DELETE FROM outbox_files WHERE mutation_id = ? RETURNING path')
      .pluck()
      .all(mutationId) as string[];
    return { files };
  });

/** A transient failure: back to pending, due again at `nextAttemptAt`. */
export const retryLater = (
  db: Sqlite,
  mutationId: number,
  error: OutboxError,
  nextAttemptAt: number,
  now: number,
): void =>
  transition(
    db,
    mutationId,
    ['inflight', 'pending'],
    "state = 'pending', last_error = ?, next_attempt_at = ?, updated_at = ?",
    JSON.stringify(error),
    nextAttemptAt,
    now,
  );

/** A refused or conflicting edit goes into the "Changes from sync" list too. */
const noteChange = (
  db: Sqlite,
  mutationId: number,
  kind: 'failed' | 'conflict',
  error: OutboxError,
  now: number,
): void => {
  const row = getMutation(db, mutationId);
  if (!row) return;
  // The server's words with what it said of each field ("invalid task: status: unknown …").
  const fields = (error.fieldErrors ?? []).map((f) => `${f.field}: ${f.message}`);
  const message = [error.message, ...fields].join('; ');
  recordChange(db, { kind, entity: row.entity, mine: row.body ?? null, mutationId, message }, now);
};

/** The server refused the edit: kept, visible with its message, until retried or discarded. */
export const failPermanently = (
  db: Sqlite,
  mutationId: number,
  error: OutboxError,
  now: number,
): void => {
  transition(
    db,
    mutationId,
    ['inflight', 'pending'],
    "state = 'failed', last_error = ?, updated_at = ?",
    JSON.stringify(error),
    now,
  );
  noteChange(db, mutationId, 'failed', error, now);
};

/** The edit's entity is gone on the server: the user decides (recreate or discard). */
export const markConflict = (
  db: Sqlite,
  mutationId: number,
  error: OutboxError,
  now: number,
): void => {
  transition(
    db,
    mutationId,
    ['inflight', 'pending'],
    "state = 'conflict', last_error = ?, updated_at = ?",
    JSON.stringify(error),
    now,
  );
  noteChange(db, mutationId, 'conflict', error, now);
};

/**
 * The user retries a failed or conflicting row, optionally with a corrected body: pending
 * again, due now, attempts from zero (the server refused it, so it never took effect).
 */
export const retryFailed = (
  db: Sqlite,
  mutationId: number,
  now: number,
  options: { body?: Json } = {},
): void =>
  inTx(db, () => {
    const row = getMutation(db, mutationId);
    if (!row) throw new OutboxStateError(`no outbox row ${mutationId}`);
    const body = options.body === undefined ? row.body : options.body;
    const spec = operationSpec(row.kind, row.operationId);
    transition(
      db,
      mutationId,
      ['failed', 'conflict'],
      `state = 'pending', attempts = 0, next_attempt_at = ?, last_error = NULL, body = ?,
       depends_on = ?, updated_at = ?`,
      now,
      toJson(body),
      JSON.stringify(dependsOnOf(db, row.kind, spec, row.path, body, row.entity)),
      now,
    );
  });

/**
 * The user gives up an edit (any state but in flight). Discarding a create discards the
 * entity's other rows and every row depending on it. The caller rolls the replica back from
 * the dropped rows (their `base`) and removes their files after the commit.
 */
export const discard = (db: Sqlite, mutationId: number): Dropped =>
  inTx(db, () => {
    const row = getMutation(db, mutationId);
    if (!row) throw new OutboxStateError(`no outbox row ${mutationId}`);
    if (row.state === 'inflight')
      throw new OutboxStateError(`outbox row ${mutationId} is in flight: it cannot be discarded`);
    const dropped: Dropped = { mutations: [], files: [] };
    if (kindSpec(row.kind).effect === 'create') dropEntities(db, [row.entity], dropped);
    else removeRow(db, mutationId, dropped);
    return dropped;
  });

/** What a row left in flight by a crash last knows: it may have reached the server. */
const crashedInFlight: OutboxError = {
  kind: 'local',
  failure: 'retry',
  message: 'the app stopped while this edit was on its way',
};

/**
 * At start-up: rows a crash left in flight go back to pending, due now. Their idempotency key
 * makes resending a POST safe; their attempt still counts and their last error says they may
 * have reached the server (an earlier 429 must not say they did not), so the coalescer and
 * the rebase treat them as possibly at the server. Returns how many.
 */
export const resetInflight = (db: Sqlite, now: number): number =>
  stmt(
    db,
    "UPDATE outbox SET state = 'pending', next_attempt_at = ?, updated_at = ?, last_error = ? WHERE state = 'inflight'",
  ).run(now, now, JSON.stringify(crashedInFlight)).changes;
