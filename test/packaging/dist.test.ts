import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findElectronRuntime, missingRuntimeMessage } from '../../main/electron/dist';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('npm run dist', () => {
  it('finds the Electron binary only where it exists', () => {
    expect(findElectronRuntime(() => process.execPath)).toEqual({
      ok: true,
      binary: process.execPath,
    });
    expect(findElectronRuntime(() => '/nowhere/electron')).toMatchObject({ ok: false });
    expect(
      findElectronRuntime(() => {
        throw new Error('Electron failed to install correctly');
      }),
    ).toEqual({ ok: false, reason: 'Electron failed to install correctly' });
    expect(missingRuntimeMessage('x')).toMatch(/Electron runtime is not installed/);
  });

  it('says clearly, and fails, when the Electron runtime is not installed', () => {
    const runtime = findElectronRuntime();
    if (runtime.ok) return; // a machine with Electron builds installers instead (minutes)
    const r = spawnSync(
      path.join(root, 'node_modules/.bin/tsx'),
      [path.join(root, 'main/electron/dist.ts')],
      { cwd: root, encoding: 'utf8', timeout: 30_000 },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('the Electron runtime is not installed here');
    expect(r.stderr).toContain('npm start');
  });

  it("loads electron-builder's native rebuilder (@electron/rebuild) on this Node", async () => {
    // @electron/rebuild 4 declares Node >= 22.12 but needs only what Node 20.19+ has (ESM,
    // import.meta.dirname, util.styleText); electron-builder imports it in a child process.
    const fromBuilder = createRequire(path.join(root, 'node_modules/app-builder-lib/package.json'));
    const entry = fromBuilder.resolve('@electron/rebuild');
    const mod = (await import(entry)) as { rebuild?: unknown };
    expect(typeof mod.rebuild).toBe('function');
  });
});
