/**
 * Item 9 of issue 15: a stolen refresh token replayed after its rotation ends the whole
 * session (reuse detection); sign-out revokes server-side; failed sign-ins are throttled per
 * account and peer; an unknown email costs what a known one does; scrypt never blocks the
 * event loop.
 */
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
type Pair = { accessToken: string; refreshToken: string };
const pairOf = async (res: Response): Promise<Pair> => ((await res.json()) as { data: Pair }).data;
const signIn = (email: string, password = server.password) =>
  post('/v1/auth/token', { email, password });
const refresh = (refreshToken: string) => post('/v1/auth/refresh', { refreshToken });
const spaces = (accessToken: string) =>
  fetch(`${server.url}/v1/spaces`, {
    headers: { authorization: `Bearer ${accessToken}`, 'x-org-id': String(server.orgs.acme) },
  });

describe('refresh token reuse', () => {
  it('replaying a rotated refresh token revokes its whole family', async () => {
    const first = await pairOf(await signIn('alice@example.com'));
    const second = await refresh(first.refreshToken);
    expect(second.status).toBe(200);
    const rotated = await pairOf(second);
    expect((await spaces(rotated.accessToken)).status).toBe(200);

    // The thief (or anyone holding the old token) replays it.
    const replay = await refresh(first.refreshToken);
    expect(replay.status).toBe(401);
    // Every token of the family is dead now, the legitimate holder's newest pair included.
    expect((await refresh(rotated.refreshToken)).status).toBe(401);
    expect((await spaces(rotated.accessToken)).status).toBe(401);
    expect((await spaces(first.accessToken)).status).toBe(401);
  });

  it('another session of the same user lives on', async () => {
    const mine = await pairOf(await signIn('bob@example.com'));
    const other = await pairOf(await signIn('bob@example.com'));
    await refresh(mine.refreshToken);
    expect((await refresh(mine.refreshToken)).status).toBe(401);
    expect((await spaces(other.accessToken)).status).toBe(200);
    expect((await refresh(other.refreshToken)).status).toBe(200);
  });
});

describe('sign-out', () => {
  it('revokes the session server-side: its refresh and access tokens stop working', async () => {
    const pair = await pairOf(await signIn('alice@example.com'));
    const out = await post('/v1/auth/revoke', { refreshToken: pair.refreshToken });
    expect(out.status).toBe(204);
    expect((await refresh(pair.refreshToken)).status).toBe(401);
    expect((await spaces(pair.accessToken)).status).toBe(401);
    // Unknown or already revoked tokens get the same answer: it tells nothing.
    expect((await post('/v1/auth/revoke', { refreshToken: pair.refreshToken })).status).toBe(204);
    expect((await post('/v1/auth/revoke', { refreshToken: 'x'.repeat(43) })).status).toBe(204);
    expect((await post('/v1/auth/revoke', { refreshToken: 5 })).status).toBe(400);
  });
});

describe('sign-in throttling', () => {
  it('answers 429 with Retry-After after a few failures a minute, per account and peer', async () => {
    const clock = server.deps.clock;
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await signIn('carol@example.com', 'wrong-password')).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      const throttled = await signIn('carol@example.com', 'wrong-password');
      expect(throttled.status).toBe(429);
      const retryAfter = Number(throttled.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(await throttled.json()).toMatchObject({ code: 429, status: 'TOO_MANY_REQUESTS' });
      // Even the right password waits: the throttle does not say when it was guessed.
      expect((await signIn('carol@example.com')).status).toBe(429);
      // Another account from the same peer is not held up.
      expect((await signIn('bob@example.com')).status).toBe(200);
      clock.setOffset(clock.offset() + retryAfter * 1000 + 1);
      expect((await signIn('carol@example.com')).status).toBe(200);
    } finally {
      clock.setOffset(0);
    }
  });
});

/**
 * Counts node:crypto's scrypt calls made by this process (the server runs in it): a spy on
 * the module object, pushed to the named ESM exports the server imported.
 */
const countScrypt = () => {
  const calls = { sync: 0, async: 0 };
  const sync = vi.spyOn(crypto, 'scryptSync').mockImplementation((...args) => {
    calls.sync++;
    return realScryptSync(...args);
  });
  const async = vi.spyOn(crypto, 'scrypt').mockImplementation(((...args: unknown[]) => {
    calls.async++;
    return (realScrypt as (...a: unknown[]) => void)(...args);
  }) as typeof crypto.scrypt);
  syncBuiltinESMExports();
  return {
    calls,
    restore() {
      sync.mockRestore();
      async.mockRestore();
      syncBuiltinESMExports();
    },
  };
};
const realScryptSync = crypto.scryptSync;
const realScrypt = crypto.scrypt;

describe('password checks', () => {
  it('run on the thread pool, never blocking the event loop (no scryptSync)', async () => {
    const spy = countScrypt();
    try {
      expect((await signIn('alice@example.com', 'wrong-once')).status).toBe(401);
      expect((await signIn('alice@example.com')).status).toBe(200);
    } finally {
      spy.restore();
    }
    expect(spy.calls).toEqual({ sync: 0, async: 2 });
  });

  it('an unknown email costs what a known one does: one scrypt check against a dummy hash', async () => {
    await signIn('nobody-warm@example.com', 'x'); // the dummy hash is made once, on first use
    const spy = countScrypt();
    try {
      expect((await signIn('nobody@example.com', 'some-password')).status).toBe(401);
    } finally {
      spy.restore();
    }
    expect(spy.calls.sync + spy.calls.async).toBe(1);
  });
});
