import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from './client';
import { ApiClientError } from './errors';
import { createHttp } from './http';
import { createSession, type SessionTokens, signIn } from './session';
import {
  aTask,
  authAnswer,
  fail,
  fastHttp,
  freshTokens,
  type Handler,
  type Harness,
  harness,
  NOW,
  ok,
  type Recorded,
  rejection,
  startServer,
  type TestServer,
} from './test-support';

let h: Harness | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  await h?.close();
  await server?.close();
  h = undefined;
  server = undefined;
});

/**
 * A tiny auth server: access tokens `access-N` are valid once issued until replaced; the
 * refresh token rotates (only the newest one is accepted), so a client that keeps an old
 * refresh token is caught.
 */
const authServer = (opts: { refreshDelayMs?: number; refuseRefresh?: boolean } = {}) => {
  let generation = 1;
  const state = { refreshCalls: 0, tokenCalls: 0 };
  const valid = () => `access-${generation}`;
  const handler: Handler = async (req: Recorded, res) => {
    if (req.path === '/v1/auth/token') {
      state.tokenCalls++;
      const body = JSON.parse(req.body.toString()) as { email: string; password: string };
      if (body.password !== 'secret') return fail(res, 401, 'UNAUTHORIZED', 'bad credentials');
      return ok(res, authAnswer(generation));
    }
    if (req.path === '/v1/auth/refresh') {
      state.refreshCalls++;
      if (opts.refreshDelayMs) await new Promise((r) => setTimeout(r, opts.refreshDelayMs));
      const body = JSON.parse(req.body.toString()) as { refreshToken: string };
      const expected = authAnswer(generation).refreshToken;
      if (opts.refuseRefresh || body.refreshToken !== expected)
        return fail(res, 401, 'UNAUTHORIZED', 'refresh token expired');
      generation++;
      return ok(res, authAnswer(generation));
    }
    if (req.headers.authorization !== `Bearer ${valid()}`)
      return fail(res, 401, 'UNAUTHORIZED', 'token expired');
    return ok(res, aTask(1));
  };
  return {
    handler,
    state,
    /** The server forgets the current access token (as if it expired server side). */
    expireAccess: () => {
      generation++;
    },
    /** The server's current refresh token, rotated along. */
    currentTokens: (): SessionTokens => freshTokens(generation),
  };
};

const taskCalls = (s: TestServer) => s.requests.filter((r) => r.path.startsWith('/v1/tasks'));

describe('signIn', () => {
  it('signs in, reports the tokens and carries no bearer or org on auth calls', async () => {
    const auth = authServer();
    server = await startServer(auth.handler);
    const onTokens = vi.fn();
    const session = await signIn(server.url, 'ada@example.com', 'secret', {
      clock: () => NOW,
      onTokens,
      http: fastHttp,
    });
    try {
      expect(session.state).toBe('signed-in');
      expect(session.user?.userId).toBe(7);
      expect(session.organizations).toEqual([{ orgId: 1, orgName: 'Acme' }]);
      expect(onTokens).toHaveBeenCalledTimes(1);
      expect(onTokens.mock.calls[0]?.[0]).toEqual({
        accessToken: 'access-1',
        refreshToken: 'refresh-token-000001',
        accessExpiresAt: NOW + 900_000,
        refreshExpiresAt: NOW + 2_592_000_000,
      });
      const tokenReq = server.requests[0];
      expect(tokenReq?.headers.authorization).toBeUndefined();
      expect(tokenReq?.headers['x-org-id']).toBeUndefined();
      expect(JSON.parse(tokenReq?.body.toString() ?? '')).toEqual({
        email: 'ada@example.com',
        password: 'secret',
      });
    } finally {
      await session.close();
    }
  });

  it('throws an auth error on wrong credentials', async () => {
    server = await startServer(authServer().handler);
    const e = await rejection(signIn(server.url, 'ada@example.com', 'wrong', { http: fastHttp }));
    expect(e).toBeInstanceOf(ApiClientError);
    expect((e as ApiClientError).kind).toBe('auth');
    expect((e as ApiClientError).message).toBe('bad credentials');
  });

  it('refuses a malformed email before sending', async () => {
    server = await startServer(authServer().handler);
    const e = await rejection(signIn(server.url, 'a', 'secret', { http: fastHttp }));
    expect((e as ApiClientError).kind).toBe('validation');
    expect(server.requests).toHaveLength(0);
  });
});

describe('refresh', () => {
  it('on a 401 refreshes once and retries the call', async () => {
    const auth = authServer();
    const onTokens = vi.fn();
    h = await harness(auth.handler, { onTokens });
    auth.expireAccess(); // server now wants access-2; our access-1 gets a 401
    // The server's refresh token rotated with the expiry above; hand the session the one
    // the server expects, as if it had been issued together with access-1.
    const session = createSession(h.server.url, {
      tokens: { ...auth.currentTokens(), accessToken: 'access-1' },
      clock: () => NOW,
      onTokens,
      http: h.session.http,
    });
    const client = createApiClient({ baseUrl: h.server.url, orgId: 3, session });
    const t = await client.ops.getTaskById({ path: { taskId: 1 } });
    expect(t.taskId).toBe(1);
    expect(auth.state.refreshCalls).toBe(1);
    const calls = taskCalls(h.server);
    expect(calls.map((c) => c.headers.authorization)).toEqual([
      'Bearer access-1',
      'Bearer access-3',
    ]);
    expect(calls.every((c) => c.headers['x-org-id'] === '3')).toBe(true);
    const refreshReq = h.server.requests.find((r) => r.path === '/v1/auth/refresh');
    expect(refreshReq?.headers.authorization).toBeUndefined();
    expect(refreshReq?.headers['x-org-id']).toBeUndefined();
    expect(onTokens).toHaveBeenCalledTimes(1);
    expect(onTokens.mock.calls[0]?.[0]).toMatchObject({
      accessToken: 'access-3',
      refreshToken: 'refresh-token-000003',
    });
  });

  it('ten concurrent calls meeting an expired token cause exactly one refresh', async () => {
    const auth = authServer({ refreshDelayMs: 50 });
    // The access token is known to be expired by the injected clock: a proactive refresh.
    h = await harness(auth.handler, { tokens: freshTokens(1, NOW - 1) });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => h?.client.ops.getTaskById({ path: { taskId: 1 } })),
    );
    expect(results.every((r) => r?.taskId === 1)).toBe(true);
    expect(auth.state.refreshCalls).toBe(1);
    const calls = taskCalls(h.server);
    expect(calls).toHaveLength(10);
    expect(new Set(calls.map((c) => c.headers.authorization))).toEqual(
      new Set(['Bearer access-2']),
    );
  });

  it('ten concurrent calls meeting a 401 cause exactly one refresh', async () => {
    const auth = authServer({ refreshDelayMs: 30 });
    h = await harness(auth.handler);
    await h.client.ops.getTaskById({ path: { taskId: 1 } });
    // The server expires access-1 but the client does not know: every call gets a 401.
    auth.expireAccess();
    const refreshValid = auth.currentTokens().refreshToken;
    const resumed = createSession(h.server.url, {
      tokens: { ...freshTokens(1), refreshToken: refreshValid },
      clock: () => NOW,
      http: h.session.http,
    });
    const client = createApiClient({ baseUrl: h.server.url, orgId: 1, session: resumed });
    const before = auth.state.refreshCalls;
    await Promise.all(
      Array.from({ length: 10 }, () => client.ops.getTaskById({ path: { taskId: 1 } })),
    );
    expect(auth.state.refreshCalls - before).toBe(1);
    expect(resumed.state).toBe('signed-in');
    const retried = taskCalls(h.server).slice(1);
    expect(retried.filter((c) => c.headers.authorization === 'Bearer access-1')).toHaveLength(10);
    expect(retried.filter((c) => c.headers.authorization === 'Bearer access-3')).toHaveLength(10);
  });

  it('a late 401 for a token already replaced reuses the new token without refreshing', async () => {
    let refreshes = 0;
    h = await harness(async (req, res) => {
      if (req.path === '/v1/auth/refresh') {
        refreshes++;
        return ok(res, authAnswer(refreshes + 1));
      }
      if (req.headers.authorization === 'Bearer access-1') {
        // The call for task 2 hears its 401 only after task 1's refresh has finished.
        if (req.path === '/v1/tasks/2') await new Promise((r) => setTimeout(r, 150));
        return fail(res, 401, 'UNAUTHORIZED', 'expired');
      }
      return ok(res, aTask(Number(req.path.split('/').at(-1))));
    });
    const client = h.client;
    const [a, b] = await Promise.all([
      client.ops.getTaskById({ path: { taskId: 1 } }),
      client.ops.getTaskById({ path: { taskId: 2 } }),
    ]);
    expect([a.taskId, b.taskId]).toEqual([1, 2]);
    expect(refreshes).toBe(1);
  });

  it('keeps the rotated refresh token: a second refresh uses the new one', async () => {
    const auth = authServer();
    let now = NOW;
    h = await harness(auth.handler, { clock: () => now });
    await h.client.ops.getTaskById({ path: { taskId: 1 } });
    now += 901_000; // past access-1's expiry: refresh (gets access-2 and a new refresh token)
    await h.client.ops.getTaskById({ path: { taskId: 1 } });
    now += 901_000; // again: the server accepts only the rotated refresh token
    await h.client.ops.getTaskById({ path: { taskId: 1 } });
    expect(auth.state.refreshCalls).toBe(2);
    const refreshBodies = h.server.requests
      .filter((r) => r.path === '/v1/auth/refresh')
      .map((r) => JSON.parse(r.body.toString()).refreshToken);
    expect(refreshBodies).toEqual(['refresh-token-000001', 'refresh-token-000002']);
    expect(h.session.state).toBe('signed-in');
  });

  it('a refused refresh signs out: auth error, onSignedOut once, later calls fail unsent', async () => {
    const auth = authServer({ refuseRefresh: true });
    const onSignedOut = vi.fn();
    h = await harness(auth.handler, { tokens: freshTokens(1, NOW - 1), onSignedOut });
    const client = h.client;
    const errors = await Promise.all([
      rejection(client.ops.getTaskById({ path: { taskId: 1 } })),
      rejection(client.ops.getAllSpaces()),
      rejection(client.ops.getActiveTimers()),
    ]);
    // One refresh for all three, and each error names its own operation.
    expect(auth.state.refreshCalls).toBe(1);
    expect(errors.map((e) => (e as ApiClientError).operationId)).toEqual([
      'getTaskById',
      'getAllSpaces',
      'getActiveTimers',
    ]);
    for (const e of errors) {
      expect(e).toBeInstanceOf(ApiClientError);
      expect((e as ApiClientError).kind).toBe('auth');
    }
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    expect(h.session.state).toBe('signed-out');
    const sent = h.server.requests.length;
    const later = await rejection(h.client.ops.getAllSpaces());
    expect((later as ApiClientError).kind).toBe('auth');
    expect(h.server.requests.length).toBe(sent);
  });

  it('a retry that meets a 401 again fails with auth and refreshes no more', async () => {
    let refreshes = 0;
    h = await harness((req, res) => {
      if (req.path === '/v1/auth/refresh') {
        refreshes++;
        return ok(res, authAnswer(refreshes + 1));
      }
      return fail(res, 401, 'UNAUTHORIZED', 'no');
    });
    const e = await rejection(h.client.ops.getAllSpaces());
    expect((e as ApiClientError).kind).toBe('auth');
    expect(refreshes).toBe(1);
    expect(h.server.requests.filter((r) => r.path === '/v1/spaces')).toHaveLength(2);
    expect(h.session.state).toBe('signed-in');
  });

  it('a refresh that fails on the network keeps the session', async () => {
    let refreshFails = true;
    h = await harness(
      (req, res, raw) => {
        if (req.path === '/v1/auth/refresh') {
          if (refreshFails) {
            raw.socket.destroy();
            return;
          }
          return ok(res, authAnswer(2));
        }
        return ok(res, []);
      },
      { tokens: freshTokens(1, NOW - 1) },
    );
    const e = await rejection(h.client.ops.getAllSpaces());
    expect((e as ApiClientError).kind).toBe('network');
    expect(h.session.state).toBe('signed-in');
    refreshFails = false;
    await expect(h.client.ops.getAllSpaces()).resolves.toEqual([]);
  });

  it('signOut makes every later call an auth error without a request', async () => {
    h = await harness((_req, res) => ok(res, []));
    h.session.signOut();
    const e = await rejection(h.client.ops.getAllSpaces());
    expect((e as ApiClientError).kind).toBe('auth');
    expect(h.server.requests).toHaveLength(0);
  });

  it('never shows tokens in inspect output or error messages', async () => {
    const auth = authServer({ refuseRefresh: true });
    h = await harness(auth.handler, { tokens: freshTokens(1, NOW - 1) });
    const e = await rejection(h.client.ops.getAllSpaces());
    const text = `${inspect(h.session, { depth: 5 })} ${inspect(h.client, { depth: 3 })} ${
      (e as Error).message
    } ${JSON.stringify(e)}`;
    expect(text).not.toContain('access-1');
    expect(text).not.toContain('refresh-token-000001');
  });

  it('shares one session across forOrg clients', async () => {
    const auth = authServer();
    h = await harness(auth.handler, { tokens: freshTokens(1, NOW - 1) });
    await Promise.all([
      h.client.ops.getTaskById({ path: { taskId: 1 } }),
      h.client.forOrg(2).ops.getTaskById({ path: { taskId: 1 } }),
    ]);
    expect(auth.state.refreshCalls).toBe(1);
    expect(
      taskCalls(h.server)
        .map((c) => c.headers['x-org-id'])
        .sort(),
    ).toEqual(['1', '2']);
  });

  it('uses an injected HTTP layer for refreshes too', async () => {
    const auth = authServer();
    server = await startServer(auth.handler);
    const http = createHttp(fastHttp);
    const send = vi.spyOn(http, 'send');
    const session = createSession(server.url, {
      tokens: freshTokens(1, NOW - 1),
      clock: () => NOW,
      http,
    });
    const client = createApiClient({ baseUrl: server.url, orgId: 1, session });
    await client.ops.getTaskById({ path: { taskId: 1 } });
    expect(send.mock.calls.map((c) => c[0].operationId)).toEqual(['authRefresh', 'getTaskById']);
    await http.close();
  });
});
