import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildElectron } from '../../main/electron/build';
import type { Builders } from '../../main/start-desktop';
import { electronSqlitePath } from '../../main/start-plan';
import { smokeDesktop } from '../../main/start-smoke';
import type { StandInPage } from './electron-stand-in';
import { installStandInElectron } from './stand-in-binary';

/**
 * `npm run smoke:desktop` with a stand-in Electron binary: the start plan builds the app (the
 * main, worker and preload bundles for real, with electron-stand-in.ts in place of 'electron';
 * the UI and the native module by recording builders), then starts the "binary", which runs the
 * built main.js in Node with `--smoke`: the real host worker, embedded demo server, first sync
 * and tray controller. Only Electron's own objects are stand-ins.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const base = mkdtempSync(path.join(tmpdir(), 'wt-smoke-'));
// Inside the repository, so the bundles' package imports resolve to its node_modules.
const cache = path.join(root, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const appRoot = mkdtempSync(path.join(cache, 'smoke-desktop-'));
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
  rmSync(appRoot, { recursive: true, force: true });
});

const electronDir = path.join(base, 'node_modules', 'electron');

const builders: Builders = {
  renderer: async ({ root }) => {
    mkdirSync(path.join(root, 'renderer', 'dist'), { recursive: true });
    writeFileSync(path.join(root, 'renderer', 'dist', 'index.html'), '<title>Worktray</title>');
  },
  bundles: ({ root: app }) =>
    buildElectron({
      outDir: path.join(app, 'dist-electron'),
      electronStandIn: path.join(root, 'test/packaging/electron-stand-in.ts'),
    }),
  native: async ({ root, electronVersion }) => {
    const file = electronSqlitePath(root, electronVersion);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'Node runs the stand-in: it loads node_modules’ own build');
  },
};

const smoke = async (options: {
  dataDir?: string;
  electronDir?: string;
  packaged?: string;
  timeoutMs?: number;
  /** How the stand-in's window page loads (electron-stand-in.ts, `StandInPage`). */
  page?: StandInPage;
}) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await smokeDesktop({
    root: appRoot,
    electronDir: options.electronDir ?? electronDir,
    builders,
    timeoutMs: options.timeoutMs ?? 90_000,
    env: options.page ? { ...process.env, ELECTRON_STAND_IN_PAGE: options.page } : process.env,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.packaged ? { packaged: options.packaged } : {}),
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out, err, reason: err.at(-1) ?? '' };
};

describe.skipIf(process.platform === 'win32')('npm run smoke:desktop', () => {
  it('builds the app, runs it hidden with --smoke and prints one JSON line', {
    timeout: 150_000,
  }, async () => {
    installStandInElectron(
      electronDir,
      // The stand-in's process mode: the bundle's 'electron' runs this process's app.
      `ELECTRON_STAND_IN=process exec '${process.execPath}' "$1/dist-electron/main.js" "$@"`,
    );
    // As the repository's: ES modules, `main` names the bundle.
    writeFileSync(
      path.join(appRoot, 'package.json'),
      '{"type":"module","main":"dist-electron/main.js"}\n',
    );
    const r = await smoke({});
    expect(r.reason, r.err.join('\n')).not.toMatch(/failed/);
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(1);
    const line = r.out[0] ?? '';
    expect(line).toMatch(/^\{"window":true,"synced":true,"tray":true,"tasks":\d+\}$/);
    expect((JSON.parse(line) as { tasks: number }).tasks).toBeGreaterThan(0);
  });

  it('npm run smoke:desktop -- --packaged BINARY: the same line from a built app, nothing built', {
    timeout: 120_000,
  }, async () => {
    // A "packaged" stand-in: its own executable, started with --smoke alone.
    const packaged = installStandInElectron(
      path.join(base, 'packaged'),
      `ELECTRON_STAND_IN=process exec '${process.execPath}' '${appRoot}/dist-electron/main.js' "$@"`,
    );
    const run = spawnSync(
      'npm',
      ['run', '--silent', 'smoke:desktop', '--', '--packaged', packaged, '--timeout', '90'],
      { cwd: root, encoding: 'utf8', timeout: 110_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^\{"window":true,"synced":true,"tray":true,"tasks":[1-9]\d*\}\n$/);
  });

  it('a demo server that cannot start: non-zero, and the reason in one line', {
    timeout: 120_000,
  }, async () => {
    const dataDir = path.join(base, 'blocked');
    mkdirSync(dataDir, { recursive: true });
    // Where the embedded demo server keeps its database and port, a file: it cannot start.
    writeFileSync(path.join(dataDir, 'demo-server'), 'not a folder');
    const r = await smoke({ dataDir });
    expect(r.code).not.toBe(0);
    expect(r.out).toEqual([]);
    expect(r.reason).toMatch(
      /^smoke:desktop failed: could not sign in to the embedded demo: .*demo-server/,
    );
  });

  // A window that loads (did-finish-load) but is broken fails the run, saying how.
  it.each([
    [
      'preload-error',
      /^smoke:desktop failed: the window's preload failed \(preload\.cjs\): Cannot find module/,
    ],
    [
      'renderer-crash',
      /^smoke:desktop failed: the window's page stopped \(crashed, exit code 139\)$/,
    ],
    [
      'csp-blocks-bundle',
      /^smoke:desktop failed: timed out after 4 s waiting for the app's view in the window \(#root is empty; the page's last error: Refused to load the script .* Content Security Policy/,
    ],
    [
      'react-throws',
      /^smoke:desktop failed: timed out after 4 s waiting for the app's view in the window \(#root is empty; the page's last error: Uncaught Error: Minified React error/,
    ],
  ] as const)(
    'a window whose page loads broken (%s): non-zero, saying how',
    {
      timeout: 60_000,
    },
    async (page, reason) => {
      const r = await smoke({ page, timeoutMs: 4_000 });
      expect([r.code, r.out]).toEqual([1, []]);
      expect(r.reason).toMatch(reason);
    },
  );

  it('a packaged binary that is not there: non-zero, saying so', async () => {
    const r = await smoke({ packaged: path.join(base, 'no-such-app') });
    expect([r.code, r.out]).toEqual([1, []]);
    expect(r.reason).toMatch(/^smoke:desktop failed: could not start .*no-such-app: .*ENOENT/);
  });

  it('without the Electron runtime: non-zero, saying so', async () => {
    const r = await smoke({ electronDir: path.join(base, 'nowhere') });
    expect(r.code).not.toBe(0);
    expect(r.out).toEqual([]);
    expect(r.reason).toBe(
      'smoke:desktop failed: Electron runtime not installed (the electron package is not installed)',
    );
  });
});
