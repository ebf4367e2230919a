/**
 * When the engine pulls, over real HTTP: on its interval after a pull that worked; after
 * failures on the backoff, shown as the next attempt; at once when the server answers again.
 */
import { describe, expect, it } from 'vitest';
import { engineSetup, sleep } from './engine-setup';
import { admin } from './support';

const setUp = engineSetup();
const startEngine = (pullIntervalMs: number) =>
  setUp(0, [], { pullIntervalMs, backoff: { baseMs: 40, capMs: 2_000 } });

const waitFor = async (check: () => boolean, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await sleep(10);
  }
};

describe('the pull schedule', () => {
  it('pulls again on its interval after a pull that worked', async () => {
    const { engine } = await startEngine(200);
    const first = engine.status().lastSyncAt ?? 0;
    expect(first).toBeGreaterThan(0);
    await waitFor(() => (engine.status().lastSyncAt ?? 0) > first);
    // Not before the interval: the second pull came at least 200 ms after the first.
    expect((engine.status().lastSyncAt ?? 0) - first).toBeGreaterThanOrEqual(190);
  });

  it('backs off after failed pulls, shows the next attempt, and syncs once the server answers', async () => {
    const { server, engine } = await startEngine(3_600_000);
    await admin(server, 'faults', { rules: [{ kind: '5xx', method: 'GET', count: 4 }] });
    const failedAt = Date.now();
    await engine.syncNow();
    const next = engine.status().nextRetryAt;
    expect(next).not.toBeNull();
    // Not the hour-long interval: the first retry is due within the backoff's first step.
    expect((next ?? 0) - failedAt).toBeLessThan(1_000);
    const syncedBefore = engine.status().lastSyncAt ?? 0;
    await waitFor(() => (engine.status().lastSyncAt ?? 0) > syncedBefore);
    expect(server.deps.faults.state().hits['5xx GET']).toBe(4);
    expect(engine.status().nextRetryAt).toBeNull();
    expect(engine.status().lastError).toBeNull();
    // Four waits of at least 20, 40, 80 and 160 ms (doubling, jitter in each step's upper
    // half): a backoff that did not double would be done in 160.
    expect(Date.now() - failedAt).toBeGreaterThanOrEqual(300);
  });
});
