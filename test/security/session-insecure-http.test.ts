import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeContract } from '../../shared/bridge';
import { type BridgeFixture, startBridgeFixture } from '../bridge/support';
import { type AppFixture, launchChromium, removeDir, startApp } from '../e2e/support';

// Issue 15 item 4: plain http:// to another machine sends the password and every token in
// clear. Sign-in refuses it unless the user says so explicitly (`allowInsecureHttp`); loopback
// (127.0.0.0/8, ::1, localhost) never leaves the machine and stays allowed.

/**
 * "Another host" without leaving the loopback: the contract takes 0.0.0.0 for another machine
 * (the first test holds it to that), and Linux connects a socket aimed at 0.0.0.0 to 127.0.0.1
 * over the loopback. So a listener on 127.0.0.1 sees whether the password went out, whatever
 * network interfaces the machine has; where the kernel does not do so, the tests fail saying so.
 */
const listenAsOtherHost = async (listener: Server): Promise<string> => {
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  const port = (listener.address() as AddressInfo).port;
  const socket = connect({ host: '0.0.0.0', port });
  const reached = await new Promise<boolean>((resolve) => {
    socket.once('connect', () => resolve(true)).once('error', () => resolve(false));
    socket.setTimeout(5_000, () => resolve(false));
  });
  socket.destroy();
  if (!reached)
    throw new Error(
      `a connection to 0.0.0.0:${port} does not reach a listener on 127.0.0.1 here (it does on Linux): these tests need it to stand for another host`,
    );
  return `http://0.0.0.0:${port}`;
};

const signInInput = bridgeContract['session.signIn'].input;
const base = { email: 'demo@example.com', password: 'demo1234' };

describe('sign-in over plain http', () => {
  it('the contract allows loopback, refuses other hosts unless explicitly allowed', () => {
    for (const url of [
      'http://127.0.0.1:8080',
      'http://127.3.2.1',
      'http://localhost:9',
      'http://LOCALHOST',
      'http://[::1]:8080',
      'https://example.com',
      'https://10.0.0.1',
    ])
      expect(signInInput.safeParse({ ...base, serverUrl: url }).success, url).toBe(true);
    for (const url of [
      'http://example.com',
      'http://10.0.0.1:8080',
      'http://192.168.1.20',
      'http://127.0.0.1.example.com',
      'http://localhost.example.com',
      'http://[fd00::2]',
      'http://0.0.0.0:8080',
    ]) {
      const r = signInInput.safeParse({ ...base, serverUrl: url });
      expect(r.success, url).toBe(false);
      expect(r.error?.issues[0]?.path, url).toEqual(['serverUrl']);
      expect(r.error?.issues[0]?.message, url).toMatch(/in clear.*https:\/\//);
      const allowed = signInInput.safeParse({ ...base, serverUrl: url, allowInsecureHttp: true });
      expect(allowed.success, url).toBe(true);
    }
    expect(
      signInInput.safeParse({ ...base, serverUrl: 'http://x.org', allowInsecureHttp: 'yes' })
        .success,
    ).toBe(false);
  });

  describe('through browser mode', () => {
    let f: BridgeFixture;
    let listener: Server;
    let requests: string[] = [];
    let outsideUrl = '';
    beforeAll(async () => {
      f = await startBridgeFixture();
      // A server on this machine's outside address: it sees whether the password went out.
      listener = createServer((req, res) => {
        requests.push(`${req.method} ${req.url}`);
        req.resume();
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ errors: [{ code: 'unauthorized', message: 'no' }] }));
      });
      outsideUrl = await listenAsOtherHost(listener);
    });
    afterAll(async () => {
      await f.close();
      await new Promise<void>((r) => (listener.listening ? listener.close(() => r()) : r()));
    });

    it('refuses http:// to another host before anything is sent', async () => {
      requests = [];
      const err = await f.fail('session.signIn', { ...base, serverUrl: outsideUrl });
      expect(err.status).toBe(400);
      expect(err.code).toBe('invalid-input');
      expect(err.fieldErrors?.[0]?.field).toBe('serverUrl');
      expect(err.message).toMatch(/password and tokens/);
      expect(requests).toEqual([]);
      expect((await f.call('session.state', {})).signedIn).toBe(false);
    });

    it('sends it when the user explicitly allows it', async () => {
      requests = [];
      const err = await f.fail('session.signIn', {
        ...base,
        serverUrl: outsideUrl,
        allowInsecureHttp: true,
      });
      expect(err.status).toBeLessThan(500);
      expect(requests.length).toBeGreaterThan(0);
    });

    it('signs in over http:// to loopback without being asked', async () => {
      const state = await f.call('session.signIn', { ...base, serverUrl: f.server.url });
      expect(state.signedIn).toBe(true);
      await f.call('session.signOut', {});
      const local = f.server.url.replace('127.0.0.1', 'localhost');
      expect((await f.call('session.signIn', { ...base, serverUrl: local })).signedIn).toBe(true);
    });
  });

  describe('in the sign-in form (Chromium)', () => {
    let app: AppFixture;
    let browser: Browser;
    let listener: Server;
    const seen: string[] = [];
    let url = '';
    beforeAll(async () => {
      app = await startApp();
      browser = await launchChromium();
      listener = createServer((req, res) => {
        seen.push(`${req.method} ${req.url}`);
        req.resume();
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end('{}');
      });
      url = await listenAsOtherHost(listener);
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await app?.close();
      if (app) removeDir(app.dataDir);
      await new Promise<void>((r) => (listener?.listening ? listener.close(() => r()) : r()));
    });

    it('says why, and asks for an explicit yes before sending anything', async () => {
      const page = await browser.newPage();
      await page.goto(app.web.url);
      await page.getByLabel('Server URL', { exact: true }).fill(url);
      await page.getByLabel('Email', { exact: true }).fill('demo@example.com');
      await page.getByLabel('Password', { exact: true }).fill('demo1234');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByText('sends your password and tokens in clear').first().waitFor();
      expect(seen).toEqual([]);
      await page.getByLabel(/Sign in without encryption/).check();
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByText('did not match').waitFor();
      expect(seen.length).toBeGreaterThan(0);
      await page.close();
    }, 60_000);
  });
});
