import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ArtifactName,
  electronEnv,
  ensureRendererBuilt,
  type Freshness,
  findElectronRuntime,
  freshness,
  planStart,
} from './start-plan';

describe('electronEnv', () => {
  const env = { PATH: '/bin', WORKTRAY_SERVER: 'https://from-the-shell.example.com' };

  it('passes --server through as WORKTRAY_SERVER, and the chosen data folder', () => {
    expect(electronEnv(env, '/data/wt', 'https://work.example.com')).toEqual({
      PATH: '/bin',
      WORKTRAY_DATA_DIR: '/data/wt',
      WORKTRAY_SERVER: 'https://work.example.com',
    });
  });

  it('without --server keeps what the shell set (or nothing)', () => {
    expect(electronEnv(env, '/data/wt', null).WORKTRAY_SERVER).toBe(
      'https://from-the-shell.example.com',
    );
    expect('WORKTRAY_SERVER' in electronEnv({ PATH: '/bin' }, '/data/wt', null)).toBe(false);
  });

  it('passes --no-demo through as WORKTRAY_NO_DEMO', () => {
    expect(electronEnv(env, '/data/wt', null, false).WORKTRAY_NO_DEMO).toBe('1');
    expect('WORKTRAY_NO_DEMO' in electronEnv(env, '/data/wt', null, true)).toBe(false);
  });
});

describe('ensureRendererBuilt (a real vite build of a one-page renderer)', () => {
  const root = mkdtempSync(join(tmpdir(), 'wt-start-plan-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const dist = join(root, 'renderer', 'dist');

  it('builds renderer/dist when missing, only when asked, and once', { timeout: 60_000 }, () => {
    const lines: string[] = [];
    const log = (l: string) => lines.push(l);
    expect(ensureRendererBuilt(root, true, log)).toBeNull();
    expect(lines).toEqual([]);

    mkdirSync(join(root, 'renderer'));
    writeFileSync(
      join(root, 'renderer', 'index.html'),
      '<!doctype html><html><head><title>Worktray</title></head><body>built</body></html>\n',
    );
    writeFileSync(
      join(root, 'renderer', 'vite.config.ts'),
      "export default { root: import.meta.dirname, base: './', build: { outDir: 'dist' } };\n",
    );
    expect(ensureRendererBuilt(root, false, log)).toBeNull();
    expect(existsSync(dist)).toBe(false);

    expect(ensureRendererBuilt(root, true, log)).toBe(dist);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toContain('built');
    expect(lines).toEqual(['building the UI (vite build) ...']);

    expect(ensureRendererBuilt(root, true, log)).toBe(dist);
    expect(lines).toHaveLength(1);
  });
});

describe('findElectronRuntime (reads path.txt and dist/ as the electron package does)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wt-electron-pkg-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('absent: no package, no path.txt (download skipped), or no binary; each says why', () => {
    expect(findElectronRuntime(null)).toEqual({
      ok: false,
      reason: 'the electron package is not installed',
    });
    writeFileSync(join(dir, 'package.json'), '{"name":"electron","version":"39.8.10"}');
    const noPathTxt = findElectronRuntime(dir);
    expect(noPathTxt.ok).toBe(false);
    expect(!noPathTxt.ok && noPathTxt.reason).toMatch(/download.*skipped|path\.txt/);
    writeFileSync(join(dir, 'path.txt'), 'electron');
    const noBinary = findElectronRuntime(dir);
    expect(!noBinary.ok && noBinary.reason).toContain(join(dir, 'dist', 'electron'));
  });

  it('present: the binary and its version', () => {
    mkdirSync(join(dir, 'dist'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'electron'), '');
    expect(findElectronRuntime(dir)).toEqual({
      ok: true,
      binary: join(dir, 'dist', 'electron'),
      version: '39.8.10',
    });
  });
});

describe('freshness of a build output against its sources', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wt-fresh-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const src = join(dir, 'src');
  const out = join(dir, 'out.js');
  const at = (file: string, seconds: number) => utimesSync(file, seconds, seconds);

  it('missing, built, then stale when a source is newer; tests and dist folders do not count', () => {
    mkdirSync(join(src, 'deep', 'dist'), { recursive: true });
    writeFileSync(join(src, 'deep', 'a.ts'), '');
    at(join(src, 'deep', 'a.ts'), 1_000);
    expect(freshness([out], [src])).toBe('missing');
    writeFileSync(out, '');
    at(out, 2_000);
    expect(freshness([out], [src])).toBe('built');
    writeFileSync(join(src, 'deep', 'a.test.ts'), '');
    at(join(src, 'deep', 'a.test.ts'), 3_000);
    writeFileSync(join(src, 'deep', 'dist', 'x.js'), '');
    at(join(src, 'deep', 'dist', 'x.js'), 3_000);
    expect(freshness([out], [src])).toBe('built');
    at(join(src, 'deep', 'a.ts'), 3_000);
    expect(freshness([out], [src])).toBe('stale');
    expect(freshness([out, join(dir, 'other.js')], [src])).toBe('missing');
  });
});

describe('planStart: runtime present/absent × built/stale/missing', () => {
  const runtime = { ok: true, binary: '/e/dist/electron', version: '39.8.10' } as const;
  const absent = { ok: false, reason: 'the electron package is not installed' } as const;
  const all = (state: Freshness): Record<ArtifactName, Freshness> => ({
    renderer: state,
    bundles: state,
    native: state,
  });

  it('runtime present and all built: Electron, nothing to build', () => {
    expect(planStart({ browser: false, build: true, runtime, states: all('built') })).toEqual({
      mode: 'electron',
      binary: '/e/dist/electron',
      build: [],
    });
  });

  it('runtime present, nothing built or all stale: Electron after building every part', () => {
    for (const state of ['missing', 'stale'] as const) {
      expect(planStart({ browser: false, build: true, runtime, states: all(state) })).toEqual({
        mode: 'electron',
        binary: '/e/dist/electron',
        build: ['renderer', 'bundles', 'native'],
      });
    }
    expect(
      planStart({
        browser: false,
        build: true,
        runtime,
        states: { renderer: 'built', bundles: 'stale', native: 'missing' },
      }),
    ).toMatchObject({ mode: 'electron', build: ['bundles', 'native'] });
  });

  it('--no-build: stale parts run as they are; a missing part means browser mode, saying why', () => {
    expect(planStart({ browser: false, build: false, runtime, states: all('stale') })).toEqual({
      mode: 'electron',
      binary: '/e/dist/electron',
      build: [],
    });
    const plan = planStart({
      browser: false,
      build: false,
      runtime,
      states: { renderer: 'built', bundles: 'missing', native: 'built' },
    });
    expect(plan.mode).toBe('browser');
    expect(plan.mode === 'browser' && plan.why).toMatch(/not built.*bundles.*--no-build/);
  });

  it('runtime absent, whatever is built: browser mode with the reason', () => {
    for (const state of ['built', 'stale', 'missing'] as const) {
      expect(
        planStart({ browser: false, build: true, runtime: absent, states: all(state) }),
      ).toEqual({
        mode: 'browser',
        why: 'Electron runtime not installed',
        detail: 'the electron package is not installed',
      });
    }
  });

  it('runtime present but its sandbox blocked: browser mode with the fix, nothing built', () => {
    const sandbox = { why: "Electron's sandbox cannot start here", detail: 'run once: sudo …' };
    expect(
      planStart({ browser: false, build: true, runtime, states: all('missing'), sandbox }),
    ).toEqual({ mode: 'browser', ...sandbox });
    expect(
      planStart({ browser: false, build: true, runtime, states: all('built'), sandbox: null }),
    ).toMatchObject({ mode: 'electron' });
  });

  it('--browser: browser mode even with the runtime and everything built', () => {
    expect(planStart({ browser: true, build: true, runtime, states: all('built') })).toEqual({
      mode: 'browser',
      why: 'Browser mode requested (--browser)',
    });
  });
});
