import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { buildElectron, WORKER_EXTERNAL_PACKAGES } from '../../main/electron/build';
import { root } from './builder-config';
import { packageClosure } from './package-closure';

/**
 * The real worker bundles in a packaged app's resources/app.asar (here a plain folder standing
 * in for the archive, outside the repository, so nothing resolves from its node_modules): the
 * host, started from a bundle in that folder, starts its worker beside it, which serves the
 * embedded demo, signs in and fills the replica with the bootstrap's own worker, with no
 * package in app.asar/node_modules but better-sqlite3 and what it requires.
 */
const resources = mkdtempSync(path.join(tmpdir(), 'worktray-resources-'));
afterAll(() => rmSync(resources, { recursive: true, force: true }));

const PROBE = `
import { startWorkerHost } from './main/host/worker-host';
const vault = { read: async () => null, write: async () => {}, clear: async () => {} };
const host = await startWorkerHost(
  { dataDir: process.argv[2], serverUrl: null, demoDefault: false },
  { vault, log: () => {} },
);
const call = async (method) => {
  const r = await host.call(method, undefined);
  if (!r.ok) throw new Error(method + ': ' + r.error.message);
  return r.value;
};
let state = await call('session.startDemo');
const until = Date.now() + 60_000;
while (state.bootstrapping && Date.now() < until) {
  await new Promise((r) => setTimeout(r, 200));
  state = await call('session.state');
}
console.log(JSON.stringify({ signedIn: state.signedIn, demo: state.demo, filled: !state.bootstrapping }));
await host.close();
`;

describe('the worker bundles in app.asar', () => {
  it('run the host and the bootstrap with no package beside them but better-sqlite3', {
    timeout: 120_000,
  }, async () => {
    const app = path.join(resources, 'app.asar');
    const dist = path.join(app, 'dist-electron');
    await buildElectron({ outDir: path.join(resources, 'built') });
    mkdirSync(dist, { recursive: true });
    for (const name of ['worker.js', 'fill-worker.js'])
      copyFileSync(path.join(resources, 'built', name), path.join(dist, name));
    copyFileSync(path.join(root, 'package.json'), path.join(app, 'package.json'));
    for (const pkg of packageClosure(WORKER_EXTERNAL_PACKAGES)) {
      if (pkg.split('node_modules').length > 2) continue; // nested: inside its parent's folder
      mkdirSync(path.dirname(path.join(app, pkg)), { recursive: true });
      symlinkSync(path.join(root, pkg), path.join(app, pkg), 'junction');
    }
    // The main process's part, bundled whole: here it stands for main.js.
    await build({
      stdin: { contents: PROBE, resolveDir: root, loader: 'ts', sourcefile: 'probe.ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      external: ['better-sqlite3'],
      banner: {
        js: "import { createRequire as __probeRequire } from 'node:module'; const require = __probeRequire(import.meta.url);",
      },
      logLevel: 'silent',
      outfile: path.join(dist, 'probe.js'),
    });
    const r = spawnSync(
      process.execPath,
      [path.join(dist, 'probe.js'), path.join(resources, 'data')],
      {
        encoding: 'utf8',
        timeout: 90_000,
      },
    );
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout.trim())).toEqual({ signedIn: true, demo: true, filled: true });
  });
});
