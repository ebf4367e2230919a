import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { APP_USER_MODEL_ID, settleIdentity } from '../../main/electron/app-identity';
import { nativeNotices } from '../../main/electron/native-notices';
import { guardQuit } from '../../main/electron/quit-guard';
import type { StandInState } from './electron-stand-in';
import { newStandInState } from './stand-in-state';

/**
 * The desktop host's pieces that take Electron's objects handed in, given the stand-in Electron
 * module's (electron-stand-in.ts, the one the shell tests bundle in place of 'electron'). The
 * whole main process over the same stand-in is electron-shell*.test.ts.
 */
const root = path.resolve(import.meta.dirname, '../..');
const base = mkdtempSync(path.join(tmpdir(), 'desktop-stand-in-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const s: StandInState = newStandInState(path.join(base, 'user-data'), path.join(base, 'app'));
(globalThis as { electronStandIn?: StandInState }).electronStandIn = s;
const electron = await import('./electron-stand-in');

describe('native notices', () => {
  it('a click reaches its handler; clicked, closed and failed notices are let go', () => {
    const failures: string[] = [];
    const notices = nativeNotices(electron.Notification, { onFailed: (e) => failures.push(e) });
    const clicked: string[] = [];
    for (const title of ['first', 'second', 'third'])
      notices.notify(title, 'body', () => clicked.push(title));
    expect(s.notifications.map((n) => n.title)).toEqual(['first', 'second', 'third']);
    expect(notices.kept).toBe(3);

    const [first, second, third] = s.notifications;
    first?.click();
    second?.close();
    third?.fail('the toast could not be shown');
    expect(clicked).toEqual(['first']);
    expect(failures).toEqual(['the toast could not be shown']);
    expect(notices.kept).toBe(0);
  });
});

describe('the app identity, before the lock and the first notice', () => {
  const settle = (platform: NodeJS.Platform, packaged: boolean) => {
    s.calls.length = 0;
    s.userData = path.join(base, 'Worktray');
    s.packaged = packaged;
    settleIdentity(electron.app, { platform, execPath: 'C:\\dev\\electron.exe' });
    return s.calls;
  };

  it("installed on Windows: the installer's app ID, the product's own profile", () => {
    expect(settle('win32', true)).toEqual([`setAppUserModelId ${APP_USER_MODEL_ID}`]);
    expect(s.userData).toBe(path.join(base, 'Worktray'));
  });

  it("from sources on Windows: the executable's path as its ID, a profile of its own", () => {
    expect(settle('win32', false)).toEqual([
      `setPath userData ${path.join(base, 'Worktray')}-dev`,
      'setAppUserModelId C:\\dev\\electron.exe',
    ]);
    expect(s.userData).toBe(`${path.join(base, 'Worktray')}-dev`);
  });

  it('elsewhere no ID; from sources still a profile of its own', () => {
    expect(settle('darwin', true)).toEqual([]);
    expect(settle('linux', false)).toEqual([`setPath userData ${path.join(base, 'Worktray')}-dev`]);
  });

  it("is electron-builder.yml's appId", () => {
    const config = parse(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as {
      appId: string;
    };
    expect(APP_USER_MODEL_ID).toBe(config.appId);
  });
});

describe('a quit while the host hangs', () => {
  it('is held back, then goes on after the wait, logged', async () => {
    s.calls.length = 0;
    const logged: string[] = [];
    guardQuit(electron.app, {
      release: () => s.calls.push('released'),
      close: () => new Promise<void>(() => {}),
      log: (m) => logged.push(m),
      waitMs: 100,
    });
    try {
      electron.app.quit();
      expect(s.calls).toEqual(['quit', 'before-quit prevented', 'released']);
      await new Promise((r) => setTimeout(r, 300));
      expect(s.calls).toEqual(['quit', 'before-quit prevented', 'released', 'quit']);
      expect(logged).toEqual(['the engine did not stop within 0.1 s: quitting without it']);
    } finally {
      electron.app.removeAllListeners('before-quit');
    }
  });
});
