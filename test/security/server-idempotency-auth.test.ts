/**
 * Item 7 of issue 15: Idempotency-Key is this server's extension for a signed-in user's
 * writes. Sign-in and refresh have no user to scope the key to and answer live tokens: the
 * key is ignored there (nothing stored, nothing replayed, no 409 across callers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const post = (path: string, body: unknown, key: string, token?: string) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'idempotency-key': key,
      ...(token ? { authorization: `Bearer ${token}`, 'x-org-id': String(server.orgs.acme) } : {}),
    },
    body: JSON.stringify(body),
  });
const storedKeys = () =>
  (server.deps.db.prepare('SELECT COUNT(*) AS n FROM idempotency_keys').get() as { n: number }).n;

describe('Idempotency-Key on operations without a signed-in user', () => {
  it('sign-in stores no answer and replays none', async () => {
    const body = { email: 'alice@example.com', password: server.password };
    const first = await post('/v1/auth/token', body, 'sign-in-key');
    const second = await post('/v1/auth/token', body, 'sign-in-key');
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    const a = ((await first.json()) as { data: { accessToken: string } }).data.accessToken;
    const b = ((await second.json()) as { data: { accessToken: string } }).data.accessToken;
    expect(a).not.toBe(b);
    expect(storedKeys()).toBe(0);
  });

  it('a refresh sent again with the same key does not bypass rotation', async () => {
    const signIn = await post(
      '/v1/auth/token',
      { email: 'bob@example.com', password: server.password },
      'k1',
    );
    const { refreshToken } = ((await signIn.json()) as { data: { refreshToken: string } }).data;
    const first = await post('/v1/auth/refresh', { refreshToken }, 'refresh-key');
    expect(first.status).toBe(200);
    const again = await post('/v1/auth/refresh', { refreshToken }, 'refresh-key');
    expect(again.status).toBe(401);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(storedKeys()).toBe(0);
  });

  it('anonymous callers do not share a key space: a used key is no 409 to someone else', async () => {
    await post('/v1/auth/token', { email: 'alice@example.com', password: server.password }, 'x');
    const other = await post(
      '/v1/auth/token',
      { email: 'carol@example.com', password: server.password },
      'x',
    );
    expect(other.status).toBe(200);
  });

  it('a signed-in write still honours the key', async () => {
    const signIn = await post(
      '/v1/auth/token',
      { email: 'alice@example.com', password: server.password },
      'k2',
    );
    const { accessToken } = ((await signIn.json()) as { data: { accessToken: string } }).data;
    const body = { spaceName: 'Idempotent space' };
    const first = await post('/v1/spaces', body, 'create-space', accessToken);
    const second = await post('/v1/spaces', body, 'create-space', accessToken);
    expect(first.status).toBe(second.status);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(storedKeys()).toBe(1);
  });
});
