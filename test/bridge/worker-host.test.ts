import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost } from '../../main/host/host';
import { startWorkerHost, type WorkerHost } from '../../main/host/worker-host';
import { memoryTokenVault } from '../../main/services/token-vault';
import { openEngine } from '../../sync/engine/engine';
import { tempDir } from '../sync/support';
import { eventually } from './support';

// The engine runs in the host worker: a first fill of 20,000 tasks happens there while this
// thread (the one that serves the window and the tray) stays mostly idle. The
// server runs in a child process so that its work is not counted against this thread either.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TASKS = 20_000;

describe('the host worker', () => {
  let server: ChildProcess;
  let serverUrl = '';
  let host: WorkerHost | null = null;
  const dataDir = tempDir('wt-worker-');

  beforeAll(async () => {
    server = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/cli.ts', '--seed', `bench:${TASKS}`, '--port', '0'],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    server.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    serverUrl = await eventually(() => /listening on (\S+)/.exec(out)?.[1], 60_000);
  }, 90_000);
  afterAll(async () => {
    await host?.close();
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The first test's figure, which the second compares with (its usual value if it did not run). */
  let workerBusy = 0.1;

  it(`bootstraps ${TASKS} tasks without holding up this thread`, { timeout: 180_000 }, async () => {
    host = await startWorkerHost(
      { dataDir, serverUrl, demoDefault: false, pullIntervalMs: 600_000 },
      { vault: memoryTokenVault(), log: () => {} },
    );
    const h = host;
    const heard: string[] = [];
    h.subscribe((event) => heard.push(event));

    // The longest gap between ticks of a 10 ms timer on this thread while the worker fills.
    let longest = 0;
    let last = performance.now();
    const tick = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 10);
    const started = performance.now();
    const elu = performance.eventLoopUtilization();
    const signedIn = await h.call('session.signIn', {
      serverUrl,
      email: 'demo@example.com',
      password: 'demo1234',
    });
    expect(signedIn.ok).toBe(true);
    const synced = await h.call('sync.now', {});
    const fillMs = performance.now() - started;
    const busy = performance.eventLoopUtilization(elu).utilization;
    clearInterval(tick);

    expect(synced).toMatchObject({ ok: true, value: { bootstrap: null, lastError: null } });
    const all = await h.call('tasks.statusCounts', { scope: { kind: 'my' } });
    expect(all.ok).toBe(true);
    const progress = heard.filter((e) => e === 'pull.progress').length;
    expect(progress).toBeGreaterThan(10);
    console.log(
      `worker bootstrap of ${TASKS} tasks: ${Math.round(fillMs)} ms; this thread busy ${(busy * 100).toFixed(1)}% of it, longest timer slip ${Math.round(longest)} ms`,
    );
    // This thread only relays calls and events: it is idle most of the fill. (Timer slips are
    // also reported, but on a loaded machine they measure the scheduler as much as this thread.)
    expect(fillMs).toBeGreaterThan(1_000);
    expect(busy).toBeLessThan(0.25);
    expect(longest).toBeLessThan(1_000);
    workerBusy = busy;
  });

  it('the same fill on this thread keeps it busy (what the worker spares it)', {
    timeout: 180_000,
  }, async () => {
    const here = tempDir('wt-inthread-');
    const local = await startHost(
      { dataDir: here, serverUrl, demoDefault: false, pullIntervalMs: 600_000 },
      { vault: memoryTokenVault(), openEngine, log: () => {} },
    );
    try {
      const elu = performance.eventLoopUtilization();
      await local.endpoint.call('session.signIn', {
        serverUrl,
        email: 'demo@example.com',
        password: 'demo1234',
      });
      expect(await local.endpoint.call('sync.now', {})).toMatchObject({ ok: true });
      const busy = performance.eventLoopUtilization(elu).utilization;
      console.log(`the same fill on this thread: busy ${(busy * 100).toFixed(1)}%`);
      // How busy depends on how much of the 2 cores the server and other tests leave it: what
      // holds is the contrast with the worker's run above.
      expect(busy).toBeGreaterThan(0.3);
      expect(busy).toBeGreaterThan(3 * workerBusy);
    } finally {
      await local.close();
      rmSync(here, { recursive: true, force: true });
    }
  });
});
