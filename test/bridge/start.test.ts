import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SECRET_HEADER } from '../../main/web/server';
import { tempDir } from '../sync/support';
import { eventually } from './support';

// `npm start` on a machine without the Electron runtime (this one: ELECTRON_SKIP_BINARY_DOWNLOAD):
// the entry says so, prints the browser-mode URL, and that page's bridge shows the demo data,
// served by the host in its worker thread with the embedded demo server.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const URL_LINE =
  /Electron runtime not installed: running in browser mode at (http:\/\/127\.0\.0\.1:\d+)\/\?secret=(\S+)/;

describe('npm start without the Electron runtime', () => {
  const dataDir = tempDir('wt-start-');
  let child: ChildProcess | null = null;
  afterAll(() => {
    child?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the browser-mode URL, and that page shows the demo data', {
    timeout: 90_000,
  }, async () => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'main/start.ts', '--data', dataDir], {
      cwd: root,
      // Serve whatever UI is built: this test must not build (or race a build of) the renderer.
      env: { ...process.env, WORKTRAY_BUILD_RENDERER: '0', WORKTRAY_SERVER: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    let out = '';
    let err = '';
    proc.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    proc.stderr?.on('data', (c: Buffer) => {
      err += c.toString();
    });
    const [, origin, encoded] = await eventually(
      () => URL_LINE.exec(out) ?? undefined,
      60_000,
    ).catch(() => {
      throw new Error(`no URL printed.\nstdout: ${out}\nstderr: ${err}`);
    });
    const secret = decodeURIComponent(encoded ?? '');

    const page = await fetch(`${origin}/?secret=${encoded}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");

    const call = async (method: string, input: unknown) => {
      const res = await fetch(`${origin}/bridge/${method}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: origin ?? '',
          [SECRET_HEADER]: secret,
        },
        body: JSON.stringify(input),
      });
      return (await res.json()) as { ok: boolean; value?: unknown };
    };
    const list = await eventually(async () => {
      const r = await call('tasks.list', { scope: { kind: 'my' }, limit: 5 });
      const v = r.value as { total: number; items: { taskTitle: string }[] } | undefined;
      return r.ok && v && v.total > 0 ? v : undefined;
    }, 60_000);
    expect(list.items[0]?.taskTitle).toBeTypeOf('string');
    const state = (await call('session.state', {})).value as {
      demo: boolean;
      user: { email: string };
    };
    expect(state).toMatchObject({ demo: true, user: { email: 'demo@example.com' } });

    proc.kill('SIGTERM');
    const code = await new Promise<number | null>((r) => proc.on('exit', r));
    expect(code).toBe(0);
    child = null;
    // The demo session was kept in the data folder it was given, for the next start.
    expect(existsSync(join(dataDir, 'session.json'))).toBe(true);
  });
});
