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
