import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { createApiClient, signIn } from '../../sync/api';
import { clientFor } from '../support/client';
import { rejection } from '../support/fixtures-work';
import { signedIn, suiteServer } from './support';

const ctx = suiteServer({ alice: signedIn('alice', 'acme') }, { accessTtlSec: 900 });

const raw = (path: string, init: RequestInit = {}) => fetch(`${ctx.server.url}${path}`, init);

describe('Auth', () => {
  it('issues tokens with the contract shape and the user’s organizations', async () => {
    const session = await signIn(ctx.server.url, 'alice@example.com', ctx.server.password);
    expect(session.user?.userId).toBe(ctx.server.users.alice);
    expect(session.organizations?.map((o) => o.orgId).sort()).toEqual(
      [ctx.server.orgs.acme, ctx.server.orgs.globex].sort(),
    );
    const res = await raw('/v1/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bob@example.com', password: ctx.server.password }),
    });
    const body = (await res.json()) as { data: Record<string, unknown> };
    expect(res.status).toBe(200);
    expect(body.data).toMatchObject({
      tokenType: 'Bearer',
      expiresIn: 900,
      refreshExpiresIn: 2_592_000,
    });
    expect(body.data.organizations).toEqual([{ orgId: ctx.server.orgs.acme, orgName: 'Acme' }]);
    await session.close();
  });

  it('refuses a wrong password or an unknown email alike, with 401', async () => {
    for (const [email, password] of [
      ['alice@example.com', 'wrong-password'],
      ['nobody@example.com', ctx.server.password],
    ]) {
      const e = await rejection(signIn(ctx.server.url, email as string, password as string));
      expect(e.kind).toBe('auth');
      expect(e.status).toBe(401);
    }
  });

  it('rotates the refresh token: the old one stops working', async () => {
    const first = await (
      await raw('/v1/auth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'alice@example.com', password: ctx.server.password }),
      })
    ).json();
    const refresh = (token: string) =>
      raw('/v1/auth/refresh', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken: token }),
      });
    const old = (first as { data: { refreshToken: string } }).data.refreshToken;
    const second = await refresh(old);
    expect(second.status).toBe(200);
    const again = await refresh(old);
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ success: false, code: 401, status: 'UNAUTHORIZED' });
  });

  it('answers 401 without a token, with a bad one and with an expired one; the client refreshes once and goes on', async () => {
    expect(
      (await raw('/v1/spaces', { headers: { 'x-org-id': String(ctx.server.orgs.acme) } })).status,
    ).toBe(401);
    expect(
      (
        await raw('/v1/spaces', {
          headers: { authorization: 'Bearer nope', 'x-org-id': String(ctx.server.orgs.acme) },
        })
      ).status,
    ).toBe(401);
    await ctx.alice.ops.getAllSpaces();
    // Past the access token's lifetime: the next call meets a 401, refreshes once, retries.
    ctx.server.deps.clock.setOffset(ctx.server.deps.clock.offset() + 901_000);
    try {
      const spaces = await ctx.alice.ops.getAllSpaces();
      expect(Array.isArray(spaces)).toBe(true);
    } finally {
      ctx.server.deps.clock.setOffset(0);
    }
  });

  it('answers 400 for a missing or non-integer X-Org-Id and 403 for an org the user is not in', async () => {
    const token = await ctx.alice.session.accessToken('getAllSpaces');
    const get = (org?: string) =>
      raw('/v1/spaces', {
        headers: {
          authorization: `Bearer ${token}`,
          ...(org === undefined ? {} : { 'x-org-id': org }),
        },
      });
    const missing = await get();
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ errors: [{ field: 'X-Org-Id' }] });
    expect((await get('abc')).status).toBe(400);
    expect((await get('1.5')).status).toBe(400);
    const bob = await clientFor(ctx.server, 'bob', 'acme');
    const e = await rejection(bob.forOrg(ctx.server.orgs.globex).ops.getAllSpaces());
    expect(e.kind).toBe('forbidden');
    await bob.close();
  });
});

describe('Every operation and bad input', () => {
  it('has a route for every operation of the endpoint table', async () => {
    const built = await buildApp({ dataDir: null });
    expect(built.missing).toEqual([]);
    await built.app.close();
  });

  it('refuses malformed JSON, wrong types, oversized bodies and non-integer ids with 400/413 and writes nothing', async () => {
    const token = await ctx.alice.session.accessToken('createSpace');
    const headers = {
      authorization: `Bearer ${token}`,
      'x-org-id': String(ctx.server.orgs.acme),
      'content-type': 'application/json',
    };
    const count = () =>
      (ctx.server.deps.db.prepare('SELECT COUNT(*) AS n FROM spaces').get() as { n: number }).n;
    const before = count();
    const malformed = await raw('/v1/spaces', { method: 'POST', headers, body: '{"spaceName": ' });
    expect(malformed.status).toBe(400);
    const wrongType = await raw('/v1/spaces', {
      method: 'POST',
      headers,
      body: JSON.stringify({ spaceName: 42 }),
    });
    expect(wrongType.status).toBe(400);
    expect(await wrongType.json()).toMatchObject({
      status: 'BAD_REQUEST',
      errors: [{ field: 'spaceName', rejectedValue: 42 }],
    });
    const huge = await raw('/v1/spaces', {
      method: 'POST',
      headers,
      body: JSON.stringify({ spaceName: 'x', description: 'y'.repeat(1_100_000) }),
    });
    expect(huge.status).toBe(413);
    const badId = await raw('/v1/spaces/abc', { headers });
    expect(badId.status).toBe(400);
    expect(await badId.json()).toMatchObject({ errors: [{ field: 'spaceId' }] });
    expect((await raw('/v1/spaces/0', { headers })).status).toBe(400);
    expect((await raw('/v1/nowhere', { headers })).status).toBe(404);
    expect(count()).toBe(before);
  });
});

describe('Idempotency-Key (this server’s extension)', () => {
  it('answers the first answer again for the same key and request, creating nothing twice', async () => {
    const count = () =>
      (
        ctx.server.deps.db
          .prepare("SELECT COUNT(*) AS n FROM spaces WHERE space_name = 'Once'")
          .get() as { n: number }
      ).n;
    const a = await ctx.alice.ops.createSpace({
      body: { spaceName: 'Once' },
      idempotencyKey: 'key-1',
    });
    const b = await ctx.alice.ops.createSpace({
      body: { spaceName: 'Once' },
      idempotencyKey: 'key-1',
    });
    expect(b.spaceId).toBe(a.spaceId);
    expect(count()).toBe(1);
    const c = await ctx.alice.ops.createSpace({
      body: { spaceName: 'Once' },
      idempotencyKey: 'key-2',
    });
    expect(c.spaceId).not.toBe(a.spaceId);
    expect(count()).toBe(2);
  });

  it('refuses the same key with a different request (409) and keys are per user', async () => {
    await ctx.alice.ops.createSpace({ body: { spaceName: 'First' }, idempotencyKey: 'key-3' });
    const e = await rejection(
      ctx.alice.ops.createSpace({ body: { spaceName: 'Second' }, idempotencyKey: 'key-3' }),
    );
    expect(e.kind).toBe('conflict');
    const bob = await clientFor(ctx.server, 'bob', 'acme');
    const mine = await bob.ops.createSpace({
      body: { spaceName: 'Second' },
      idempotencyKey: 'key-3',
    });
    expect(mine.spaceName).toBe('Second');
    await bob.close();
  });

  it('forgets a key after 24 hours', async () => {
    const a = await ctx.alice.ops.createSpace({
      body: { spaceName: 'Daily' },
      idempotencyKey: 'key-4',
    });
    ctx.server.deps.clock.setOffset(24 * 3600 * 1000 + 1000);
    try {
      const fresh = await signIn(ctx.server.url, 'alice@example.com', ctx.server.password);
      const later = createApiClient({
        baseUrl: ctx.server.url,
        orgId: ctx.server.orgs.acme,
        session: fresh,
      });
      const b = await later.ops.createSpace({
        body: { spaceName: 'Daily' },
        idempotencyKey: 'key-4',
      });
      expect(b.spaceId).not.toBe(a.spaceId);
      await later.close();
    } finally {
      ctx.server.deps.clock.setOffset(0);
    }
  });
});

describe('Fault injection', () => {
  const rule = (kind: string, pathPrefix = '/v1/spaces') =>
    raw('/__admin/faults', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: [{ kind, pathPrefix, count: 1 }] }),
    });

  it('maps each injected fault to the client’s error kinds', async () => {
    await rule('5xx');
    expect(await rejection(ctx.alice.ops.getAllSpaces())).toMatchObject({
      kind: 'server',
      transient: true,
    });
    await rule('429');
    expect(await rejection(ctx.alice.ops.getAllSpaces())).toMatchObject({
      kind: 'rate-limit',
      retryAfterMs: 1000,
    });
    await rule('reset');
    expect(await rejection(ctx.alice.ops.getAllSpaces())).toMatchObject({ kind: 'network' });
    await rule('malformed');
    expect(await rejection(ctx.alice.ops.getAllSpaces())).toMatchObject({ kind: 'bad-response' });
    await rule('gone');
    expect(await rejection(ctx.alice.ops.getAllSpaces())).toMatchObject({ status: 410 });
    expect(Array.isArray(await ctx.alice.ops.getAllSpaces())).toBe(true);
  });

  it('drop commits the write and loses the answer; the same Idempotency-Key then returns it', async () => {
    const count = () =>
      (
        ctx.server.deps.db
          .prepare("SELECT COUNT(*) AS n FROM spaces WHERE space_name = 'Dropped'")
          .get() as { n: number }
      ).n;
    await rule('drop');
    expect(
      await rejection(
        ctx.alice.ops.createSpace({ body: { spaceName: 'Dropped' }, idempotencyKey: 'drop-1' }),
      ),
    ).toMatchObject({ kind: 'network' });
    expect(count()).toBe(1);
    const again = await ctx.alice.ops.createSpace({
      body: { spaceName: 'Dropped' },
      idempotencyKey: 'drop-1',
    });
    expect(again.spaceName).toBe('Dropped');
    expect(count()).toBe(1);
  });

  it('refuses a bad fault spec', async () => {
    const res = await raw('/__admin/faults', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ spec: '5xx=2' }),
    });
    expect(res.status).toBe(400);
  });
});
