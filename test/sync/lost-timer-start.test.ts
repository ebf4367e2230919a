/**
 * A timer start whose answer was lost, on a service that ignores Idempotency-Key (the reference
 * server's quirk): the server started the timer, and the start must adopt it, never start a
 * second one or fail on "already has a running timer", so that the pause, resume and stop
 * queued behind it reach that timer. Checked on the server's store: the task's timers, the
 * user's active ones, and the id the replica took.
 */
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { engineSetup, faults, serverIdOf, sleep, taskWithItem } from './engine-setup';
import { demoClient } from './support';

const setUp = engineSetup();
/**
 * Retries due at once (and a Retry-After of 0): a row's next attempt follows its failure within
 * the same push, as a busy engine's does, before any pull's own look for lost creates.
 */
const quirky = (backoffMs = 20) =>
  setUp(0, ['ignore-idempotency-key'], { backoff: { baseMs: backoffMs, capMs: backoffMs * 5 } });

const serverTimers = (s: RunningServer, taskId: number) =>
  s.deps.db
    .prepare(
      'SELECT track_id AS trackId, state, start_time AS startTime FROM timers WHERE task_id = ? ORDER BY track_id',
    )
    .all(taskId) as { trackId: number; state: string; startTime: number }[];

/** The user's running or paused timers on the server, on any task. */
const activeOnServer = (s: RunningServer) =>
  s.deps.db
    .prepare("SELECT track_id AS trackId FROM timers WHERE state <> 'STOPPED' AND user_id = 1")
    .pluck()
    .all() as number[];

/** Syncs until nothing is pending or 150 rounds went by; what is left is for the test to judge. */
const drive = async (e: SyncEngine) => {
  for (let i = 0; i < 150 && e.status().pending > 0; i++) {
    await e.syncNow();
    if (e.status().pending > 0) await sleep(30);
  }
};

/** The start's answer is lost after the server started the timer (half a body, status 200). */
const loseStartAnswer = { kind: 'malformed', method: 'POST', pathPrefix: '/v1/time-track/' };
/** The look for the lost start (the task's timers) is rate-limited once. */
const limitLookup = (retryAfterSec: number) => ({
  kind: '429',
  method: 'GET',
  pathPrefix: '/v1/time-track/tasks/',
  retryAfterSec,
});

/** Start, pause, resume, stop, queued together behind the start (before its first push). */
const session = (e: SyncEngine, taskId: number) => {
  const timer = e.edit({ kind: 'timer.start', taskId });
  e.edit({ kind: 'timer.pause', trackId: timer.id });
  e.edit({ kind: 'timer.resume', trackId: timer.id });
  e.edit({ kind: 'timer.stop', trackId: timer.id });
  return timer.id;
};

const expectLanded = (s: RunningServer, e: SyncEngine, taskId: number, localId: number) => {
  expect(e.status().failed).toEqual([]);
  expect(e.status().pendingByKind).toEqual({});
  const timers = serverTimers(s, taskId);
  // One timer, the one the server started for the first attempt, stopped by the queued stop.
  expect(timers.map((t) => t.state)).toEqual(['STOPPED']);
  expect(serverIdOf(e, 'timer', localId)).toBe(timers[0]?.trackId);
  expect(activeOnServer(s)).toEqual([]);
};

describe('a timer start whose answer was lost adopts the timer the server started', () => {
  it('its look for the timer rate-limited: the next attempt looks again instead of starting twice', async () => {
    const { server: s, engine: e } = await quirky(0);
    const { taskId } = await taskWithItem(e, 'timed, answer lost');
    await faults(s, { rules: [loseStartAnswer, limitLookup(0)] });
    const local = session(e, taskId);
    // The engine's own push alone: its attempts follow each other without a pull between.
    for (let i = 0; i < 300 && e.status().pendingByKind['timer.start'] !== undefined; i++)
      await sleep(10);
    await drive(e);
    expect(s.deps.faults.state().hits['429 GET']).toBe(1);
    expectLanded(s, e, taskId, local);
  });

  it('a start refused as "already running" after an attempt whose look was rate-limited is looked up, not failed', async () => {
    const { server: s, engine: e } = await quirky(0);
    const { taskId } = await taskWithItem(e, 'timed, refused');
    await faults(s, { rules: [loseStartAnswer, limitLookup(30)] });
    const local = session(e, taskId);
    for (let i = 0; i < 300 && !s.deps.faults.state().hits['429 GET']; i++) await sleep(10);
    await sleep(50);
    // The row as a build that forgot an earlier attempt left it (the last error a 429, nothing
    // saying the start may be at the server), due now: the resend meets the started timer.
    const db = e.replica.db;
    const forgot = db
      .prepare(
        `UPDATE outbox SET next_attempt_at = 0,
           last_error = json_remove(last_error, '$.beforeSend')
         WHERE kind = 'timer.start' AND state = 'pending' AND json_extract(last_error, '$.status') = 429`,
      )
      .run().changes;
    expect(forgot).toBe(1);
    await drive(e);
    expectLanded(s, e, taskId, local);
  });

  it('does not adopt the timer the user started elsewhere: the refusal stands', async () => {
    const { server: s, engine: e } = await quirky(3_000);
    const { taskId } = await taskWithItem(e, 'timed elsewhere');
    // The first attempt never reaches the handler; before the next, due seconds later, another
    // device of the user starts a timer on the same task.
    await faults(s, { rules: [{ kind: 'reset', method: 'POST', count: 1 }] });
    const local = e.edit({ kind: 'timer.start', taskId });
    for (let i = 0; i < 300 && !s.deps.faults.state().hits['reset POST']; i++) await sleep(10);
    const other = await demoClient(s);
    const theirs = await other.ops.startTimer({ path: { taskId }, body: {} });
    await other.close();
    await faults(s, { clear: true });
    await drive(e);
    const failed = e.status().failed;
    expect(failed.map((f) => f.kind)).toEqual(['timer.start']);
    expect(failed[0]?.error?.message).toMatch(/already has a running or paused timer/);
    expect(serverTimers(s, taskId).map((t) => t.trackId)).toEqual([theirs.trackId]);
    expect(
      e.replica.db
        .prepare("SELECT server_id FROM local_ids WHERE entity_kind = 'timer' AND local_id = ?")
        .get(local.id),
    ).toBeUndefined();
  });
});

describe('a task create whose look for its lost answer was rate-limited', () => {
  it('looks again on the next attempt: one task on the server, no twin', async () => {
    const { server: s, engine: e } = await quirky(0);
    await faults(s, {
      rules: [
        { kind: 'drop', method: 'POST', pathPrefix: '/v1/tasks', count: 1 },
        { kind: '429', method: 'GET', pathPrefix: '/v1/bulk/tasks', count: 1, retryAfterSec: 0 },
      ],
    });
    const mine = e.edit({ kind: 'task.create', fields: { taskTitle: 'Once only' } });
    for (let i = 0; i < 300 && e.status().pending > 0; i++) await sleep(10);
    await drive(e);
    expect(s.deps.faults.state().hits['429 GET']).toBe(1);
    const ids = s.deps.db
      .prepare("SELECT task_id FROM tasks WHERE title = 'Once only' AND deleted = 0")
      .pluck()
      .all() as number[];
    expect(ids).toEqual([serverIdOf(e, 'task', mine.id)]);
    expect(e.status().failed).toEqual([]);
    expect(e.status().notices).toEqual([]);
  });
});
