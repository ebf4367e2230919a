import type {
  BillingStatus,
  ManualTimerRequest,
  RangeTimerRequest,
  TimerRecord,
  TimerRequest,
  TimerState,
  TimerUpdateRequest,
} from '../../shared/api';
import type { Db } from '../db/open';
import { badRequest, conflict, notFound } from '../http/errors';
import { findTask, type TaskRef } from './lookup';

/**
 * Timer records and the state table of spec part 3:
 *
 *   start   (none)            → RUNNING   409 when the user already has a RUNNING or PAUSED one
 *   pause   RUNNING           → PAUSED    409 otherwise
 *   resume  PAUSED            → RUNNING   409 otherwise
 *   stop    RUNNING | PAUSED  → STOPPED   409 when already STOPPED
 *
 * Running time is `accumulated_ms` plus, while RUNNING, `now - running_since`; pauses never
 * count. Only the user who owns a timer sees or moves it: another user's track id is a 404.
 */
export interface TimerRow {
  track_id: number;
  org_id: number;
  task_id: number;
  project_id: number | null;
  user_id: number;
  state: TimerState;
  start_time: number;
  end_time: number | null;
  accumulated_ms: number;
  running_since: number | null;
  billing_status: BillingStatus;
  notes: string | null;
  created_time: number;
  modified_time: number;
}
export const timerColumns =
  'track_id, org_id, task_id, project_id, user_id, state, start_time, end_time, accumulated_ms, running_since, billing_status, notes, created_time, modified_time';

export interface TimerWho {
  userId: number;
  orgId: number;
  now: number;
}

const runningMs = (r: TimerRow, now: number): number =>
  r.accumulated_ms +
  (r.state === 'RUNNING' && r.running_since !== null ? now - r.running_since : 0);

export const timerDto = (r: TimerRow, now: number): TimerRecord => ({
  trackId: r.track_id,
  taskId: r.task_id,
  projectId: r.project_id,
  userId: r.user_id,
  state: r.state,
  startTime: r.start_time,
  endTime: r.end_time,
  durationSeconds: Math.floor(Math.max(0, runningMs(r, now)) / 1000),
  billingStatus: r.billing_status,
  notes: r.notes,
  createdTime: r.created_time,
  modifiedTime: r.modified_time,
});

const fieldError = (field: string, message: string, rejectedValue?: unknown) =>
  badRequest('invalid request body', [
    rejectedValue === undefined ? { field, message } : { field, message, rejectedValue },
  ]);

// ---------------------------------------------------------------------------------------------
// Which task a timer may be on

/** A subtask belongs where its parent belongs, whatever its own row says. */
const projectOfTask = (db: Db, orgId: number, task: TaskRef): number | null => {
  if (task.projectId !== null || task.parentTaskId === null) return task.projectId;
  return findTask(db, orgId, task.parentTaskId).projectId;
};

/** Personal variants: a live task of the org outside any project (subtasks of one count). */
export const personalTask = (db: Db, orgId: number, taskId: number): TaskRef => {
  const task = findTask(db, orgId, taskId);
  if (projectOfTask(db, orgId, task) !== null) throw notFound(`personal task ${taskId}`);
  return task;
};

/** Project variants: a live task of that live project, in any space of the org. */
export const projectTask = (db: Db, orgId: number, projectId: number, taskId: number): TaskRef => {
  const project = db
    .prepare('SELECT 1 FROM projects WHERE project_id = ? AND org_id = ? AND deleted = 0')
    .get(projectId, orgId);
  if (!project) throw notFound(`project ${projectId}`);
  const task = findTask(db, orgId, taskId);
  if (projectOfTask(db, orgId, task) !== projectId)
    throw notFound(`task ${taskId} of project ${projectId}`);
  return task;
};

// ---------------------------------------------------------------------------------------------
// Reading

const rowById = (db: Db, trackId: number): TimerRow =>
  db.prepare(`SELECT ${timerColumns} FROM timers WHERE track_id = ?`).get(trackId) as TimerRow;

/** The caller's own timer in this org, or a 404 (another user's is not revealed). */
const ownTimer = (db: Db, who: TimerWho, trackId: number): TimerRow => {
  const row = db
    .prepare(`SELECT ${timerColumns} FROM timers WHERE track_id = ? AND org_id = ? AND user_id = ?`)
    .get(trackId, who.orgId, who.userId) as TimerRow | undefined;
  if (!row) throw notFound(`timer ${trackId}`);
  return row;
};

export const activeTimers = (db: Db, who: TimerWho): TimerRecord[] =>
  (
    db
      .prepare(
        `SELECT ${timerColumns} FROM timers WHERE org_id = ? AND user_id = ? AND state <> 'STOPPED' ORDER BY start_time, track_id`,
      )
      .all(who.orgId, who.userId) as TimerRow[]
  ).map((r) => timerDto(r, who.now));

export const taskTimers = (db: Db, who: TimerWho, taskId: number): TimerRecord[] => {
  findTask(db, who.orgId, taskId);
  return (
    db
      .prepare(
        `SELECT ${timerColumns} FROM timers WHERE task_id = ? AND org_id = ? AND user_id = ? ORDER BY start_time, track_id`,
      )
      .all(taskId, who.orgId, who.userId) as TimerRow[]
  ).map((r) => timerDto(r, who.now));
};

// ---------------------------------------------------------------------------------------------
// Creating

const activeOf = (db: Db, who: TimerWho): number | undefined =>
  (
    db
      .prepare(
        "SELECT track_id FROM timers WHERE org_id = ? AND user_id = ? AND state <> 'STOPPED'",
      )
      .get(who.orgId, who.userId) as { track_id: number } | undefined
  )?.track_id;

const alreadyActive = (trackId: number | undefined) =>
  conflict(
    `the user already has a running or paused timer${trackId === undefined ? '' : ` (${trackId})`}: stop it first`,
  );

interface NewTimer {
  taskId: number;
  projectId: number | null;
  state: 'RUNNING' | 'STOPPED';
  startTime: number;
  endTime: number | null;
  accumulatedMs: number;
  runningSince: number | null;
  billingStatus: BillingStatus;
  notes: string | null;
}

const insertTimer = (db: Db, who: TimerWho, t: NewTimer): TimerRecord => {
  let trackId: number;
  try {
    trackId = Number(
      db
        .prepare(
          `INSERT INTO timers (org_id, task_id, project_id, user_id, state, start_time, end_time, accumulated_ms, running_since, billing_status, notes, created_time, modified_time)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          who.orgId,
          t.taskId,
          t.projectId,
          who.userId,
          t.state,
          t.startTime,
          t.endTime,
          t.accumulatedMs,
          t.runningSince,
          t.billingStatus,
          t.notes,
          who.now,
          who.now,
        ).lastInsertRowid,
    );
  } catch (error) {
    // The partial unique index `timers_one_active` is the last word on "one active timer".
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE')
      throw alreadyActive(undefined);
    throw error;
  }
  return timerDto(rowById(db, trackId), who.now);
};

/** A new RUNNING timer; `startTime` may backdate the start, never put it in the future. */
export const startTimer = (
  db: Db,
  who: TimerWho,
  task: TaskRef,
  projectId: number | null,
  body: TimerRequest,
): TimerRecord => {
  if (body.endTime !== undefined)
    throw fieldError('endTime', 'a timer being started has no end', body.endTime);
  const startTime = body.startTime ?? who.now;
  if (startTime > who.now) throw fieldError('startTime', 'must not be in the future', startTime);
  const active = activeOf(db, who);
  if (active !== undefined) throw alreadyActive(active);
  return insertTimer(db, who, {
    taskId: task.taskId,
    projectId,
    state: 'RUNNING',
    startTime,
    endTime: null,
    accumulatedMs: 0,
    runningSince: startTime,
    billingStatus: body.billingStatus ?? 'BILLABLE',
    notes: body.notes ?? null,
  });
};

/** A finished session sent whole: a STOPPED record, `startTime < endTime` checked by the schema. */
export const addRange = (
  db: Db,
  who: TimerWho,
  task: TaskRef,
  projectId: number | null,
  body: RangeTimerRequest,
): TimerRecord =>
  insertTimer(db, who, {
    taskId: task.taskId,
    projectId,
    state: 'STOPPED',
    startTime: body.startTime,
    endTime: body.endTime,
    accumulatedMs: body.endTime - body.startTime,
    runningSince: null,
    billingStatus: 'BILLABLE',
    notes: null,
  });

/** Hours and minutes from a start: a STOPPED record ending at start + duration. */
export const addManual = (
  db: Db,
  who: TimerWho,
  task: TaskRef,
  projectId: number | null,
  body: ManualTimerRequest,
): TimerRecord => {
  const durationMs = (body.hours * 60 + body.minutes) * 60_000;
  return insertTimer(db, who, {
    taskId: task.taskId,
    projectId,
    state: 'STOPPED',
    startTime: body.startTime,
    endTime: body.startTime + durationMs,
    accumulatedMs: durationMs,
    runningSince: null,
    billingStatus: body.billingStatus,
    notes: body.notes ?? null,
  });
};

// ---------------------------------------------------------------------------------------------
// Moving

const illegalMove = (move: string, state: TimerState) =>
  conflict(`cannot ${move} a ${state.toLowerCase()} timer`);

const save = (db: Db, who: TimerWho, r: TimerRow): TimerRecord => {
  db.prepare(
    `UPDATE timers SET state = ?, start_time = ?, end_time = ?, accumulated_ms = ?, running_since = ?, billing_status = ?, notes = ?, modified_time = ?
     WHERE track_id = ?`,
  ).run(
    r.state,
    r.start_time,
    r.end_time,
    r.accumulated_ms,
    r.running_since,
    r.billing_status,
    r.notes,
    who.now,
    r.track_id,
  );
  return timerDto(rowById(db, r.track_id), who.now);
};

export const pauseTimer = (db: Db, who: TimerWho, trackId: number): TimerRecord => {
  const r = ownTimer(db, who, trackId);
  if (r.state !== 'RUNNING') throw illegalMove('pause', r.state);
  return save(db, who, {
    ...r,
    state: 'PAUSED',
    accumulated_ms: runningMs(r, who.now),
    running_since: null,
  });
};

export const resumeTimer = (db: Db, who: TimerWho, trackId: number): TimerRecord => {
  const r = ownTimer(db, who, trackId);
  if (r.state !== 'PAUSED') throw illegalMove('resume', r.state);
  return save(db, who, { ...r, state: 'RUNNING', running_since: who.now });
};

/**
 * Stops at `endTime` (default now): not in the future, and not before the running part began
 * (the last resume; for a paused timer, the running time it already holds after its start).
 * Notes and billing status sent along are applied; omitted ones are kept.
 */
export const stopTimer = (
  db: Db,
  who: TimerWho,
  trackId: number,
  body: TimerRequest,
): TimerRecord => {
  const r = ownTimer(db, who, trackId);
  if (r.state === 'STOPPED') throw illegalMove('stop', r.state);
  // Stop is a move, not an edit: a start time is accepted only as an echo of the stored one.
  if (body.startTime !== undefined && body.startTime !== r.start_time)
    throw fieldError('startTime', 'cannot be changed by stop; use updateTimer', body.startTime);
  const endTime = body.endTime ?? who.now;
  if (endTime > who.now) throw fieldError('endTime', 'must not be in the future', endTime);
  const earliest =
    r.state === 'RUNNING' && r.running_since !== null
      ? r.running_since
      : r.start_time + r.accumulated_ms;
  if (endTime < earliest)
    throw fieldError('endTime', `must not be before ${new Date(earliest).toISOString()}`, endTime);
  const accumulated =
    r.state === 'RUNNING' && r.running_since !== null
      ? r.accumulated_ms + (endTime - r.running_since)
      : r.accumulated_ms;
  return save(db, who, {
    ...r,
    state: 'STOPPED',
    end_time: endTime,
    accumulated_ms: accumulated,
    running_since: null,
    billing_status: body.billingStatus ?? r.billing_status,
    notes: body.notes === undefined ? r.notes : body.notes,
  });
};

/**
 * Sets billing status, notes, start and duration (the full editable state: omitted notes are
 * cleared). On a STOPPED record a changed start or duration makes it one block ending at
 * start + duration; on an active one the running time is set so that it reads as sent now
 * and keeps counting (RUNNING) from here.
 */
export const updateTimer = (
  db: Db,
  who: TimerWho,
  trackId: number,
  body: TimerUpdateRequest,
): TimerRecord => {
  const r = ownTimer(db, who, trackId);
  const durationMs = body.durationSeconds * 1000;
  const common = {
    billing_status: body.billingStatus,
    notes: body.notes ?? null,
    start_time: body.startTime,
  };
  if (r.state === 'STOPPED') {
    const unchanged =
      body.startTime === r.start_time &&
      body.durationSeconds === Math.floor(r.accumulated_ms / 1000);
    return save(db, who, {
      ...r,
      ...common,
      // Same numbers (a notes edit): the record keeps its exact span and milliseconds.
      accumulated_ms: unchanged ? r.accumulated_ms : durationMs,
      end_time: unchanged ? r.end_time : body.startTime + durationMs,
    });
  }
  if (body.startTime > who.now)
    throw fieldError('startTime', 'must not be in the future', body.startTime);
  if (durationMs > who.now - body.startTime)
    throw fieldError('durationSeconds', 'must fit between startTime and now', body.durationSeconds);
  return save(db, who, {
    ...r,
    ...common,
    accumulated_ms: durationMs,
    running_since: r.state === 'RUNNING' ? who.now : null,
  });
};

export const deleteTimer = (db: Db, who: TimerWho, trackId: number): void => {
  ownTimer(db, who, trackId);
  db.prepare('DELETE FROM timers WHERE track_id = ?').run(trackId);
};
