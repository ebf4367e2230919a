/**
 * Timers stay true (issue 14, symptoms 4 and 5), through the reference server over HTTP: a
 * move whose answer was lost and that the server already applied is done, not failed, and a
 * timer session lands at once, in the server's time, whatever the skew, with the running time
 * the user saw to the second.
 */
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { engineSetup, faults, settle, sleep, taskWithItem } from './engine-setup';

const setUp = engineSetup();

/** Start, run, pause, wait, resume, run, stop: the running time the user saw, in ms. */
const timerSession = async (e: SyncEngine, taskId: number) => {
  const started = Date.now();
  const timer = e.edit({ kind: 'timer.start', taskId });
  await sleep(1_100);
  const paused = Date.now();
  e.edit({ kind: 'timer.pause', trackId: timer.id });
  await sleep(600);
  const resumed = Date.now();
  e.edit({ kind: 'timer.resume', trackId: timer.id });
  await sleep(1_100);
  const stopped = Date.now();
  e.edit({ kind: 'timer.stop', trackId: timer.id });
  return { started, ranMs: paused - started + (stopped - resumed) };
};

const sleepUntil = (t: number) => sleep(Math.max(0, t - Date.now()));

const serverTask = (s: RunningServer, taskId: number) =>
  s.deps.db.prepare('SELECT deleted FROM tasks WHERE task_id = ?').get(taskId) as
    | { deleted: number }
    | undefined;

const serverTimers = (s: RunningServer, taskId: number) =>
  s.deps.db
    .prepare(
      'SELECT state, start_time AS startTime, accumulated_ms AS ms FROM timers WHERE task_id = ?',
    )
    .all(taskId) as { state: string; startTime: number; ms: number }[];

describe('timers stay true', () => {
  it('a pause whose answer was lost is done, not failed: the session ends as the user saw it', async () => {
    const { server: s, engine: e } = await setUp();
    const { taskId } = await taskWithItem(e, 'timed');
    await faults(s, { rules: [{ kind: 'reset', count: 10_000 }] });
    const { started, ranMs } = await timerSession(e, taskId);
    // Online again; the pause's answer is lost after the server paused the timer.
    await faults(s, {
      clear: true,
      rules: [{ kind: 'drop', method: 'PUT', pathPrefix: '/v1/time-track/', count: 1 }],
    });
    await settle(e);
    const timers = serverTimers(s, taskId);
    expect(timers).toHaveLength(1);
    expect(timers[0]?.state).toBe('STOPPED');
    expect(Math.floor((timers[0]?.ms ?? 0) / 1000)).toBe(Math.floor(ranMs / 1000));
    expect(Math.abs((timers[0]?.startTime ?? 0) - started)).toBeLessThan(250);
  });

  it('lands at once with a server clock 10 minutes behind, in the server’s time', async () => {
    const { server: s, engine: e } = await setUp(-600_000);
    const { taskId } = await taskWithItem(e, 'behind');
    await faults(s, { rules: [{ kind: 'reset', count: 10_000 }] });
    const { started, ranMs } = await timerSession(e, taskId);
    await faults(s, { clear: true });
    const t0 = Date.now();
    await settle(e);
    expect(Date.now() - t0).toBeLessThan(5_000);
    const timers = serverTimers(s, taskId);
    expect(timers).toHaveLength(1);
    expect(timers[0]?.state).toBe('STOPPED');
    expect(Math.floor((timers[0]?.ms ?? 0) / 1000)).toBe(Math.floor(ranMs / 1000));
    expect(Math.abs((timers[0]?.startTime ?? 0) - (started - 600_000))).toBeLessThan(250);
  });
});

/**
 * Billing, then notes, changed while the timer runs, each in the second after a whole one
 * (0.7 s, 1.4 s), stopped at 1.7 s: the user timed one second. An update carries whole seconds
 * of running time, so a change that leaves the time alone must not drop the part after them.
 */
const editWhileRunning = async (e: SyncEngine, taskId: number, online: boolean) => {
  const started = Date.now();
  const timer = e.edit({ kind: 'timer.start', taskId });
  if (online) await settle(e);
  await sleepUntil(started + 700);
  e.edit({ kind: 'timer.update', trackId: timer.id, patch: { billingStatus: 'NON_BILLABLE' } });
  if (online) await settle(e);
  await sleepUntil(started + 1_400);
  e.edit({ kind: 'timer.update', trackId: timer.id, patch: { notes: 'call' } });
  if (online) await settle(e);
  await sleepUntil(started + 1_700);
  const stopped = Date.now();
  e.edit({ kind: 'timer.stop', trackId: timer.id });
  return { started, ranMs: stopped - started };
};

describe('a running timer’s billing and notes changed', () => {
  for (const online of [true, false])
    it(`keeps the running time the user saw (${online ? 'online' : 'offline'})`, async () => {
      const { server: s, engine: e } = await setUp();
      const { taskId } = await taskWithItem(e, `billed ${online ? 'online' : 'offline'}`);
      if (!online) await faults(s, { rules: [{ kind: 'reset', count: 10_000 }] });
      const { started, ranMs } = await editWhileRunning(e, taskId, online);
      await faults(s, { clear: true });
      await settle(e);
      const timers = serverTimers(s, taskId);
      expect(timers).toHaveLength(1);
      expect(timers[0]?.state).toBe('STOPPED');
      expect(ranMs).toBeGreaterThanOrEqual(1_000);
      expect(Math.floor((timers[0]?.ms ?? 0) / 1000)).toBe(Math.floor(ranMs / 1000));
      expect(Math.abs((timers[0]?.startTime ?? 0) - started)).toBeLessThan(250);
    });
});

describe('a task deleted with its timer', () => {
  it('sends the timer’s queued moves before the delete, and starts the next timer cleanly', async () => {
    const { server: s, engine: e } = await setUp();
    const { taskId } = await taskWithItem(e, 'doomed');
    const other = await taskWithItem(e, 'next');
    const timer = e.edit({ kind: 'timer.start', taskId });
    await settle(e);
    // Offline, the user pauses the timer and deletes its task; back online, the pause is held
    // at the server (committed, unanswered) while the delete is ready to go.
    await faults(s, { rules: [{ kind: 'reset', count: 10_000 }] });
    e.edit({ kind: 'timer.pause', trackId: timer.id });
    e.edit({ kind: 'task.delete', taskId });
    await faults(s, {
      clear: true,
      rules: [{ kind: 'hold', method: 'PUT', pathPrefix: '/v1/time-track/', count: 1 }],
    });
    for (let i = 0; i < 200 && s.deps.faults.state().held === 0; i++) await sleep(10);
    await sleep(300);
    // The delete would take the timer with it: it waits for the pause's answer.
    expect(serverTask(s, taskId)?.deleted).toBe(0);
    await faults(s, { release: true });
    await settle(e);
    expect(serverTask(s, taskId)?.deleted).toBe(1);
    // No timer of the deleted task is left to stop: the next start stops nothing.
    e.edit({ kind: 'timer.start', taskId: other.taskId });
    await settle(e);
    expect(serverTimers(s, other.taskId).map((t) => t.state)).toEqual(['RUNNING']);
  });
});

describe('a stop whose answer was lost, its task deleted after it', () => {
  it('is found done on the server, though the replica no longer has the timer', async () => {
    const { server: s, engine: e } = await setUp();
    const { taskId } = await taskWithItem(e, 'stopped then deleted');
    const timer = e.edit({ kind: 'timer.start', taskId });
    await settle(e);
    await faults(s, { rules: [{ kind: 'reset', count: 10_000 }] });
    e.edit({ kind: 'timer.stop', trackId: timer.id });
    e.edit({ kind: 'task.delete', taskId });
    await faults(s, {
      clear: true,
      rules: [{ kind: 'drop', method: 'PUT', pathPrefix: '/v1/time-track/', count: 1 }],
    });
    await settle(e);
    expect(serverTask(s, taskId)?.deleted).toBe(1);
  });
});

describe('a task deleted while its timer runs', () => {
  it('stops the timer first: the next start never meets it still running on the server', async () => {
    const { server: s, engine: e } = await setUp();
    const { taskId } = await taskWithItem(e, 'deleted while timing');
    const next = await taskWithItem(e, 'timed next');
    e.edit({ kind: 'timer.start', taskId });
    await settle(e);
    await faults(s, { rules: [{ kind: 'reset', count: 10_000 }] });
    e.edit({ kind: 'task.delete', taskId });
    e.edit({ kind: 'timer.start', taskId: next.taskId });
    // Back online the delete is slow to land (refused twice): the next start may arrive first.
    await faults(s, {
      clear: true,
      rules: [{ kind: '5xx', method: 'DELETE', count: 2 }],
    });
    await settle(e);
    expect(serverTask(s, taskId)?.deleted).toBe(1);
    expect(serverTimers(s, next.taskId).map((t) => t.state)).toEqual(['RUNNING']);
  });
});

describe('a timer started and its task deleted, all offline', () => {
  it('queues no correction for a timer its task’s delete takes away: nothing fails', async () => {
    const { server: s, engine: e } = await setUp();
    const { taskId } = await taskWithItem(e, 'started and deleted');
    await faults(s, { rules: [{ kind: 'reset', count: 10_000 }] });
    e.edit({ kind: 'timer.start', taskId });
    await sleep(1_100);
    // The delete stops the timer first. A stop carries no time: the server stops it when the
    // stop arrives, seconds later; its answer differs from what the user saw, and a
    // correction would follow, behind the delete.
    e.edit({ kind: 'task.delete', taskId });
    await sleep(2_100);
    await faults(s, { clear: true });
    await settle(e);
    expect(serverTask(s, taskId)?.deleted).toBe(1);
  });
});
