import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * A packaged app's two folders, resources/app.asar (here a plain folder standing in for the
 * archive) and resources/app.asar.unpacked: bundled code running from app.asar starts each
 * worker from the unpacked folder. The worker entries exist only there, so a start from
 * inside the archive would find no worker.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const resources = mkdtempSync(path.join(tmpdir(), 'worktray-resources-'));

/** Answers the host's start, and ends on its close (CommonJS: no package.json says otherwise). */
const STAND_IN_WORKER = `const { parentPort, workerData } = require('node:worker_threads');
if (workerData) parentPort.postMessage({ type: 'ready' });
parentPort.on('message', (m) => { if (m && m.type === 'close') process.exit(0); });
`;

const PROBE = `
import { startWorkerHost } from './main/host/worker-host';
import { startFillThread } from './sync/engine/fill-thread';
const vault = { read: async () => null, write: async () => {}, clear: async () => {} };
const fill = startFillThread();
const config = { dataDir: process.argv[2] } as never;
const host = await startWorkerHost(config, { vault }).catch((e) => e);
console.log(JSON.stringify({ fill: fill !== null, host: !(host instanceof Error) }));
await fill?.close();
if (!(host instanceof Error)) await host.close();
`;

afterAll(() => rmSync(resources, { recursive: true, force: true }));

describe('workers of a packaged app', () => {
  it('start from app.asar.unpacked when the bundle runs from app.asar', async () => {
    const inAsar = path.join(resources, 'app.asar/dist-electron');
    const unpacked = path.join(resources, 'app.asar.unpacked/dist-electron');
    mkdirSync(unpacked, { recursive: true });
    symlinkSync(path.join(root, 'node_modules'), path.join(resources, 'node_modules'), 'junction');
    await build({
      stdin: { contents: PROBE, resolveDir: root, loader: 'ts', sourcefile: 'probe.ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      packages: 'external',
      logLevel: 'silent',
      outfile: path.join(inAsar, 'main.mjs'),
    });
    for (const name of ['worker.js', 'fill-worker.js'])
      writeFileSync(path.join(unpacked, name), STAND_IN_WORKER);
    const r = spawnSync(
      process.execPath,
      [path.join(inAsar, 'main.mjs'), path.join(resources, 'data')],
      {
        encoding: 'utf8',
        timeout: 15_000,
      },
    );
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout.trim())).toEqual({ fill: true, host: true });
  });
});
