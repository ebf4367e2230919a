/**
 * The reference server's fault injection beyond the basic kinds (auth.test.ts maps those to
 * the client's errors): `hold` keeps a committed answer until released or until the client's
 * connection closes, every fault that fires is counted by kind and method, and a 429's
 * Retry-After is configurable down to 0. Real HTTP to a server on 127.0.0.1, admin on.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseFaultSpec } from '../../server/faults';
import { clientFor } from '../support/client';
import { insertTask } from '../support/fixtures-items';
import { rejection } from '../support/fixtures-work';
import { signInRaw, startTestServer, type TestServer } from '../support/server';
import { signedIn, suiteServer } from './support';

const ctx = suiteServer({ alice: signedIn('alice', 'acme') });

const stateSchema = z.object({
  faults: z.object({ held: z.number().int(), hits: z.record(z.string(), z.number().int()) }),
});
type FaultCounts = z.infer<typeof stateSchema>['faults'];

const admin = async (server: TestServer, body: unknown) => {
  const res = await fetch(`${server.url}/__admin/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`admin faults: ${res.status} ${await res.text()}`);
};

const faultState = async (server: TestServer = ctx.server): Promise<FaultCounts> =>
  stateSchema.parse(await (await fetch(`${server.url}/__admin/state`)).json()).faults;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls the admin state until `held` answers are held (a request has committed and waits). */
const untilHeld = async (held: number, server: TestServer = ctx.server) => {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const state = await faultState(server);
    if (state.held === held) return;
    if (Date.now() > deadline) throw new Error(`held stayed ${state.held}, waited for ${held}`);
    await sleep(10);
  }
};

/** Whether `promise` is still pending after a moment: a held answer must not arrive. */
const stillPending = async (promise: Promise<unknown>) => {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await sleep(100);
  return !settled;
};

const holdNext = (method: string, pathPrefix: string, server: TestServer = ctx.server) =>
  admin(server, { rules: [{ kind: 'hold', method, pathPrefix, count: 1 }] });

const spaceRow = (spaceId: number) =>
  ctx.server.deps.db
    .prepare('SELECT space_name AS name, deleted FROM spaces WHERE space_id = ?')
    .get(spaceId) as { name: string; deleted: number } | undefined;

const spacesNamed = (server: TestServer, name: string) =>
  (
    server.deps.db.prepare('SELECT COUNT(*) AS n FROM spaces WHERE space_name = ?').get(name) as {
      n: number;
    }
  ).n;

afterEach(async () => {
  await admin(ctx.server, { clear: true, release: true });
});

describe('hold', () => {
  it('commits a create, holds its answer until released, then answers it normally', async () => {
    await holdNext('POST', '/v1/spaces');
    const created = ctx.alice.ops.createSpace({
      body: { spaceName: 'Held create' },
      idempotencyKey: 'hold-create-1',
    });
    await untilHeld(1);
    expect(ctx.server.deps.faults.state().held).toBe(1);
    expect(spacesNamed(ctx.server, 'Held create')).toBe(1);
    expect(await stillPending(created)).toBe(true);

    await admin(ctx.server, { release: true });
    const space = await created;
    expect(space.spaceName).toBe('Held create');
    expect(spaceRow(space.spaceId)?.name).toBe('Held create');
    expect((await faultState()).held).toBe(0);
  });

  it('ends when the client closes its connection: nothing left held, the server serves on', async () => {
    const { accessToken } = await signInRaw(ctx.server.url, 'alice@example.com');
    await holdNext('POST', '/v1/spaces');
    const { port } = new URL(ctx.server.url);
    const answered = { value: false };
    const req = request({
      host: '127.0.0.1',
      port,
      path: '/v1/spaces',
      method: 'POST',
      agent: false,
      headers: {
        authorization: `Bearer ${accessToken}`,
        'x-org-id': String(ctx.server.orgs.acme),
        'content-type': 'application/json',
      },
    });
    req.on('response', () => {
      answered.value = true;
    });
    // The destroy below makes the request fail; that failure is the point, not an error.
    const closed = new Promise<void>((resolve) => req.on('close', () => resolve()));
    req.on('error', () => {});
    req.end(JSON.stringify({ spaceName: 'Client died' }));
    await untilHeld(1);
    expect(spacesNamed(ctx.server, 'Client died')).toBe(1);

    req.destroy();
    await closed;
    await untilHeld(0);
    expect(answered.value).toBe(false);
    expect((await ctx.alice.ops.getAllSpaces()).map((s) => s.spaceName)).toContain('Client died');
    // A release with nothing held is harmless.
    await admin(ctx.server, { release: true });
    expect(spacesNamed(ctx.server, 'Client died')).toBe(1);
  });

  it('holds updates and deletes after they commit', async () => {
    const { spaceId } = await ctx.alice.ops.createSpace({ body: { spaceName: 'Before' } });

    await holdNext('PUT', `/v1/spaces/${spaceId}`);
    const updated = ctx.alice.ops.updateSpace({
      path: { spaceId },
      body: { spaceName: 'After' },
    });
    await untilHeld(1);
    expect(spaceRow(spaceId)?.name).toBe('After');
    expect(await stillPending(updated)).toBe(true);
    await admin(ctx.server, { release: true });
    expect((await updated).spaceName).toBe('After');

    await holdNext('DELETE', `/v1/spaces/${spaceId}`);
    const deleted = ctx.alice.ops.deleteSpace({ path: { spaceId } });
    await untilHeld(1);
    expect(spaceRow(spaceId)?.deleted).toBe(1);
    expect(await stillPending(deleted)).toBe(true);
    await admin(ctx.server, { release: true });
    await deleted;
    expect((await faultState()).held).toBe(0);
  });

  it('holds a multipart upload after its files are stored, and the bulk export’s bytes', async () => {
    const who = { orgId: ctx.server.orgs.acme, userId: ctx.server.users.alice };
    const taskId = insertTask(ctx.server.deps.db, who, ctx.server.deps.clock.now());
    const stored = () =>
      (
        ctx.server.deps.db
          .prepare('SELECT COUNT(*) AS n FROM attachments WHERE task_id = ?')
          .get(taskId) as { n: number }
      ).n;

    await holdNext('POST', `/v1/tasks/${taskId}/attachments`);
    const uploaded = ctx.alice.ops.uploadTaskAttachments({
      path: { taskId },
      files: [{ name: 'held.txt', data: new TextEncoder().encode('held bytes') }],
    });
    await untilHeld(1);
    expect(stored()).toBe(1);
    expect(await stillPending(uploaded)).toBe(true);
    await admin(ctx.server, { release: true });
    expect((await uploaded).map((a) => a.fileName)).toEqual(['held.txt']);

    await holdNext('GET', '/v1/bulk/tasks');
    const page = ctx.alice.ops.bulkTasks();
    await untilHeld(1);
    expect(await stillPending(page)).toBe(true);
    await admin(ctx.server, { release: true });
    // Parsed whole by the client: the released Buffer went out unchanged.
    expect((await page).items.map((t) => t.taskId)).toContain(taskId);
  });

  it('does not keep a closing server waiting: held answers are dropped', async () => {
    const server = await startTestServer();
    const alice = await clientFor(server, 'alice', 'acme');
    try {
      await holdNext('POST', '/v1/spaces', server);
      const created = rejection(alice.ops.createSpace({ body: { spaceName: 'Closing' } }));
      await untilHeld(1, server);
      expect(spacesNamed(server, 'Closing')).toBe(1);
      const started = Date.now();
      await server.close();
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(server.deps.faults.state().held).toBe(0);
      expect(await created).toMatchObject({ kind: 'network' });
    } finally {
      await alice.close();
    }
  });

  it('is also a rate of --faults', () => {
    expect(parseFaultSpec('hold=0.25,seed=3')).toMatchObject({ hold: 0.25, seed: 3 });
    expect(() => parseFaultSpec('hold=2')).toThrow();
  });
});

describe('hits', () => {
  /** The counters that grew between two states. */
  const grown = (before: FaultCounts, after: FaultCounts) =>
    Object.fromEntries(
      Object.entries(after.hits)
        .map(([key, n]): [string, number] => [key, n - (before.hits[key] ?? 0)])
        .filter(([, n]) => n !== 0),
    );

  it('counts each fault that fires by kind and method; clear keeps the counts', async () => {
    const { spaceId } = await ctx.alice.ops.createSpace({ body: { spaceName: 'Hit' } });
    const before = await faultState();
    await admin(ctx.server, {
      rules: [
        { kind: 'drop', method: 'PUT', pathPrefix: `/v1/spaces/${spaceId}` },
        { kind: '5xx', method: 'DELETE', pathPrefix: `/v1/spaces/${spaceId}` },
      ],
    });
    expect(
      await rejection(
        ctx.alice.ops.updateSpace({ path: { spaceId }, body: { spaceName: 'Hit again' } }),
      ),
    ).toMatchObject({ kind: 'network' });
    expect(await rejection(ctx.alice.ops.deleteSpace({ path: { spaceId } }))).toMatchObject({
      kind: 'server',
    });
    // A request no fault fires on counts nothing.
    await ctx.alice.ops.getSpaceById({ path: { spaceId } });
    const after = await faultState();
    expect(grown(before, after)).toEqual({ 'drop PUT': 1, '5xx DELETE': 1 });

    await admin(ctx.server, { clear: true });
    expect(grown(before, await faultState())).toEqual({ 'drop PUT': 1, '5xx DELETE': 1 });
    expect(ctx.server.deps.faults.state().hits).toEqual(after.hits);
  });

  it('counts rates and latency as well', async () => {
    const before = await faultState();
    await admin(ctx.server, { spec: 'latency=1-1,5xx=1,seed=1' });
    expect(await rejection(ctx.alice.ops.getAllSpaces())).toMatchObject({ kind: 'server' });
    await admin(ctx.server, { clear: true });
    expect(grown(before, await faultState())).toEqual({ 'latency GET': 1, '5xx GET': 1 });
  });
});

describe('429 Retry-After', () => {
  it('answers the rule’s retryAfterSec, 0 included, and the client reads 0 as 0 ms', async () => {
    await admin(ctx.server, {
      rules: [{ kind: '429', method: 'GET', pathPrefix: '/v1/spaces', retryAfterSec: 0 }],
    });
    const res = await fetch(`${ctx.server.url}/v1/spaces`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('0');

    await admin(ctx.server, {
      rules: [{ kind: '429', method: 'GET', pathPrefix: '/v1/spaces', retryAfterSec: 0 }],
    });
    expect(await rejection(ctx.alice.ops.getAllSpaces())).toMatchObject({
      kind: 'rate-limit',
      retryAfterMs: 0,
    });

    await admin(ctx.server, {
      rules: [{ kind: '429', method: 'GET', pathPrefix: '/v1/spaces', retryAfterSec: 120 }],
    });
    expect((await fetch(`${ctx.server.url}/v1/spaces`)).headers.get('retry-after')).toBe('120');
    await admin(ctx.server, { rules: [{ kind: '429', method: 'GET', pathPrefix: '/v1/spaces' }] });
    expect((await fetch(`${ctx.server.url}/v1/spaces`)).headers.get('retry-after')).toBe('1');
  });

  it('takes retryAfter=N in the rates and refuses what is out of range', async () => {
    await admin(ctx.server, { spec: '429=1,retryAfter=0' });
    const res = await fetch(`${ctx.server.url}/v1/spaces`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('0');
    expect(parseFaultSpec('429=0.1').retryAfter).toBe(1);
    expect(() => parseFaultSpec('retryAfter=3601')).toThrow();
    expect(() => parseFaultSpec('retryAfter=0.5')).toThrow();
    const refused = await fetch(`${ctx.server.url}/__admin/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: [{ kind: '429', retryAfterSec: -1 }] }),
    });
    expect(refused.status).toBe(400);
  });
});
