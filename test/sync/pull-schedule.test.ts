/**
 * When the engine pulls, over real HTTP: on its interval after a pull that worked; after
 * failures on the backoff, shown as the next attempt; at once when the server answers again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { ApiClient } from '../../sync/api';
import { openEngine } from '../../sync/engine/engine';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { sleep } from './engine-setup';
import { admin, demoClient, startDemoServer, tempDir } from './support';

let opened: { server: RunningServer; client: ApiClient; engine: SyncEngine } | undefined;
afterEach(async () => {
  await opened?.engine.close();
  await opened?.client.close();
  await opened?.server.close();
  opened = undefined;
});

const startEngine = async (pullIntervalMs: number) => {
  const server = await startDemoServer();
  const client = await demoClient(server);
  const engine = openEngine({
    dataDir: tempDir('pull-schedule-'),
    client,
    userId: client.session.user?.userId ?? 0,
    pullIntervalMs,
    backoff: { baseMs: 40, capMs: 2_000 },
  });
  opened = { server, client, engine };
  return opened;
};

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
    engine.start();
    await engine.syncNow();
    const first = engine.status().lastSyncAt ?? 0;
    expect(first).toBeGreaterThan(0);
    await waitFor(() => (engine.status().lastSyncAt ?? 0) > first);
    // Not before the interval: the second pull came at least 200 ms after the first.
    expect((engine.status().lastSyncAt ?? 0) - first).toBeGreaterThanOrEqual(190);
  });

  it('backs off after failed pulls, shows the next attempt, and syncs once the server answers', async () => {
    const { server, engine } = await startEngine(3_600_000);
    engine.start();
    await engine.syncNow();
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
