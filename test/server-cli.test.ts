import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFaultSpec } from '../server/faults';

const cli = join(import.meta.dirname, '../server/cli.ts');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGTERM');
});

const run = (args: string[]) => {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    err += c.toString();
  });
  return {
    child,
    listening: () =>
      new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m?.[1]) {
            clearInterval(timer);
            resolve(m[1]);
          }
        }, 20);
        child.once('exit', (code) => {
          clearInterval(timer);
          reject(new Error(`exited ${code}: ${err}`));
        });
      }),
    exit: () =>
      new Promise<{ code: number | null; err: string }>((resolve) =>
        child.once('exit', (code) => resolve({ code, err })),
      ),
  };
};

describe('npm run server', () => {
  it('serves the demo data: a token from /v1/auth/token lists the demo tasks', async () => {
    const server = run(['--port', '0', '--seed', 'demo']);
    const url = await server.listening();
    const token = (await (
      await fetch(`${url}/v1/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'demo@example.com', password: 'demo1234' }),
      })
    ).json()) as { data: { accessToken: string } };
    const tasks = (await (
      await fetch(`${url}/v1/tasks?size=5`, {
        headers: { authorization: `Bearer ${token.data.accessToken}`, 'x-org-id': '1' },
      })
    ).json()) as { data: { content: unknown[]; totalElements: number } };
    expect(tasks.data.content.length).toBe(5);
    expect(tasks.data.totalElements).toBeGreaterThan(20);
    server.child.kill('SIGTERM');
    expect((await server.exit()).code).toBe(0);
  }, 30_000);

  it('refuses bad arguments with a usage message and exit code 2', async () => {
    for (const args of [
      ['--faults', '5xx=oops'],
      ['--seed', 'lots'],
      ['--quirk', 'nope'],
      ['--port', '70000'],
    ]) {
      const { code, err } = await run(args).exit();
      expect(code).toBe(2);
      expect(err).toContain('usage: npm run server');
    }
  }, 30_000);
});

describe('--faults', () => {
  it('parses rates, latency and seed; refuses unknown keys and out-of-range rates', () => {
    expect(parseFaultSpec('5xx=0.1,reset=0.05,429=0.05,latency=20-200,seed=7')).toMatchObject({
      '5xx': 0.1,
      reset: 0.05,
      '429': 0.05,
      drop: 0,
      latency: [20, 200],
      seed: 7,
    });
    expect(() => parseFaultSpec('boom=0.1')).toThrow();
    expect(() => parseFaultSpec('5xx=1.5')).toThrow();
    expect(() => parseFaultSpec('latency=200-20')).toThrow();
  });
});
