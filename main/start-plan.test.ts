import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { electronEnv, ensureRendererBuilt } from './start-plan';

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
