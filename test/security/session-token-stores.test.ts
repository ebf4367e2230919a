import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type SafeStorageLike,
  safeStorageTokenVault,
} from '../../main/electron/safe-storage-vault';
import { browserSessionFile, desktopSessionFile } from '../../main/services/data-layout';
import { createServices } from '../../main/services/services';
import { fileTokenVault } from '../../main/services/token-vault';
import { type BrowserMode, startBrowserMode } from '../../main/web/browser-mode';
import { SECRET_HEADER } from '../../main/web/server';
import type { RunningServer } from '../../server/app';
import { openEngine } from '../../sync/engine/engine';
import { startDemoServer, tempDir } from '../sync/support';

// Issue 15 item 4: the desktop app and browser mode may share a data folder (`npm start`
// passes one to both). Tokens the desktop vault encrypted must never land in browser mode's
// plaintext session.json (nor anywhere else in clear), and neither mode picks up the other's.

/** Electron's safeStorage as the OS key store gives it: real AES-GCM under a key of this run. */
const keyStore = (): SafeStorageLike & { plain: string[] } => {
  const key = randomBytes(32);
  const plain: string[] = [];
  return {
    plain,
    isEncryptionAvailable: () => true,
    encryptString(text) {
      plain.push(text);
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(text, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    decryptString(data) {
      const d = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      d.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([d.update(data.subarray(28)), d.final()]).toString('utf8');
    },
  };
};

const tokensOf = (secret: string) => {
  const { tokens } = JSON.parse(secret) as {
    tokens: { accessToken: string; refreshToken: string };
  };
  return [tokens.accessToken, tokens.refreshToken];
};

/** Every file under `dir` whose bytes hold `needle` (the SQLite files and WALs included). */
const filesHolding = (dir: string, needle: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((p) => statSync(p).isFile() && readFileSync(p).includes(needle));

describe('the desktop vault and browser mode never share tokens', () => {
  let server: RunningServer;
  let dataDir: string;
  let browser: BrowserMode | null = null;
  beforeAll(async () => {
    server = await startDemoServer();
    dataDir = tempDir('wt-stores-');
  });
  afterAll(async () => {
    await browser?.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps each mode to its own store, and the desktop tokens nowhere in clear', async () => {
    const cipher = keyStore();
    const desktop = await createServices({
      dataDir,
      vault: safeStorageTokenVault(cipher, fileTokenVault(desktopSessionFile(dataDir)), 'darwin'),
      openEngine,
      pullIntervalMs: 600_000,
      log: () => {},
    });
    const signIn = await desktop.dispatcher.call('session.signIn', {
      serverUrl: server.url,
      email: 'demo@example.com',
      password: 'demo1234',
    });
    expect(signIn.ok).toBe(true);
    await desktop.close();
    const desktopTokens = tokensOf(cipher.plain.at(-1) ?? '{}');
    for (const token of desktopTokens) expect(filesHolding(dataDir, token)).toEqual([]);
    const sealed = readFileSync(desktopSessionFile(dataDir));

    // Browser mode on the same folder: it does not resume the desktop's session...
    browser = await startBrowserMode({
      dataDir,
      serverUrl: server.url,
      demoDefault: false,
      pullIntervalMs: 600_000,
      staticDir: null,
      log: () => {},
    });
    const call = async (method: string, input: unknown) => {
      const res = await fetch(`${browser?.web.origin}/bridge/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SECRET_HEADER]: browser?.web.secret ?? '' },
        body: JSON.stringify(input),
      });
      return (await res.json()) as { ok: boolean; value?: { signedIn: boolean } };
    };
    expect((await call('session.state', {})).value?.signedIn).toBe(false);
    // ...and its own sign-in goes to its own file, leaving the desktop's sealed one as it was.
    const own = await call('session.signIn', {
      serverUrl: server.url,
      email: 'demo@example.com',
      password: 'demo1234',
    });
    expect(own.ok).toBe(true);
    await browser.close();
    browser = null;
    const plainFile = browserSessionFile(dataDir);
    expect(plainFile).not.toBe(desktopSessionFile(dataDir));
    const browserTokens = tokensOf(readFileSync(plainFile, 'utf8'));
    for (const token of desktopTokens) expect(browserTokens).not.toContain(token);
    expect(readFileSync(desktopSessionFile(dataDir)).equals(sealed)).toBe(true);
    for (const token of desktopTokens) expect(filesHolding(dataDir, token)).toEqual([]);
  }, 60_000);
});
