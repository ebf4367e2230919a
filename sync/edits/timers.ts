/**
 * Timers as the user saw them. Pause and resume carry no time in the API and a stop replayed
 * late would end at the server's clock, so the replay alone cannot give the server the right
 * numbers. Each local timer edit therefore folds into a "truth" record (start time, running
 * milliseconds, when the running part began), kept in `replica_info` under the timer's id:
 * the replica's timer row is written from it (a running timer keeps counting from
 * `observed_at`), a pull cannot overwrite it while edits are queued, and after the replay the
 * engine compares it with the server's record and sends `updateTimer` with
 * `timerTruth(...)`'s start time and duration when they differ (then `forgetTimerTruth`).
 *
 * Decision (issue 4, "timers stay true"): correct with updateTimer after the replay, not
 * ranges: the server's record keeps its id, notes and billing status.
 */
import type { BillingStatus, TimerState } from '../../shared/api';
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { serverIdOf } from '../outbox';
import { currentId, EditError } from './state';

export interface TimerTruthRecord {
  userId: number;
  taskId: number;
  projectId: number | null;
  state: TimerState;
  /** In the server's clock (a start stamped here is converted with the estimated offset). */
  startTime: number;
  /** Running time before `runningSince` (ms). */
  accumulatedMs: number;
  /** When the current running part began (RUNNING only). */
  runningSince: number | null;
  endTime: number | null;
  billingStatus: BillingStatus;
  notes: string | null;
  /**
   * Running parts closed (a pause, a stop) across forward jumps of this machine's clock not
   * told apart yet (sync/api/server-clock.ts): each jump's last reading before. Counted in
   * `accumulatedMs` as sleeps are; taken out for those that prove steps (`restampTruths`).
   */
  acrossJumps?: number[];
}

/** What the user saw of a timer: what `updateTimer` needs to make the server agree. */
export interface TimerTruth {
  trackId: number;
  state: TimerState;
  startTime: number;
  durationSeconds: number;
  endTime: number | null;
  billingStatus: BillingStatus;
  notes: string | null;
}

const PREFIX = 'edits.timer:';
const KEY = (trackId: number) => `${PREFIX}${trackId}`;

export const runningMs = (t: TimerTruthRecord, now: number): number =>
  Math.max(0, rawMs(t, now, true));

/**
 * The running time as this clock reads it. A part closed across a jump not told apart yet may
 * read negative (set back while no process watched): kept so, it comes right when the jump
 * is told (`restampTruths`); clamped, it would lose what the step took.
 */
const rawMs = (t: TimerTruthRecord, now: number, clampPart = false): number => {
  const part = t.state === 'RUNNING' && t.runningSince !== null ? now - t.runningSince : 0;
  return t.accumulatedMs + (clampPart ? Math.max(0, part) : part);
};

/** Whole seconds of a kept running time (never below 0, even while a jump is not told). */
export const wholeSeconds = (ms: number): number => Math.floor(Math.max(0, ms) / 1000);

const localIdsOf = (db: Sqlite, trackId: number): number[] =>
  (
    stmt(db, "SELECT local_id FROM local_ids WHERE entity_kind = 'timer' AND server_id = ?").all(
      trackId,
    ) as { local_id: number }[]
  ).map((r) => r.local_id);

/** The record of a timer by any id it went by (local, or the server's once mapped). */
export const readTruth = (db: Sqlite, trackId: number): TimerTruthRecord | null => {
  const ids = [trackId, serverIdOf(db, 'timer', trackId), ...localIdsOf(db, trackId)];
  for (const id of ids) {
    if (id === undefined) continue;
    const row = stmt(db, 'SELECT value FROM replica_info WHERE key = ?').get(KEY(id)) as
      | { value: string }
      | undefined;
    if (row) return JSON.parse(row.value) as TimerTruthRecord;
  }
  return null;
};

export const writeTruth = (db: Sqlite, trackId: number, t: TimerTruthRecord): void => {
  for (const id of localIdsOf(db, trackId))
    stmt(db, 'DELETE FROM replica_info WHERE key = ?').run(KEY(id));
  stmt(db, 'INSERT OR REPLACE INTO replica_info (key, value) VALUES (?, ?)').run(
    KEY(trackId),
    JSON.stringify(t),
  );
};

/** Drops the record (the server agrees, or the timer is gone). */
export const forgetTimerTruth = (db: Sqlite, trackId: number): void => {
  const ids = [trackId, serverIdOf(db, 'timer', trackId), ...localIdsOf(db, trackId)];
  for (const id of ids)
    if (id !== undefined) stmt(db, 'DELETE FROM replica_info WHERE key = ?').run(KEY(id));
};

/**
 * What the user saw of a timer now (the start time and whole seconds of running time they
 * were shown), or null when no local edit of it is recorded. `trackId` may be the server id
 * of a timer started offline.
 */
export const timerTruth = (db: Sqlite, trackId: number, now: number): TimerTruth | null => {
  const t = readTruth(db, trackId);
  if (!t) return null;
  return {
    trackId: serverIdOf(db, 'timer', trackId) ?? trackId,
    state: t.state,
    startTime: t.startTime,
    durationSeconds: wholeSeconds(runningMs(t, now)),
    endTime: t.endTime,
    billingStatus: t.billingStatus,
    notes: t.notes,
  };
};

/** The jumps of a step, as `restampTruths` and the engine's restamp take them. */
export interface Jump {
  before: number;
  ms: number;
  windowFrom: number | null;
}

/** A kept time of this machine's clock, moved by every step it came before. */
export const localMoved = (jumps: readonly Jump[], t: number): number =>
  t + jumps.reduce((n, j) => n + (t <= j.before ? j.ms : 0), 0);

/** A server time stamped on an old offset after forward steps learnt late, taken back. */
export const serverMoved = (jumps: readonly Jump[], t: number): number =>
  t - jumps.reduce((n, j) => n + (j.windowFrom !== null && t >= j.windowFrom ? j.ms : 0), 0);

/**
 * This machine's clock stepped (sync/api/server-clock.ts `LocalStep`): each record's times of
 * this clock from before a step move with it; a forward step learnt late also takes back what
 * it added meanwhile (server times stamped on the old offset, and the running parts closed
 * across it). A sleep (`ms` 0) only drops the marks. Rewrites the rows of the records it
 * changed.
 */
export const restampTruths = (db: Sqlite, jumps: readonly Jump[], now: number): void => {
  const rows = stmt(db, 'SELECT key, value FROM replica_info WHERE key LIKE ?').all(
    `${PREFIX}%`,
  ) as { key: string; value: string }[];
  for (const r of rows) {
    const t = JSON.parse(r.value) as TimerTruthRecord;
    const { acrossJumps = [], ...rest } = t;
    const told = jumps.filter((j) => acrossJumps.includes(j.before));
    const left = acrossJumps.filter((b) => !jumps.some((j) => j.before === b));
    const next: TimerTruthRecord = {
      ...rest,
      ...(left.length > 0 ? { acrossJumps: left } : {}),
      startTime: serverMoved(jumps, t.startTime),
      endTime: t.endTime === null ? null : serverMoved(jumps, t.endTime),
      runningSince: t.runningSince === null ? null : localMoved(jumps, t.runningSince),
      // Raw while other jumps it crossed are still to be told.
      accumulatedMs: ((ms) => (left.length > 0 ? ms : Math.max(0, ms)))(
        t.accumulatedMs - told.reduce((n, j) => n + j.ms, 0),
      ),
    };
    if (JSON.stringify(next) === r.value) continue;
    stmt(db, 'UPDATE replica_info SET value = ? WHERE key = ?').run(JSON.stringify(next), r.key);
    const id = Number(r.key.slice(PREFIX.length));
    if (stmt(db, 'SELECT 1 FROM timers WHERE track_id = ?').get(id) !== undefined)
      writeTimerRow(db, id, next, now);
  }
};

// ---- moves --------------------------------------------------------------------------------

const illegal = (move: string, t: TimerTruthRecord) =>
  new EditError(`cannot ${move} a ${t.state.toLowerCase()} timer`);

/** `acrossJumps`: the running part closes across jumps not told apart yet (kept raw). */
export const pause = (t: TimerTruthRecord, at: number, acrossJumps = false): TimerTruthRecord => {
  if (t.state !== 'RUNNING') throw illegal('pause', t);
  const accumulatedMs = acrossJumps ? rawMs(t, at) : runningMs(t, at);
  return { ...t, state: 'PAUSED', accumulatedMs, runningSince: null };
};

export const resume = (t: TimerTruthRecord, at: number): TimerTruthRecord => {
  if (t.state !== 'PAUSED') throw illegal('resume', t);
  return { ...t, state: 'RUNNING', runningSince: at };
};

/** `serverOffsetMs`: the end is stamped in the server's clock, as the start is. */
export const stop = (
  t: TimerTruthRecord,
  at: number,
  serverOffsetMs = 0,
  acrossJumps = false,
): TimerTruthRecord => {
  if (t.state === 'STOPPED') throw illegal('stop', t);
  return {
    ...t,
    state: 'STOPPED',
    accumulatedMs: acrossJumps ? rawMs(t, at) : runningMs(t, at),
    runningSince: null,
    endTime:
      t.state === 'RUNNING' ? at + Math.round(serverOffsetMs) : t.startTime + t.accumulatedMs,
  };
};

/**
 * updateTimer's rule: a stopped record becomes one block; an active one reads as sent now.
 * An update that sends the start and the whole seconds the record reads at `at` (every notes or
 * billing change does: the body is the full state) leaves its running time alone. Read as sent,
 * it would lose the part of a second past them, each time: a timer run 1.7 s with its billing
 * changed at 0.7 s and its notes at 1.4 s would end at 0.3 s, and the correction after its stop
 * would make the server agree with that.
 */
export const update = (
  t: TimerTruthRecord,
  body: {
    billingStatus: BillingStatus;
    notes?: string | null;
    startTime: number;
    durationSeconds: number;
  },
  at: number,
): TimerTruthRecord => {
  const ms = body.durationSeconds * 1000;
  const common = { billingStatus: body.billingStatus, notes: body.notes ?? null };
  const same =
    body.startTime === t.startTime && body.durationSeconds === wholeSeconds(runningMs(t, at));
  if (same) return { ...t, ...common };
  if (t.state === 'STOPPED')
    return {
      ...t,
      ...common,
      startTime: body.startTime,
      accumulatedMs: ms,
      endTime: body.startTime + ms,
    };
  return {
    ...t,
    ...common,
    startTime: body.startTime,
    accumulatedMs: ms,
    runningSince: t.state === 'RUNNING' ? at : null,
  };
};

/** The record a timer row of the replica stands for (a server copy, before local edits). */
export const truthOfRow = (db: Sqlite, trackId: number, now: number): TimerTruthRecord | null => {
  const r = stmt(
    db,
    `SELECT task_id, project_id, user_id, state, start_time, end_time, duration_seconds, billing_status, notes, observed_at
     FROM timers WHERE track_id = ?`,
  ).get(trackId) as
    | {
        task_id: number;
        project_id: number | null;
        user_id: number;
        state: TimerState;
        start_time: number;
        end_time: number | null;
        duration_seconds: number;
        billing_status: BillingStatus | null;
        notes: string | null;
        observed_at: number;
      }
    | undefined;
  if (!r) return null;
  const running = r.state === 'RUNNING';
  return {
    userId: r.user_id,
    taskId: r.task_id,
    projectId: r.project_id,
    state: r.state,
    startTime: r.start_time,
    accumulatedMs: r.duration_seconds * 1000,
    runningSince: running ? Math.min(r.observed_at, now) : null,
    endTime: r.end_time,
    billingStatus: r.billing_status ?? 'BILLABLE',
    notes: r.notes,
  };
};

/**
 * Writes the timer row from its record. A running timer's `observed_at` is set so that the
 * replica's reading (whole seconds stored + whole seconds since observed_at) equals the
 * record's running time to the second.
 */
export const writeTimerRow = (
  db: Sqlite,
  trackId: number,
  t: TimerTruthRecord,
  now: number,
): void => {
  const running = t.state === 'RUNNING' && t.runningSince !== null;
  const observedAt = running
    ? (t.runningSince ?? now) - (Math.max(0, t.accumulatedMs) % 1000)
    : now;
  stmt(
    db,
    `INSERT INTO timers (track_id, task_id, project_id, user_id, state, start_time, end_time, duration_seconds,
       billing_status, notes, created_time, modified_time, observed_at)
     VALUES (@id, @task, @project, @user, @state, @start, @end, @duration, @billing, @notes, @now, @now, @observed)
     ON CONFLICT(track_id) DO UPDATE SET task_id = excluded.task_id, project_id = excluded.project_id,
       state = excluded.state, start_time = excluded.start_time, end_time = excluded.end_time,
       duration_seconds = excluded.duration_seconds, billing_status = excluded.billing_status,
       notes = excluded.notes, observed_at = excluded.observed_at`,
  ).run({
    id: trackId,
    // The task may have been made offline and have its server id by now.
    task: currentId(db, 'task', t.taskId),
    project: t.projectId === null ? null : currentId(db, 'project', t.projectId),
    user: t.userId,
    state: t.state,
    start: t.startTime,
    end: t.endTime,
    duration: wholeSeconds(t.accumulatedMs),
    billing: t.billingStatus,
    notes: t.notes,
    now,
    observed: observedAt,
  });
};

/** The user's running or paused timer in the replica, if any. */
export const activeTimerId = (db: Sqlite, userId: number): number | null =>
  (
    stmt(
      db,
      "SELECT track_id FROM timers WHERE user_id = ? AND state <> 'STOPPED' ORDER BY start_time DESC LIMIT 1",
    ).get(userId) as { track_id: number } | undefined
  )?.track_id ?? null;
