/**
 * Time tracking: start, pause, resume, stop, a range, manual time, update, delete. timers.ts
 * keeps what the user saw of a timer; the rows carry when the user pressed.
 */
import type { BillingStatus, TimerRecord } from '../../../shared/api';
import type { EditOf, EditResult } from '../../../shared/edits/commands';
import { entityExists } from '../../db/entity-rows';
import { stmt } from '../../db/kysely';
import type { Sqlite } from '../../db/open';
import { writeTimer } from '../../db/queries/activity-write';
import {
  canonicalKey,
  type EntityKind,
  type JsonObject,
  mutationsOfEntity,
  type QueuedMutation,
} from '../../outbox';
import { currentId, notInReplica, type TaskPlace, taskPlace } from '../state';
import * as timers from '../timers';
import { asObject, numOrNull } from './json';
import type { EditContext, EditTx, Effect, EffectRow, EntityModule } from './types';

/** The object without its undefined fields (optional request fields left out). */
const defined = (o: Record<string, unknown>): JsonObject => {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v as never;
  return out;
};

/** The operation that adds time to a task, personal or in a project. */
const timerCreateOp = (
  db: Sqlite,
  taskId: number,
  personal: string,
  project: string,
): { place: TaskPlace; operationId: string; path: Record<string, number> } => {
  const place = taskPlace(db, taskId);
  return place.projectId === null
    ? { place, operationId: personal, path: { taskId } }
    : { place, operationId: project, path: { projectId: place.projectId, taskId } };
};

const newTimer = (
  tx: EditTx,
  kind: 'timer.start' | 'timer.range' | 'timer.manual',
  op: { operationId: string; path: Record<string, number> },
  body: JsonObject,
  truth: timers.TimerTruthRecord,
): EditResult =>
  tx.created({
    kind,
    entity: 'timer',
    operationId: op.operationId,
    path: op.path,
    body,
    before: (id) => timers.writeTruth(tx.db, id, truth),
  });

/** The record of time added stopped (a range, manual time): it ran `ms` from `startTime`. */
const stoppedTruth = (
  ctx: EditContext,
  place: TaskPlace,
  startTime: number,
  ms: number,
  billingStatus: timers.TimerTruthRecord['billingStatus'],
  notes: string | null,
): timers.TimerTruthRecord => ({
  userId: ctx.userId,
  taskId: place.taskId,
  projectId: place.projectId,
  state: 'STOPPED',
  startTime,
  accumulatedMs: ms,
  runningSince: null,
  endTime: startTime + ms,
  billingStatus,
  notes,
});

/**
 * A timer as the user knows it: its record while this machine moved it, unless the server's
 * copy says it was moved elsewhere since (another state, nothing of it queued here).
 */
const knownTimer = (db: Sqlite, trackId: number, now: number) => {
  const id = currentId(db, 'timer', trackId);
  const kept = timers.readTruth(db, id);
  const server = timers.truthOfRow(db, id, now);
  const movedElsewhere =
    kept !== null &&
    server !== null &&
    kept.state !== server.state &&
    mutationsOfEntity(db, canonicalKey(db, 'timer', id)).length === 0;
  const truth = movedElsewhere ? server : (kept ?? server);
  if (!truth) throw notInReplica(`timer ${trackId}`);
  return { id, truth };
};

const moveOps = {
  'timer.pause': 'pauseTimer',
  'timer.resume': 'resumeTimer',
  'timer.stop': 'stopTimer',
} as const;

/**
 * Pause, resume, stop. The requests carry no time the server would honour (a stop replayed
 * late must not end before the server's resume); the time the user pressed is kept in the
 * row's body as `at` (the API client sends only the schema's fields) and in the record.
 */
const moveTimer = (
  tx: EditTx,
  c: EditOf<'timer.pause' | 'timer.resume' | 'timer.stop'>,
): EditResult => {
  const { db, ctx } = tx;
  const { id, truth } = knownTimer(db, c.trackId, ctx.now);
  // A running part closed across jumps of the clock not told apart yet from sleeps.
  const since = truth.state === 'RUNNING' ? truth.runningSince : null;
  const across = since === null ? [] : (ctx.clockUnsure ?? []).filter((b) => b >= since);
  const crossing = across.length > 0;
  const moved =
    c.kind === 'timer.pause'
      ? timers.pause(truth, ctx.now, crossing)
      : c.kind === 'timer.resume'
        ? timers.resume(truth, ctx.now)
        : timers.stop(truth, ctx.now, ctx.serverOffsetMs, crossing);
  const next = crossing
    ? { ...moved, acrossJumps: [...new Set([...(moved.acrossJumps ?? []), ...across])] }
    : moved;
  const operationId = moveOps[c.kind];
  const body = { ...tx.checkBody(operationId, {}), at: ctx.now };
  timers.writeTruth(db, id, next);
  return tx.existing({
    kind: c.kind,
    entity: 'timer',
    id,
    operationId,
    path: { trackId: id },
    body,
  });
};

/** The timers a delete takes with it: a task's (and its subtasks'), a project's, a space's. */
const holderWhere: Partial<Record<EntityKind, string>> = {
  task: '(k.task_id = @id OR k.parent_task_id = @id)',
  project: '(k.project_id = @id OR p.project_id = @id)',
  space: '(k.space_id = @id OR p.space_id = @id)',
};

/**
 * Deleting a task, a project or a space deletes the timers of its tasks on the server: the
 * user's running one there is stopped first, as the next start would stop it. In the outbox
 * the stop goes before the delete and the next start after the stop; without it a start could
 * reach the server while the timer still ran there (refused: one running timer per user).
 */
const stopTimerUnder = (tx: EditTx, holder: { entity: EntityKind; id: number }): void => {
  const where = holderWhere[holder.entity];
  if (where === undefined) return;
  const { db, ctx } = tx;
  const active = timers.activeTimerId(db, ctx.userId);
  if (active === null) return;
  const { id } = holder;
  const on = stmt(
    db,
    `SELECT 1 FROM timers t JOIN tasks k ON k.task_id = t.task_id
     LEFT JOIN tasks p ON p.task_id = k.parent_task_id
     WHERE t.track_id = @active AND ${where}`,
  ).get({ active, id });
  if (on !== undefined) moveTimer(tx, { kind: 'timer.stop', trackId: active });
};

/** One running or paused timer per user (the server refuses a second): stop the one running. */
const startTimer = (tx: EditTx, c: EditOf<'timer.start'>): EditResult => {
  const { db, ctx } = tx;
  const op = timerCreateOp(db, c.taskId, 'startTimer', 'startProjectTaskTimer');
  const active = timers.activeTimerId(db, ctx.userId);
  if (active !== null) moveTimer(tx, { kind: 'timer.stop', trackId: active });
  // The start in the server's clock; its running time counts on this machine's.
  const startTime = ctx.now + Math.round(ctx.serverOffsetMs ?? 0);
  const body = tx.checkBody(
    op.operationId,
    defined({ notes: c.notes, billingStatus: c.billingStatus, startTime }),
  );
  return newTimer(tx, 'timer.start', op, body, {
    userId: ctx.userId,
    taskId: op.place.taskId,
    projectId: op.place.projectId,
    state: 'RUNNING',
    startTime,
    accumulatedMs: 0,
    runningSince: ctx.now,
    endTime: null,
    billingStatus: c.billingStatus ?? 'BILLABLE',
    notes: c.notes ?? null,
  });
};

const addTimeRange = (tx: EditTx, c: EditOf<'timer.range'>): EditResult => {
  const op = timerCreateOp(tx.db, c.taskId, 'addNewTimeRange', 'addRangeTimerForProjectTask');
  const body = tx.checkBody(op.operationId, { startTime: c.startTime, endTime: c.endTime });
  return newTimer(
    tx,
    'timer.range',
    op,
    body,
    stoppedTruth(tx.ctx, op.place, c.startTime, c.endTime - c.startTime, 'BILLABLE', null),
  );
};

const addManualTime = (tx: EditTx, c: EditOf<'timer.manual'>): EditResult => {
  const op = timerCreateOp(tx.db, c.taskId, 'addNewManualTime', 'addNewManualTimeForTask');
  const billingStatus = c.billingStatus ?? 'BILLABLE';
  const body = tx.checkBody(
    op.operationId,
    defined({
      hours: c.hours,
      minutes: c.minutes,
      startTime: c.startTime,
      billingStatus,
      notes: c.notes,
    }),
  );
  const ms = (c.hours * 60 + c.minutes) * 60_000;
  return newTimer(
    tx,
    'timer.manual',
    op,
    body,
    stoppedTruth(tx.ctx, op.place, c.startTime, ms, billingStatus, c.notes ?? null),
  );
};

const updateTimer = (tx: EditTx, c: EditOf<'timer.update'>): EditResult => {
  const { db, ctx } = tx;
  const { id, truth } = knownTimer(db, c.trackId, ctx.now);
  const body = tx.checkBody('updateTimer', {
    billingStatus: truth.billingStatus,
    notes: truth.notes,
    startTime: truth.startTime,
    durationSeconds: timers.wholeSeconds(timers.runningMs(truth, ctx.now)),
    ...c.patch,
  });
  timers.writeTruth(
    db,
    id,
    timers.update(truth, body as Parameters<typeof timers.update>[1], ctx.now),
  );
  const path = { trackId: id };
  return tx.existing({
    kind: 'timer.update',
    entity: 'timer',
    id,
    operationId: 'updateTimer',
    path,
    body,
  });
};

const deleteTimer = (tx: EditTx, c: EditOf<'timer.delete'>): EditResult => {
  const { id } = knownTimer(tx.db, c.trackId, tx.ctx.now);
  const r = tx.existing({
    kind: 'timer.delete',
    entity: 'timer',
    id,
    operationId: 'deleteTimeTracker',
    path: { trackId: id },
    deep: true,
  });
  timers.forgetTimerTruth(tx.db, id);
  return r;
};

/**
 * Folds a timer row into the record of what the user saw: moves at the time stored in their
 * body (`at`), an update with its body at the row's time.
 */
const foldTimerRow = (
  t: timers.TimerTruthRecord,
  row: Pick<EffectRow, 'kind' | 'body'> & { updatedAt: number },
): timers.TimerTruthRecord => {
  const body = asObject(row.body);
  const at = numOrNull(body.at) ?? row.updatedAt;
  switch (row.kind) {
    case 'timer.pause':
      return timers.pause(t, at);
    case 'timer.resume':
      return timers.resume(t, at);
    case 'timer.stop':
      return timers.stop(t, at);
    case 'timer.update':
      return timers.update(
        t,
        {
          billingStatus: (body.billingStatus as BillingStatus | undefined) ?? t.billingStatus,
          notes: typeof body.notes === 'string' ? body.notes : null,
          startTime: numOrNull(body.startTime) ?? t.startTime,
          durationSeconds: numOrNull(body.durationSeconds) ?? timers.wholeSeconds(t.accumulatedMs),
        },
        at,
      );
    default:
      return t;
  }
};

/**
 * A timer's record after a rollback: its restored row with the edits still queued folded in
 * (their times are in their bodies), or none when nothing is queued any more.
 */
const recomputeTruth = (
  db: Sqlite,
  trackId: number,
  rest: readonly QueuedMutation[],
  now: number,
) => {
  timers.forgetTimerTruth(db, trackId);
  if (rest.length === 0) return;
  let t = timers.truthOfRow(db, trackId, now);
  if (!t) return;
  for (const r of rest) {
    try {
      t = foldTimerRow(t, r);
    } catch {
      // A move the restored state does not allow: its request will be refused in turn.
    }
  }
  timers.writeTruth(db, trackId, t);
};

const deleteRow = (db: Sqlite, id: number) => {
  stmt(db, 'DELETE FROM timers WHERE track_id = ?').run(id);
};

/** Every timer row shows the record of what the user saw (timers.ts), whatever its kind. */
const showTruth: Effect = (db, { id, now }) => {
  const t = timers.readTruth(db, id);
  if (!t) return false;
  // Its task is gone (deleted here or on the server, which deletes its timers with it): no
  // row, or the next start would stop a timer the server no longer has.
  if (!entityExists(db, 'task', currentId(db, 'task', t.taskId))) {
    deleteRow(db, id);
    return false;
  }
  timers.writeTimerRow(db, id, t, now);
  return true;
};

export const timer: EntityModule<'timer'> = {
  kinds: {
    'timer.start': { apply: startTimer, effect: showTruth },
    'timer.range': { apply: addTimeRange, effect: showTruth },
    'timer.manual': { apply: addManualTime, effect: showTruth },
    'timer.pause': { apply: moveTimer, effect: showTruth },
    'timer.resume': { apply: moveTimer, effect: showTruth },
    'timer.stop': { apply: moveTimer, effect: showTruth },
    'timer.update': { apply: updateTimer, effect: showTruth },
    'timer.delete': {
      apply: deleteTimer,
      effect: (db, { id }) => {
        deleteRow(db, id);
        return true;
      },
    },
  },
  answer: {
    idField: 'trackId',
    write: (db, item, _path, now) => writeTimer(db, item as TimerRecord, now),
  },
  remove: deleteRow,
  // Deleting a task, a project or a space deletes the timers of its tasks on the server.
  beforeDelete: stopTimerUnder,
  rolledBack: recomputeTruth,
  // Pulls bring the active timers only; the record of what the user saw decides what is sent
  // (an update is never merged), and a timer counts on no task.
  traits: { listedPartly: true, unmerged: true, uncounted: true },
};
