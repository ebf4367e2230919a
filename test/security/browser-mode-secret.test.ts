import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_HEADER } from '../../main/web/server';
import { type BridgeFixture, openEvents, startBridgeFixture } from '../bridge/support';

// Issue 15 item 3: the secret travels in a header; the query form (`?secret=`) is for the two
// GETs a page cannot add a header to (the EventSource stream, an attachment link), never for a
// call that acts. Real services and the real web binding, signed in to the reference server.

describe('browser mode: where the secret may travel', () => {
  let f: BridgeFixture;
  beforeAll(async () => {
    f = await startBridgeFixture();
    await f.call('session.startDemo', {});
  });
  afterAll(() => f.close());

  const inQuery = (path: string) =>
    `${f.web.origin}${path}?secret=${encodeURIComponent(f.web.secret)}`;

  it('refuses a bridge call whose secret is only in the query', async () => {
    for (const method of ['session.state', 'session.signOut', 'tasks.list']) {
      const res = await fetch(inQuery(`/bridge/${method}`), {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: f.web.origin },
        body: method === 'tasks.list' ? JSON.stringify({ scope: { kind: 'my' } }) : '{}',
      });
      expect(res.status, method).toBe(403);
      expect(await res.json()).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    // The refused sign-out changed nothing.
    const state = await f.call('session.state', {});
    expect(state.signedIn).toBe(true);
  });

  it('answers the same call with the secret in the header', async () => {
    const res = await fetch(`${f.web.origin}/bridge/session.state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SECRET_HEADER]: f.web.secret },
      body: '{}',
    });
    expect(res.status).toBe(200);
  });

  it('still takes the query form for the event stream and attachment links', async () => {
    const stream = await openEvents(f.web);
    expect(stream.status).toBe(200);
    await stream.close();
    const link = await fetch(inQuery('/bridge/attachments/999999'));
    // Past the gate: the host looked for the attachment (and has none of that id).
    expect(link.status).toBe(404);
    expect(await link.json()).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('refuses a wrong secret of any length in either form', async () => {
    for (const wrong of ['', 'x', `${f.web.secret}x`, f.web.secret.slice(1), 'é'.repeat(43)]) {
      const call = await f.post('session.state', {}, { headers: { [SECRET_HEADER]: wrong } });
      expect(call.status, wrong).toBe(403);
      const events = await fetch(
        `${f.web.origin}/bridge/events?secret=${encodeURIComponent(wrong)}`,
      );
      expect(events.status, wrong).toBe(403);
      await events.body?.cancel();
    }
  });
});
