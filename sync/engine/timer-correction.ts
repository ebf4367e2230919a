/**
 * Timers stay true: pause, resume and stop carry no time, so a timer moved offline ends on the
 * server with the server's clock. Once the last queued move of a timer is answered, the answer
 * is compared with what the user saw (the edit layer's timer truth) and, when the start time
 * or the whole seconds differ, an `updateTimer` with the user's numbers is queued: an outbox
 * row like any other, so it survives crashes and goes exactly once.
 */
import type { TimerRecord } from '../../shared/api';
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { forgetTimerTruth, timerTruth } from '../edits/timers';
import { canonicalKey } from '../outbox/local-ids';
import { enqueue } from '../outbox/queue';
import { entityKey, kindSpec, parseEntityKey, type QueuedMutation } from '../outbox/types';

const isTimerRecord = (a: unknown): a is TimerRecord =>
  typeof a === 'object' && a !== null && typeof (a as TimerRecord).trackId === 'number';

/**
 * Whether the user deleted the timer's task: gone from the replica, or its delete (or its
 * project's, its space's: they take it with them) still queued.
 */
const taskGoing = (db: Sqlite, taskId: number): boolean => {
  const task = stmt(db, 'SELECT project_id, space_id FROM tasks WHERE task_id = ?').get(taskId) as
    | { project_id: number | null; space_id: number | null }
    | undefined;
  if (!task) return true;
  const keys = [
    canonicalKey(db, 'task', taskId),
    ...(task.project_id === null ? [] : [canonicalKey(db, 'project', task.project_id)]),
    ...(task.space_id === null ? [] : [canonicalKey(db, 'space', task.space_id)]),
  ];
  return (
    stmt(
      db,
      `SELECT 1 FROM outbox WHERE entity IN (SELECT value FROM json_each(?))
         AND kind IN ('task.delete', 'project.delete', 'space.delete')
         AND state IN ('pending', 'inflight') LIMIT 1`,
    ).get(JSON.stringify(keys)) !== undefined
  );
};

export const queueTimerCorrection = (
  db: Sqlite,
  row: QueuedMutation,
  answer: unknown,
  now: number,
  /**
   * This machine's clock jumped forward and the server has not told a step from a sleep yet
   * (sync/api/server-clock.ts): a running timer's time now may count the jump, so only its
   * start is compared (its next pause or stop is compared in full, the jump told by then).
   */
  clockUnsure = false,
): void => {
  if (kindSpec(row.kind).entity !== 'timer') return;
  // A stop that found its timer gone (deleted with its task): nothing left to correct.
  if (answer === null) forgetTimerTruth(db, parseEntityKey(row.entity).id);
  if (!isTimerRecord(answer)) return;
  const trackId = answer.trackId;
  const key = entityKey('timer', trackId);
  // More moves of this timer are queued: correct after the last one.
  const queued = stmt(db, 'SELECT 1 FROM outbox WHERE entity = ? LIMIT 1').get(key);
  if (queued !== undefined) return;
  // Its task's delete (done here, or queued) takes the timer away: a correction behind it
  // would find none.
  if (taskGoing(db, answer.taskId)) {
    forgetTimerTruth(db, trackId);
    return;
  }
  const truth = timerTruth(db, trackId, now);
  if (!truth) return;
  // A running timer keeps counting on both sides: whole seconds read a moment apart may differ
  // by one (its correction is computed when sent, below).
  const slack = truth.state === 'RUNNING' ? 1 : 0;
  const same =
    truth.startTime === answer.startTime &&
    ((clockUnsure && truth.state === 'RUNNING') ||
      Math.abs(truth.durationSeconds - answer.durationSeconds) <= slack);
  if (same) {
    // A timer still running or paused keeps its record: the server's reading of it is whole
    // seconds at an answer's moment, the user's is to the millisecond since the start, and the
    // next pause or stop folds into the user's.
    if (truth.state === 'STOPPED') forgetTimerTruth(db, trackId);
    return;
  }
  enqueue(
    db,
    {
      kind: 'timer.update',
      operationId: 'updateTimer',
      path: { trackId },
      body: {
        billingStatus: truth.billingStatus,
        notes: truth.notes,
        startTime: truth.startTime,
        durationSeconds: truth.durationSeconds,
      },
    },
    now,
  );
};

/**
 * An `updateTimer` of a running timer sets its running time "as of when it arrives": a
 * duration computed when the row was queued would drop the time it waited in the outbox (or
 * went again after a lost answer). When it is the last queued edit of its timer, its duration
 * is the user's running time now.
 */
export const timerUpdateAtSend = (db: Sqlite, row: QueuedMutation, now: number): QueuedMutation => {
  if (row.kind !== 'timer.update') return row;
  const body = row.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return row;
  const trackId = parseEntityKey(row.entity).id;
  const later = stmt(db, 'SELECT 1 FROM outbox WHERE entity = ? AND mutation_id > ? LIMIT 1').get(
    row.entity,
    row.mutationId,
  );
  const truth = later === undefined ? timerTruth(db, trackId, now) : null;
  if (truth?.state !== 'RUNNING') return row;
  return { ...row, body: { ...body, durationSeconds: truth.durationSeconds } };
};
