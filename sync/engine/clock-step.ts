/**
 * This machine's clock stepped (sync/api/server-clock.ts `LocalStep`, issue 23): the times
 * the replica keeps of it move with it, so that each still says what it said. An edit's time
 * still converts to the server's clock as it did (the last writer per field is judged in the
 * server's order), a timer's running part counts real time, not the step, and a wait is not
 * stretched or cut by it. Times from after the jump are of the new clock already and stay.
 *
 * Kept: the outbox's times (made, scheduled, first sent; each field's edit time; a timer
 * move's time), the timer records (edits/timers.ts), a running timer row's `observed_at`, and
 * the times the sync panel, the history and the lazy cache show or age by. A forward step
 * learnt late also takes back the server times stamped meanwhile on the old offset: a timer
 * start's, queued.
 */
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { writeTx } from '../db/write-tx';
import { type Jump, localMoved, readTruth, restampTruths, serverMoved } from '../edits/timers';
import { type EntityKey, parseEntityKey } from '../outbox/types';

/** Columns of this machine's clock, by table. */
const columns: Readonly<Record<string, readonly string[]>> = {
  outbox: ['created_at', 'sent_at', 'updated_at'],
  timers: ['observed_at'],
  outbox_notices: ['created_at'],
  sync_changes: ['created_at'],
  history_steps: ['created_at'],
  lazy_cache: ['fetched_at'],
};

/**
 * `column` moved by every step it came before (judged on `by`, its own value unless told), as
 * SQL over the row's values before the update.
 */
const movedSql = (jumps: readonly Jump[], column: string, by = column): string =>
  `${column} + ${jumps.map((j) => `(CASE WHEN ${by} <= ${j.before} THEN ${j.ms} ELSE 0 END)`).join(' + ')}`;

type JsonRecord = Record<string, unknown>;
const isRecord = (v: unknown): v is JsonRecord =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The outbox's JSON times: each field's edit time, a move's `at`, and the start a timer's
 * start or update carries (the engine's, in the server's clock: an update sends the record's).
 */
const restampRows = (db: Sqlite, jumps: readonly Jump[]): void => {
  const rows = stmt(
    db,
    'SELECT mutation_id, kind, body, edited FROM outbox WHERE edited IS NOT NULL OR kind LIKE ?',
  ).all('timer.%') as {
    mutation_id: number;
    kind: string;
    body: string | null;
    edited: string | null;
  }[];
  const local = (v: unknown) => (typeof v === 'number' ? localMoved(jumps, v) : v);
  for (const r of rows) {
    const edited = r.edited === null ? null : (JSON.parse(r.edited) as unknown);
    const body = r.body === null ? null : (JSON.parse(r.body) as unknown);
    const nextEdited = isRecord(edited)
      ? Object.fromEntries(Object.entries(edited).map(([k, v]) => [k, local(v)]))
      : edited;
    let nextBody = body;
    if (isRecord(body) && r.kind.startsWith('timer.')) {
      const start = body.startTime;
      nextBody = {
        ...body,
        ...(body.at === undefined ? {} : { at: local(body.at) }),
        ...((r.kind === 'timer.start' || r.kind === 'timer.update') && typeof start === 'number'
          ? { startTime: serverMoved(jumps, start) }
          : {}),
      };
    }
    const e = JSON.stringify(nextEdited);
    const b = JSON.stringify(nextBody);
    if (e !== (r.edited ?? 'null') || b !== (r.body ?? 'null'))
      stmt(db, 'UPDATE outbox SET edited = ?, body = ? WHERE mutation_id = ?').run(
        nextEdited === null ? null : e,
        nextBody === null ? null : b,
        r.mutation_id,
      );
  }
};

/**
 * A timer update queued after a forward step learnt late carries a running time that counted
 * the step when its running part crossed it (the truth marks that part, or it still runs from
 * before): the step is taken out of it. Before the truths move.
 */
const restampUpdates = (db: Sqlite, jumps: readonly Jump[]): void => {
  const rows = stmt(
    db,
    "SELECT mutation_id, entity, body, updated_at FROM outbox WHERE kind = 'timer.update'",
  ).all() as { mutation_id: number; entity: string; body: string | null; updated_at: number }[];
  for (const r of rows) {
    const body = r.body === null ? null : (JSON.parse(r.body) as unknown);
    if (!isRecord(body) || typeof body.durationSeconds !== 'number') continue;
    const t = readTruth(db, parseEntityKey(r.entity as EntityKey).id);
    if (!t) continue;
    const crossed = jumps.filter(
      (j) =>
        j.windowFrom !== null &&
        r.updated_at > j.before &&
        ((t.acrossJumps ?? []).includes(j.before) ||
          (t.state === 'RUNNING' && t.runningSince !== null && t.runningSince <= j.before)),
    );
    const ms = crossed.reduce((n, j) => n + j.ms, 0);
    if (ms === 0) continue;
    const durationSeconds = Math.max(0, body.durationSeconds - Math.round(ms / 1000));
    stmt(db, 'UPDATE outbox SET body = ? WHERE mutation_id = ?').run(
      JSON.stringify({ ...body, durationSeconds }),
      r.mutation_id,
    );
  }
};

/** Moves every kept time of this machine's clock by the steps, in one transaction. */
export const restampClock = (db: Sqlite, jumps: readonly Jump[], now: number): void => {
  const steps = jumps.filter((j) => j.ms !== 0);
  writeTx(db, () => {
    if (steps.length > 0) {
      for (const [table, cols] of Object.entries(columns)) {
        const set = cols.map((c) => `${c} = ${movedSql(steps, c)}`);
        // A row scheduled before a step keeps its wait: judged on when it was scheduled.
        if (table === 'outbox')
          set.push(`next_attempt_at = ${movedSql(steps, 'next_attempt_at', 'updated_at')}`);
        stmt(db, `UPDATE ${table} SET ${set.join(', ')}`).run();
      }
      restampUpdates(db, steps);
      restampRows(db, steps);
    }
    restampTruths(db, jumps, now);
  });
};
