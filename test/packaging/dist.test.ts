import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ensureElectronSqlite,
  findElectronRuntime,
  missingRuntimeMessage,
} from '../../main/electron/dist';
import { electronSqlitePath } from '../../main/start-plan';

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

describe("npm run dist: Electron's build of better-sqlite3", () => {
  const app = mkdtempSync(path.join(tmpdir(), 'wt-dist-native-'));
  afterAll(() => rmSync(app, { recursive: true, force: true }));
  const pkg = path.join(app, 'node_modules', 'better-sqlite3', 'package.json');
  const binding = electronSqlitePath(app, '39.8.10');
  const at = (file: string, seconds: number) => utimesSync(file, seconds, seconds);

  /** A stand-in for @electron/rebuild: writes the package's version into the binding. */
  const built: string[] = [];
  const build = async ({ outFile }: { outFile: string }) => {
    const { version } = JSON.parse(readFileSync(pkg, 'utf8')) as { version: string };
    built.push(version);
    mkdirSync(path.dirname(outFile), { recursive: true });
    writeFileSync(outFile, `better-sqlite3 ${version} for Electron`);
  };
  const ensure = () =>
    ensureElectronSqlite({ root: app, electronVersion: '39.8.10', build, log: () => {} });

  it('builds it when missing, reuses it while current, builds it again after an upgrade', async () => {
    mkdirSync(path.dirname(pkg), { recursive: true });
    writeFileSync(pkg, '{"name":"better-sqlite3","version":"12.6.2"}');
    at(pkg, 1_000);
    expect(await ensure()).toBe(binding);
    expect(built).toEqual(['12.6.2']);

    at(binding, 2_000);
    await ensure();
    expect(built).toEqual(['12.6.2']);

    // npm installs a newer better-sqlite3: its package.json is newer than the binding.
    writeFileSync(pkg, '{"name":"better-sqlite3","version":"12.7.0"}');
    at(pkg, 3_000);
    await ensure();
    expect(built).toEqual(['12.6.2', '12.7.0']);
    expect(readFileSync(binding, 'utf8')).toBe('better-sqlite3 12.7.0 for Electron');
  });
});
