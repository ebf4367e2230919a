import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nativeNotices } from '../../main/electron/native-notices';
import type { StandInState } from './electron-stand-in';
import { newStandInState } from './stand-in-state';

/**
 * The desktop host's pieces that take Electron's objects handed in, given the stand-in Electron
 * module's (electron-stand-in.ts, the one the shell tests bundle in place of 'electron'). The
 * whole main process over the same stand-in is electron-shell*.test.ts.
 */
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
