import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Builders, defaultBuilders, startDesktop } from '../../main/start-desktop';
import { electronSqlitePath } from '../../main/start-plan';
import { ELECTRON_BINDING_ENV } from '../../shared/native-binding';
import { installStandInElectron } from './stand-in-binary';

/**
 * `npm start`'s desktop path with a stand-in Electron binary installed the way the electron
 * package installs its own (dist/ + path.txt) and nothing built: the bundles are built for
 * real (esbuild), the renderer and the native module by recording builders (a Vite build and
 * a node-gyp build against Electron's headers are too slow, or need the network), and the
 * stand-in is started with the app folder.
 */
const base = mkdtempSync(path.join(tmpdir(), 'wt-start-desktop-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const appRoot = path.join(base, 'app');
const electronDir = path.join(base, 'node_modules', 'electron');
const record = path.join(base, 'started.txt');

const installStandIn = () =>
  installStandInElectron(
    electronDir,
    `printf '%s\\n' "$@" "$${ELECTRON_BINDING_ENV}" "$WORKTRAY_DATA_DIR" > '${record}'`,
  );

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

describe.skipIf(process.platform === 'win32')('npm start with the Electron runtime', () => {
  it('builds what is missing, then starts Electron with the app', { timeout: 60_000 }, async () => {
    installStandIn();
    mkdirSync(appRoot, { recursive: true });
    writeFileSync(path.join(appRoot, 'package.json'), '{"main":"dist-electron/main.js"}\n');
    const built: string[] = [];
    const builders: Builders = {
      renderer: async ({ root }) => {
        built.push('renderer');
        mkdirSync(path.join(root, 'renderer', 'dist'), { recursive: true });
        writeFileSync(path.join(root, 'renderer', 'dist', 'index.html'), '<!doctype html>');
      },
      bundles: async (ctx) => {
        built.push('bundles');
        await defaultBuilders.bundles(ctx);
      },
      native: async ({ root, electronVersion }) => {
        built.push(`native ${electronVersion}`);
        const file = electronSqlitePath(root, electronVersion);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, 'a .node file');
      },
    };
    const lines: string[] = [];
    const run = () =>
      startDesktop({
        root: appRoot,
        electronDir,
        browser: false,
        build: true,
        builders,
        env: { PATH: process.env.PATH, WORKTRAY_DATA_DIR: path.join(base, 'data') },
        log: (l) => lines.push(l),
      });

    const first = await run();
    if (first.mode !== 'electron') throw new Error(`browser mode: ${first.why}`);
    expect(await exited(first.child)).toBe(0);
    expect(built).toEqual(['renderer', 'bundles', 'native 39.8.10']);
    for (const f of ['main.js', 'worker.js', 'fill-worker.js', 'preload.cjs'])
      expect(existsSync(path.join(appRoot, 'dist-electron', f))).toBe(true);
    expect(readFileSync(record, 'utf8').trim().split('\n')).toEqual([
      appRoot,
      electronSqlitePath(appRoot, '39.8.10'),
      path.join(base, 'data'),
    ]);
    expect(lines.join('\n')).toMatch(/building/);

    // Everything built and newer than its sources: started straight away.
    rmSync(record);
    built.length = 0;
    const second = await run();
    if (second.mode !== 'electron') throw new Error(`browser mode: ${second.why}`);
    expect(await exited(second.child)).toBe(0);
    expect(built).toEqual([]);
    expect(existsSync(record)).toBe(true);
  });

  it('a failed build falls back to the browser, saying what failed', async () => {
    installStandIn();
    const root = path.join(base, 'app2');
    mkdirSync(root, { recursive: true });
    const none = async () => {};
    const r = await startDesktop({
      root,
      electronDir,
      browser: false,
      build: true,
      builders: {
        renderer: none,
        bundles: none,
        native: async () => {
          throw new Error('no headers for Electron 39.8.10');
        },
      },
      env: {},
      log: () => {},
    });
    expect(r).toEqual({
      mode: 'browser',
      why: 'could not build the desktop app (native): no headers for Electron 39.8.10',
    });
  });

  it('without the runtime: browser mode, saying why', async () => {
    const r = await startDesktop({
      root: appRoot,
      electronDir: path.join(base, 'nowhere'),
      browser: false,
      build: true,
      builders: defaultBuilders,
      env: {},
      log: () => {},
    });
    expect(r).toEqual({
      mode: 'browser',
      why: 'Electron runtime not installed',
      detail: 'the electron package is not installed',
    });
  });
});

describe.skipIf(process.platform === 'win32')('a builder that runs but leaves no output', () => {
  it('is a failed build too', async () => {
    installStandIn();
    const root = path.join(base, 'app3');
    mkdirSync(root, { recursive: true });
    const none = async () => {};
    const r = await startDesktop({
      root,
      electronDir,
      browser: false,
      build: true,
      builders: { renderer: none, bundles: none, native: none },
      env: {},
      log: () => {},
    });
    expect(r).toEqual({
      mode: 'browser',
      why: `could not build the desktop app (renderer): no ${path.join(root, 'renderer', 'dist', 'index.html')}`,
    });
  });
});

describe('the builders npm start wires (defaultBuilders)', () => {
  it('renderer: a real vite build of the app folder', { timeout: 60_000 }, async () => {
    const root = path.join(base, 'app4');
    mkdirSync(path.join(root, 'renderer'), { recursive: true });
    writeFileSync(path.join(root, 'package.json'), '{"type":"module"}\n');
    writeFileSync(path.join(root, 'renderer', 'index.html'), '<!doctype html><body>ui</body>\n');
    writeFileSync(
      path.join(root, 'renderer', 'vite.config.ts'),
      "export default { root: import.meta.dirname, base: './', build: { outDir: 'dist' } };\n",
    );
    await defaultBuilders.renderer({ root, electronVersion: '39.8.10' });
    expect(readFileSync(path.join(root, 'renderer', 'dist', 'index.html'), 'utf8')).toContain('ui');
  });

  it('renderer: a failed build throws, so npm start falls back and says so', async () => {
    const root = path.join(base, 'app5');
    mkdirSync(path.join(root, 'renderer'), { recursive: true });
    writeFileSync(path.join(root, 'renderer', 'vite.config.ts'), 'export default {{ broken\n');
    await expect(defaultBuilders.renderer({ root, electronVersion: '39.8.10' })).rejects.toThrow(
      /vite build failed/,
    );
  });
});
