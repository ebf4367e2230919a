import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Replica } from '../../sync/db/replica';
import type { PullProgress, PullResult } from '../../sync/engine/progress';
import { Puller, pullAll } from '../../sync/engine/pull';
import { PullScheduler } from '../../sync/engine/scheduler';
import { demoServerForFile } from './demo-fixture';
import { admin, tempDir } from './support';

const env = demoServerForFile();
const dir = tempDir();

const waitFor = async (check: () => boolean, ms = 5_000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('pull scheduling', () => {
  it('pulls at start, then on the interval, and on demand', async () => {
    const replica = Replica.openFile(join(dir, 'a.sqlite'));
    const results: PullResult[] = [];
    const scheduler = new PullScheduler(new Puller(replica, env.client), {
      intervalMs: 100,
      onResult: (r) => results.push(r),
    });
    scheduler.start();
    await waitFor(() => results.length >= 3);
    expect(results[0]?.streams.find((s) => s.stream === 'tasks')?.mode).toBe('bootstrap');
    expect(results[1]?.streams.find((s) => s.stream === 'tasks')?.mode).toBe('delta');
    const onDemand = await scheduler.pullNow();
    expect(onDemand.streams).toHaveLength(5);
    scheduler.stop();
    expect(scheduler.nextAttemptAt).toBeNull();
    replica.close();
  });

  it('backs off after failures with a visible next attempt, and pulls at once on reconnect', async () => {
    const replica = Replica.openFile(join(dir, 'b.sqlite'));
    const errors: number[] = [];
    const results: PullResult[] = [];
    await admin(env.server, 'faults', {
      rules: [{ kind: '5xx', pathPrefix: '/v1/spaces', count: 3 }],
    });
    const scheduler = new PullScheduler(new Puller(replica, env.client), {
      intervalMs: 60_000,
      retryBaseMs: 40,
      random: () => 1,
      onError: (_e, next) => errors.push(next),
      onResult: (r) => results.push(r),
    });
    const started = Date.now();
    scheduler.start();
    await waitFor(() => errors.length >= 2);
    // 40 ms, then 80 ms: the delays double.
    const second = (errors[1] ?? 0) - started;
    expect(second).toBeGreaterThanOrEqual(40 + 80);
    scheduler.reconnected();
    await waitFor(() => results.length >= 1);
    expect((scheduler.nextAttemptAt ?? 0) - Date.now()).toBeGreaterThan(50_000);
    scheduler.stop();
    replica.close();
  });

  it('reports bytes received in its progress', async () => {
    const replica = Replica.openFile(join(dir, 'c.sqlite'));
    const progress: PullProgress[] = [];
    await pullAll(replica, env.client, { onProgress: (p) => progress.push(p) });
    const bytes = progress.map((p) => p.bytes);
    expect(bytes.at(-1)).toBeGreaterThan(10_000);
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
    replica.close();
  });
});
