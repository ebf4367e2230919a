import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localEndpoint } from '../../main/bridge/endpoint';
import { SECRET_HEADER, startWebBridge, type WebBridge } from '../../main/web/server';
import { tempDir } from '../sync/support';
import { type BridgeFixture, openEvents, startBridgeFixture } from './support';

// Browser mode's gate: every bridge request needs the per-launch secret, our Origin (when the
// browser sends one) and our Host; the UI's files are served with a strict CSP and never from
// outside their folder. Runs against the real services (signed out: nothing needs a session).

/** A raw request, so Host and Origin can be anything (fetch would fix Host). */
const raw = (
  port: number,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
) =>
  new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: string;
  }>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });

describe('browser mode: who may call the bridge', () => {
  let f: BridgeFixture;
  beforeAll(async () => {
    f = await startBridgeFixture();
  });
  afterAll(() => f.close());

  it('answers a call that carries the secret from our origin', async () => {
    const { status, body } = await f.post('session.state', {});
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, value: { signedIn: false } });
  });

  it('refuses a call without the secret or with a wrong one', async () => {
    const port = f.web.port;
    const json = { 'content-type': 'application/json', host: `127.0.0.1:${port}` };
    const none = await raw(port, '/bridge/session.state', {
      method: 'POST',
      headers: json,
      body: '{}',
    });
    expect(none.status).toBe(403);
    expect(JSON.parse(none.body)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const wrong = await f.post(
      'session.state',
      {},
      { headers: { [SECRET_HEADER]: `${f.web.secret}x` } },
    );
    expect(wrong.status).toBe(403);
    const short = await f.post('session.state', {}, { headers: { [SECRET_HEADER]: 'a' } });
    expect(short.status).toBe(403);
  });

  it('refuses a call from another origin even with the secret (a page elsewhere that learnt it)', async () => {
    for (const origin of ['http://evil.example', 'http://127.0.0.1:1', 'null']) {
      const r = await f.post('session.state', {}, { headers: { origin } });
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
  });

  it('refuses a request naming another host (DNS rebinding)', async () => {
    const r = await raw(f.web.port, '/bridge/session.state', {
      method: 'POST',
      headers: {
        host: `attacker.example:${f.web.port}`,
        'content-type': 'application/json',
        [SECRET_HEADER]: f.web.secret,
      },
      body: '{}',
    });
    expect(r.status).toBe(421);
    const page = await raw(f.web.port, '/', { headers: { host: 'attacker.example' } });
    expect(page.status).toBe(421);
  });

  it('refuses the event stream without the secret, serves it with it', async () => {
    const res = await fetch(`${f.web.origin}/bridge/events`);
    expect(res.status).toBe(403);
    const stream = await openEvents(f.web);
    expect(stream.status).toBe(200);
    expect(stream.type).toMatch(/^text\/event-stream/);
    await stream.close();
  });

  it('takes calls only as JSON POSTs, and names unknown methods', async () => {
    const get = await fetch(`${f.web.origin}/bridge/session.state`, {
      headers: { [SECRET_HEADER]: f.web.secret },
    });
    expect(get.status).toBe(405);
    const form = await fetch(`${f.web.origin}/bridge/session.signOut`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', [SECRET_HEADER]: f.web.secret },
      body: '{}',
    });
    expect(form.status).toBe(415);
    const notJson = await fetch(`${f.web.origin}/bridge/session.state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SECRET_HEADER]: f.web.secret },
      body: '{nope',
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    const garbled = await f.post('%E0%A4%A', {});
    expect(garbled.status).toBe(400);
    const unknown = await f.post('tasks.destroyAll', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false, error: { code: 'unknown-method' } });
  });

  it('needs a session for data: not-signed-in, 401', async () => {
    const r = await f.fail('tasks.list', { scope: { kind: 'my' } });
    expect(r).toMatchObject({ code: 'not-signed-in', status: 401 });
  });
});

describe('browser mode: the UI files', () => {
  let web: WebBridge;
  let dir: string;
  beforeAll(async () => {
    dir = tempDir('wt-static-');
    mkdirSync(join(dir, 'dist', 'assets'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(dir, 'dist', 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(dir, 'secret.txt'), 'outside the served folder');
    web = await startWebBridge({
      endpoint: localEndpoint(
        { methods: [], call: async () => ({ ok: true, value: null }) },
        { subscribe: () => () => {} },
      ),
      staticDir: join(dir, 'dist'),
    });
  });
  afterAll(() => web.close());

  it('serves index.html and assets with a strict CSP and no referrer', async () => {
    const page = await fetch(`${web.url}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>app</title>');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const js = await fetch(`${web.origin}/assets/app.js`);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await js.text()).toBe('console.log(1)');
    const route = await fetch(`${web.origin}/tasks/12`);
    expect(await route.text()).toContain('<title>app</title>');
  });

  it('never serves a file outside its folder', async () => {
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/%00index.html',
    ]) {
      const r = await raw(web.port, path, { headers: { host: `127.0.0.1:${web.port}` } });
      expect(r.body, path).not.toContain('outside the served folder');
      expect([400, 404], path).toContain(r.status);
    }
  });

  it('refuses to write anything but bridge calls', async () => {
    const r = await fetch(`${web.origin}/index.html`, { method: 'PUT', body: 'x' });
    expect(r.status).toBe(405);
  });
});
