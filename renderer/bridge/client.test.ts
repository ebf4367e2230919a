import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBridgeClient } from './client';
import { httpTransport } from './transports';

/** A host over real HTTP answering `users.list` with whatever the test holds now. */
let server: Server;
let base = '';
let users = [{ userId: 1, firstName: 'Ada' }];
let served = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    served++;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, value: { users } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('the browser-mode bridge', () => {
  it('hands back the same checked output when the host answers the same text again', async () => {
    const client = createBridgeClient(httpTransport(base, 'secret'));
    const first = await client.invoke('users.list', {});
    const again = await client.invoke('users.list', {});
    expect(served).toBe(2);
    // Asked and answered twice, parsed and checked once: the very same object.
    expect(again).toBe(first);

    users = [{ userId: 1, firstName: 'Grace' }];
    const changed = await client.invoke('users.list', {});
    expect(changed).not.toBe(first);
    expect(changed.users[0]?.firstName).toBe('Grace');
  });

  it('still checks what a transport hands back as a new envelope', async () => {
    let answer: unknown = { ok: true, value: { users: [{ userId: 2 }] } };
    const client = createBridgeClient({
      invoke: async () => answer,
      subscribe: () => () => undefined,
    });
    await client.invoke('users.list', {});
    answer = { ok: true, value: { users: [{ userId: 'not a number' }] } };
    await expect(client.invoke('users.list', {})).rejects.toMatchObject({ code: 'invalid-output' });
  });
});
