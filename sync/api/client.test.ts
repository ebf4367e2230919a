import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from './client';
import { ApiClientError } from './errors';
import { createHttp } from './http';
import { createSession } from './session';
import {
  aTask,
  fail,
  freshTokens,
  type Harness,
  harness,
  NOW,
  ok,
  rejection,
  sendJson,
} from './test-support';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const asError = (e: unknown): ApiClientError => {
  expect(e).toBeInstanceOf(ApiClientError);
  return e as ApiClientError;
};

describe('envelope', () => {
  it('unwraps data and parses it by the row schema', async () => {
    h = await harness((_req, res) => ok(res, aTask(5, { extraField: 'kept' })));
    const t = await h.client.ops.getTaskById({ path: { taskId: 5 } });
    expect(t.taskId).toBe(5);
    expect(t.taskTitle).toBe('Task 5');
    expect((t as Record<string, unknown>).extraField).toBe('kept');
    expect(h.server.requests[0]?.path).toBe('/v1/tasks/5');
    expect(h.server.requests[0]?.method).toBe('GET');
  });

  it('answers void for a 204 and for a row without data', async () => {
    h = await harness((req, res) => {
      if (req.method === 'DELETE' && req.path.includes('checklists')) {
        res.writeHead(204);
        res.end();
      } else ok(res);
    });
    await expect(
      h.client.ops.deleteCheckListForTask({ path: { taskId: 1, checklistId: 2 } }),
    ).resolves.toBeUndefined();
    await expect(h.client.ops.deleteTimeTracker({ path: { trackId: 3 } })).resolves.toBeUndefined();
  });

  it('returns bytes and content type for a binary operation', async () => {
    h = await harness((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from([1, 2, 3, 255]));
    });
    const out = await h.client.ops.getTaskAttachmentContent({
      path: { taskId: 1, attachmentId: 9 },
    });
    expect([...out.bytes]).toEqual([1, 2, 3, 255]);
    expect(out.contentType).toBe('image/png');
    expect(h.server.requests[0]?.path).toBe('/v1/tasks/1/attachments/9/content');
  });

  const badBodies: [string, (res: import('node:http').ServerResponse) => void][] = [
    [
      'HTML with 200',
      (res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>portal</html>');
      },
    ],
    [
      'truncated JSON',
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"success":true,"message":"OK","code":200,"data":{"taskId":1');
      },
    ],
    ['a task without a title', (res) => ok(res, { taskId: 1 })],
    ['success:true with an array for data', (res) => ok(res, [aTask(1)])],
    ['no envelope at all', (res) => sendJson(res, 200, aTask(1))],
    ['success:false with a 200', (res) => fail(res, 200, 'OK', 'weird')],
    ['empty 200', (res) => res.end()],
  ];
  for (const [name, answer] of badBodies) {
    it(`maps ${name} to bad-response`, async () => {
      h = await harness((_req, res) => answer(res));
      const e = asError(await rejection(h.client.ops.getTaskById({ path: { taskId: 1 } })));
      expect(e.kind).toBe('bad-response');
      expect(e.transient).toBe(false);
      expect(e.operationId).toBe('getTaskById');
      expect(e.status).toBe(200);
      if (name.startsWith('success:false')) expect(e.message).toContain('weird');
    });
  }

  it('maps an HTML 502 from a proxy to server', async () => {
    h = await harness((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad Gateway</body></html>');
    });
    const e = asError(await rejection(h.client.ops.getAllSpaces()));
    expect(e).toMatchObject({ kind: 'server', status: 502, transient: true });
    expect(e.message).toContain('not JSON');
  });
});

describe('error statuses', () => {
  const cases: [number, string, string, boolean][] = [
    [400, 'BAD_REQUEST', 'validation', false],
    [401, 'UNAUTHORIZED', 'auth', false],
    [403, 'FORBIDDEN', 'forbidden', false],
    [404, 'NOT_FOUND', 'not-found', false],
    [409, 'CONFLICT', 'conflict', false],
    [413, 'PAYLOAD_TOO_LARGE', 'validation', false],
    [415, 'UNSUPPORTED_MEDIA_TYPE', 'validation', false],
    [429, 'TOO_MANY_REQUESTS', 'rate-limit', true],
    [500, 'INTERNAL_SERVER_ERROR', 'server', true],
    [503, 'SERVICE_UNAVAILABLE', 'server', true],
    [418, 'I_AM_A_TEAPOT', 'bad-response', false],
  ];
  for (const [status, name, kind, transient] of cases) {
    it(`maps ${status} to ${kind}`, async () => {
      // 401 would trigger a refresh; that path has its own tests, so refuse the refresh too.
      h = await harness((_req, res) => fail(res, status, name, `server says ${status}`));
      const e = asError(await rejection(h.client.ops.getSpaceById({ path: { spaceId: 2 } })));
      expect(e.kind).toBe(kind);
      expect(e.status).toBe(status === 401 ? 401 : status);
      expect(e.transient).toBe(transient);
      expect(e.operationId).toBe('getSpaceById');
      if (status !== 401) expect(e.message).toBe(`server says ${status}`);
      if (status !== 401) expect(e.serverStatus).toBe(name);
    });
  }

  it('carries field errors of a 400', async () => {
    h = await harness((_req, res) =>
      fail(res, 400, 'BAD_REQUEST', 'Validation failed', {
        errors: [{ field: 'taskTitle', message: 'must not be blank' }],
      }),
    );
    const e = asError(await rejection(h.client.ops.createTask({ body: { taskTitle: 'x' } })));
    expect(e.kind).toBe('validation');
    expect(e.fieldErrors).toEqual([{ field: 'taskTitle', message: 'must not be blank' }]);
  });

  it('reads Retry-After in seconds', async () => {
    h = await harness((_req, res) =>
      fail(res, 429, 'TOO_MANY_REQUESTS', 'slow down', { headers: { 'retry-after': '7' } }),
    );
    const e = asError(await rejection(h.client.ops.getAllSpaces()));
    expect(e).toMatchObject({ kind: 'rate-limit', retryAfterMs: 7000, transient: true });
  });

  it('reads Retry-After as an HTTP date against the injected clock', async () => {
    const at = new Date(NOW + 90_000).toUTCString();
    h = await harness((_req, res) =>
      fail(res, 429, 'TOO_MANY_REQUESTS', 'slow down', { headers: { 'retry-after': at } }),
    );
    const e = asError(await rejection(h.client.ops.getAllSpaces()));
    expect(e.retryAfterMs).toBe(90_000);
  });

  it('keeps the status kind when a 404 body is not an ApiError', async () => {
    h = await harness((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('nope');
    });
    const e = asError(await rejection(h.client.ops.getTaskById({ path: { taskId: 1 } })));
    expect(e).toMatchObject({ kind: 'not-found', status: 404 });
  });
});

describe('transport failures', () => {
  it('times out when the server never answers headers', async () => {
    h = await harness(() => {
      // never answer
    });
    const started = Date.now();
    const e = asError(await rejection(h.client.ops.getAllSpaces()));
    expect(e).toMatchObject({ kind: 'timeout', transient: true });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('times out when the body stalls midway', async () => {
    h = await harness((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"success":true,"message":"OK",');
    });
    const e = asError(await rejection(h.client.ops.getAllSpaces()));
    expect(e.kind).toBe('timeout');
  });

  it('honours a per-call headers timeout', async () => {
    // undici checks its socket timers about once a second, hence the 2.5 s answer.
    h = await harness(
      (_req, res) => {
        setTimeout(() => ok(res, []), 2_500);
      },
      { http: { timeouts: { headersMs: 10_000, bodyMs: 10_000 } } },
    );
    const started = Date.now();
    const e = asError(await rejection(h.client.ops.getAllSpaces({ timeouts: { headersMs: 200 } })));
    expect(e.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_400);
    await expect(h.client.ops.getAllSpaces()).resolves.toEqual([]);
  });

  it('honours a per-call total deadline', async () => {
    h = await harness(() => {});
    const e = asError(await rejection(h.client.ops.getAllSpaces({ timeouts: { totalMs: 50 } })));
    expect(e.kind).toBe('timeout');
  });

  it('maps a connection reset to network', async () => {
    h = await harness((_req, _res, raw) => {
      raw.socket.destroy();
    });
    const e = asError(await rejection(h.client.ops.getAllSpaces()));
    expect(e).toMatchObject({ kind: 'network', transient: true });
  });

  it('maps a reset in the middle of the body to network', async () => {
    h = await harness((_req, res, raw) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"success":true,', () => raw.socket.destroy());
    });
    const e = asError(await rejection(h.client.ops.getAllSpaces()));
    expect(e.kind).toBe('network');
  });

  it('maps a refused port to network', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const session = createSession(`http://127.0.0.1:${port}`, {
      tokens: freshTokens(),
      clock: () => NOW,
    });
    const client = createApiClient({ baseUrl: `http://127.0.0.1:${port}`, orgId: 1, session });
    try {
      const e = asError(await rejection(client.ops.getAllSpaces()));
      expect(e).toMatchObject({ kind: 'network', transient: true, operationId: 'getAllSpaces' });
    } finally {
      await client.close();
    }
  });

  it('maps a caller abort to network', async () => {
    h = await harness(() => {});
    const ac = new AbortController();
    const p = rejection(h.client.ops.getAllSpaces({ signal: ac.signal }));
    setTimeout(() => ac.abort(), 20);
    const e = asError(await p);
    expect(e).toMatchObject({ kind: 'network', message: 'request aborted' });
  });

  it('refuses a body larger than the cap', async () => {
    h = await harness((_req, res) => ok(res, [{ big: 'x'.repeat(5_000) }]), {
      http: { maxResponseBytes: 1_000 },
    });
    const e = asError(await rejection(h.client.ops.getAllSpaces()));
    expect(e.kind).toBe('bad-response');
  });
});

describe('headers and org', () => {
  it('sends the bearer and X-Org-Id on every call, and forOrg changes only the org', async () => {
    h = await harness((_req, res) => ok(res, []), { orgId: 11 });
    await h.client.ops.getAllSpaces();
    await h.client.forOrg(22).ops.getAllSpaces();
    await h.client.ops.getActiveTimers();
    const [a, b, c] = h.server.requests;
    expect(a?.headers.authorization).toBe('Bearer access-1');
    expect(a?.headers['x-org-id']).toBe('11');
    expect(b?.headers.authorization).toBe('Bearer access-1');
    expect(b?.headers['x-org-id']).toBe('22');
    expect(c?.headers['x-org-id']).toBe('11');
    expect(a?.headers['user-agent']).toMatch(/^worktray/);
  });

  it('uses the injected user agent', async () => {
    h = await harness((_req, res) => ok(res, []), { userAgent: 'test-agent/1' });
    await h.client.ops.getAllSpaces();
    expect(h.server.requests[0]?.headers['user-agent']).toBe('test-agent/1');
  });

  it('refuses a bad org id at creation', async () => {
    h = await harness((_req, res) => ok(res, []));
    expect(() => h?.client.forOrg(0)).toThrow(TypeError);
    expect(() => h?.client.forOrg(1.5)).toThrow(TypeError);
  });

  it('sends Idempotency-Key on a POST', async () => {
    h = await harness((_req, res) => ok(res, aTask(3)));
    await h.client.ops.createTask({ body: { taskTitle: 'Buy milk' }, idempotencyKey: 'k-123' });
    await h.client.ops.createTask({ body: { taskTitle: 'Buy tea' } });
    expect(h.server.requests[0]?.headers['idempotency-key']).toBe('k-123');
    expect(h.server.requests[1]?.headers['idempotency-key']).toBeUndefined();
    expect(JSON.parse(h.server.requests[0]?.body.toString() ?? '')).toEqual({
      taskTitle: 'Buy milk',
    });
    expect(h.server.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('keeps a base URL path prefix', async () => {
    h = await harness((_req, res) => ok(res, []));
    const c = createApiClient({
      baseUrl: `${h.server.url}/api/`,
      orgId: 1,
      session: h.session,
    });
    await c.ops.getAllSpaces();
    expect(h.server.requests[0]?.path).toBe('/api/v1/spaces');
  });
});

describe('input checked before sending', () => {
  it('refuses an invalid body and sends nothing', async () => {
    h = await harness((_req, res) => ok(res, aTask(1)));
    const e = asError(
      await rejection(h.client.ops.createTask({ body: { taskTitle: '   ', completion: 200 } })),
    );
    expect(e.kind).toBe('validation');
    expect(e.status).toBeUndefined();
    expect(e.fieldErrors.map((f) => f.field).sort()).toEqual(['body.completion', 'body.taskTitle']);
    expect(h.server.requests).toHaveLength(0);
  });

  it('refuses a bad path parameter and sends nothing', async () => {
    h = await harness((_req, res) => ok(res, aTask(1)));
    const e = asError(await rejection(h.client.ops.getTaskById({ path: { taskId: -1 } })));
    expect(e.kind).toBe('validation');
    expect(e.fieldErrors[0]?.field).toBe('path.taskId');
    const missing = asError(
      await rejection(h.client.call('getTaskById', { path: {} as { taskId: number } })),
    );
    expect(missing.kind).toBe('validation');
    expect(h.server.requests).toHaveLength(0);
  });

  it('refuses an unknown operation id as validation', async () => {
    h = await harness((_req, res) => ok(res, []));
    const e = asError(await rejection(h.client.call('toString' as 'getAllSpaces')));
    expect(e.kind).toBe('validation');
    expect(h.server.requests).toHaveLength(0);
  });

  it('refuses a malformed idempotency key', async () => {
    h = await harness((_req, res) => ok(res, aTask(1)));
    const e = asError(
      await rejection(h.client.ops.createTask({ body: { taskTitle: 'a' }, idempotencyKey: 'a b' })),
    );
    expect(e.kind).toBe('validation');
    expect(h.server.requests).toHaveLength(0);
  });
});

describe('query', () => {
  it('serializes arrays as repeated parameters and skips undefined', async () => {
    h = await harness((_req, res) => ok(res, { items: [], nextCursor: null, serverTime: NOW }));
    await h.client.ops.bulkTasks({ query: { modifiedSince: 5, cursor: undefined, size: 100 } });
    expect(h.server.requests[0]?.url).toBe('/v1/bulk/tasks?modifiedSince=5&size=100');
  });

  it('sends task filters the Spring way', async () => {
    const emptyPage = {
      content: [],
      totalElements: 0,
      totalPages: 0,
      size: 20,
      number: 0,
      first: true,
      last: true,
      numberOfElements: 0,
      empty: true,
    };
    h = await harness((_req, res) => ok(res, emptyPage));
    await h.client.ops.getAll({
      query: {
        title: 'a b&c',
        status: ['To Do', 'Done'],
        creators: [7, 8],
        overdue: true,
        sort: ['dueDate,asc', 'taskId,desc'],
        owners: undefined,
      },
    });
    const q = h.server.requests[0]?.query;
    expect(q?.get('title')).toBe('a b&c');
    expect(q?.getAll('status')).toEqual(['To Do', 'Done']);
    expect(q?.getAll('creators')).toEqual(['7', '8']);
    expect(q?.get('overdue')).toBe('true');
    expect(q?.getAll('sort')).toEqual(['dueDate,asc', 'taskId,desc']);
    expect(q?.has('owners')).toBe(false);
  });

  it('refuses an invalid query and sends nothing', async () => {
    h = await harness((_req, res) => ok(res, {}));
    const e = asError(await rejection(h.client.ops.bulkTasks({ query: { size: 999_999 } })));
    expect(e.kind).toBe('validation');
    expect(e.fieldErrors[0]?.field).toBe('query.size');
    expect(h.server.requests).toHaveLength(0);
  });
});

describe('pool', () => {
  it('reuses kept-alive connections and allows no more than 8 at once', async () => {
    const ports = new Set<number>();
    let open = 0;
    let maxOpen = 0;
    h = await harness((_req, res, raw) => {
      ports.add(raw.socket.remotePort ?? 0);
      open++;
      maxOpen = Math.max(maxOpen, open);
      setTimeout(() => {
        open--;
        ok(res, []);
      }, 20);
    });
    const client = h.client;
    await Promise.all(Array.from({ length: 30 }, () => client.ops.getAllSpaces()));
    expect(maxOpen).toBeLessThanOrEqual(8);
    expect(ports.size).toBeLessThanOrEqual(8);
    expect(h.server.requests).toHaveLength(30);
  });

  it('fails calls after close as network errors', async () => {
    const server = await harness((_req, res) => ok(res, []));
    await server.client.close();
    const e = asError(await rejection(server.client.ops.getAllSpaces()));
    expect(e.kind).toBe('network');
    await server.server.close();
  });

  it('a session leaves an HTTP layer it was handed open', async () => {
    h = await harness((_req, res) => ok(res, []));
    const shared = createHttp();
    const session = createSession(h.server.url, {
      tokens: freshTokens(),
      http: shared,
      clock: () => NOW,
    });
    await session.close();
    const c = createApiClient({ baseUrl: h.server.url, orgId: 1, session });
    await expect(c.ops.getAllSpaces()).resolves.toEqual([]);
    await shared.close();
  });
});
