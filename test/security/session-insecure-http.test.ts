import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeContract } from '../../shared/bridge';
import { type BridgeFixture, startBridgeFixture } from '../bridge/support';
import { type AppFixture, launchChromium, removeDir, startApp } from '../e2e/support';

// Issue 15 item 4: plain http:// to another machine sends the password and every token in
// clear. Sign-in refuses it unless the user says so explicitly (`allowInsecureHttp`); loopback
// (127.0.0.0/8, ::1, localhost) never leaves the machine and stays allowed.

/** An address of this machine that is not loopback: http:// to it is "another host". */
const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === 'IPv4')?.address;

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
      if (outsideAddress) {
        await new Promise<void>((r) => listener.listen(0, outsideAddress, r));
        outsideUrl = `http://${outsideAddress}:${(listener.address() as AddressInfo).port}`;
      }
    });
    afterAll(async () => {
      await f.close();
      await new Promise<void>((r) => (listener.listening ? listener.close(() => r()) : r()));
    });

    it.skipIf(!outsideAddress)(
      'refuses http:// to another host before anything is sent',
      async () => {
        requests = [];
        const err = await f.fail('session.signIn', { ...base, serverUrl: outsideUrl });
        expect(err.status).toBe(400);
        expect(err.code).toBe('invalid-input');
        expect(err.fieldErrors?.[0]?.field).toBe('serverUrl');
        expect(err.message).toMatch(/password and tokens/);
        expect(requests).toEqual([]);
        expect((await f.call('session.state', {})).signedIn).toBe(false);
      },
    );

    it.skipIf(!outsideAddress)('sends it when the user explicitly allows it', async () => {
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

  describe.skipIf(!outsideAddress)('in the sign-in form (Chromium)', () => {
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
      await new Promise<void>((r) => listener.listen(0, outsideAddress, r));
      url = `http://${outsideAddress}:${(listener.address() as AddressInfo).port}`;
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
