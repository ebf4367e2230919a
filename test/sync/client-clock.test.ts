/**
 * The engine on a machine whose clock is wrong and moves (issue 23), through the reference
 * server over HTTP: this machine's clock is skewed and steps back or forward mid-queue (an NTP
 * correction), or jumps forward with the server's (a sleep). Nothing queued waits for the
 * clock to catch up, and "later" stays the server's order.
 */
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { engineSetup, faults, sleep } from './engine-setup';

const open = engineSetup();

/**
 * The demo server and an engine through its first fill, on a clock `offsetMs` off the real
 * one that the test moves (`clock.offsetMs`): session, API client and engine share it, as the
 * app's share the machine's.
 */
const setUp = async (offsetMs: number) => {
  const clock = { offsetMs };
  const opened = await open(0, [], { now: () => Date.now() + clock.offsetMs });
  return { ...opened, clock };
};

/** Syncs for at most `ms` of real time until nothing is pending: whether it emptied. */
const drains = async (e: SyncEngine, ms: number): Promise<boolean> => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await e.syncNow();
    if (e.status().pending === 0) return true;
    await sleep(20);
  }
  return false;
};

const firstTaskId = (e: SyncEngine): number =>
  e.replica.db.prepare('SELECT min(task_id) FROM tasks WHERE task_id > 0').pluck().get() as number;

const serverTitle = (s: RunningServer, taskId: number) =>
  s.deps.db.prepare('SELECT title FROM tasks WHERE task_id = ?').pluck().get(taskId);

describe('a clock that steps back mid-queue', () => {
  it('an edit queued just before the step goes at once, not when the clock catches up', async () => {
    const { server, engine, clock } = await setUp(0);
    const taskId = firstTaskId(engine);
    engine.edit({ kind: 'task.update', taskId, patch: { taskTitle: 'before the step' } });
    // Corrected by five minutes before the edit went out.
    clock.offsetMs -= 5 * 60_000;
    expect(await drains(engine, 3_000)).toBe(true);
    expect(serverTitle(server, taskId)).toBe('before the step');
  });

  it('a retry scheduled before the step is due at once, not when the clock catches up', async () => {
    const { server, engine, clock } = await setUp(0);
    const taskId = firstTaskId(engine);
    await faults(server, { rules: [{ kind: '5xx', method: 'PUT', count: 1 }] });
    engine.edit({ kind: 'task.update', taskId, patch: { taskTitle: 'after a 503' } });
    // The 503 came back: the edit waits for its retry (20-100 ms on this engine's backoff).
    for (let i = 0; i < 100 && engine.status().nextRetryAt === null; i++) await sleep(5);
    expect(engine.status().nextRetryAt).not.toBeNull();
    clock.offsetMs -= 5 * 60_000;
    expect(engine.status().nextRetryAt ?? 0).toBeLessThanOrEqual(Date.now() + clock.offsetMs + 100);
    expect(await drains(engine, 3_000)).toBe(true);
    expect(serverTitle(server, taskId)).toBe('after a 503');
  });
});
