/**
 * Item 6 of issue 15: the embedded demo server listens on a loopback port that is reused
 * across launches, with a public password. A web page can reach it by DNS rebinding (its
 * own name resolving to 127.0.0.1): the browser then sends the page's name as Host. The
 * server answers only its own names; the admin routes only with --admin and a loopback peer;
 * a bind beyond loopback says so loudly.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/app';
import { isLoopbackPeer } from '../../server/http/host-guard';

const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const start = async (options: Partial<Parameters<typeof startServer>[0]> = {}) => {
  const s = await startServer({ dataDir: null, seed: { kind: 'demo' }, ...options });
  servers.push(s);
  return s;
};

/** A raw request to 127.0.0.1 with the Host header given (or none at all). */
const send = (
  port: number,
  host: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        setHost: false,
        headers: {
          ...(host === null ? {} : { host }),
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });

const tokenCount = (s: RunningServer) =>
  (s.deps.db.prepare('SELECT COUNT(*) AS n FROM tokens').get() as { n: number }).n;
const demo = { email: 'demo@example.com', password: 'demo1234' };

describe('Host allowlist', () => {
  it('answers its own loopback names', async () => {
    const s = await start();
    for (const host of [`127.0.0.1:${s.port}`, `localhost:${s.port}`, `[::1]:${s.port}`]) {
      const res = await send(s.port, host, 'POST', '/v1/auth/token', demo);
      expect(res.status, host).toBe(200);
    }
  });

  it('refuses a foreign Host (DNS rebinding) before anything runs, and writes nothing', async () => {
    const s = await start();
    const before = tokenCount(s);
    for (const host of [
      `evil.example:${s.port}`,
      'evil.example',
      `127.0.0.1:${s.port + 1}`,
      `localhost.evil.example:${s.port}`,
    ]) {
      const res = await send(s.port, host, 'POST', '/v1/auth/token', demo);
      expect(res.status, host).toBe(421);
      expect(JSON.parse(res.text)).toMatchObject({ success: false, code: 421 });
    }
    // No Host at all: Node's HTTP server refuses an HTTP/1.1 request without one (400).
    expect((await send(s.port, null, 'POST', '/v1/auth/token', demo)).status).toBe(400);
    expect(tokenCount(s)).toBe(before);
  });

  it('refuses a foreign Host on the admin routes too', async () => {
    const s = await start({ admin: true });
    expect((await send(s.port, `localhost:${s.port}`, 'GET', '/__admin/state')).status).toBe(200);
    const res = await send(s.port, `evil.example:${s.port}`, 'PUT', '/__admin/clock', {
      advanceMs: 1,
    });
    expect(res.status).toBe(421);
    expect(s.deps.clock.offset()).toBe(0);
  });

  it('bound beyond loopback, answers the configured name as well', async () => {
    const s = await start({ host: '0.0.0.0', allowedHosts: ['wt.internal'] });
    expect(
      (await send(s.port, `wt.internal:${s.port}`, 'POST', '/v1/auth/token', demo)).status,
    ).toBe(200);
    expect(
      (await send(s.port, `evil.example:${s.port}`, 'POST', '/v1/auth/token', demo)).status,
    ).toBe(421);
  });
});

describe('admin routes', () => {
  it('are absent without --admin', async () => {
    const s = await start();
    expect((await send(s.port, `127.0.0.1:${s.port}`, 'GET', '/__admin/state')).status).toBe(404);
  });

  it('accept only a loopback peer', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])
      expect(isLoopbackPeer(a), a).toBe(true);
    for (const a of [
      undefined,
      '10.0.0.2',
      '192.168.1.4',
      '::ffff:10.0.0.2',
      'fe80::1',
      '128.0.0.1',
    ])
      expect(isLoopbackPeer(a), String(a)).toBe(false);
  });
});

describe('npm run server --host beyond loopback', () => {
  it('warns loudly on start', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '../../server/cli.ts'), '--host', '0.0.0.0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if (out.includes('listening on')) {
            clearInterval(timer);
            resolve();
          }
        }, 20);
        child.once('exit', (code) => {
          clearInterval(timer);
          reject(new Error(`exited ${code}: ${err}`));
        });
      });
      expect(err).toMatch(/WARNING/);
      expect(err).toMatch(/0\.0\.0\.0/);
      expect(err).toMatch(/beyond loopback/);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
