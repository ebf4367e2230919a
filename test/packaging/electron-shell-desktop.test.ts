import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellHarness, until } from './shell-harness';

/**
 * The built main process on a desktop that gives it less: GNOME on Wayland with no shortcut
 * portal (before 48), where a global shortcut is refused and no tray icon shows. The app says so
 * once, in words, and closing its last window quits it (asking first while a timer runs). The
 * desktop is the environment the stand-in app runs in; the session bus is made unreachable, so
 * the desktop's name decides.
 */
const shell = shellHarness('electron-shell-desktop');
const { s, win, value } = shell;
s.refuseShortcuts = true;

process.env.XDG_SESSION_TYPE = 'wayland';
process.env.WAYLAND_DISPLAY = 'wayland-0';
process.env.XDG_CURRENT_DESKTOP = 'GNOME';
process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/worktray-test-bus';
delete process.env.WORKTRAY_DATA_DIR;

beforeAll(async () => {
  await shell.start();
  s.ready();
}, 60_000);
afterAll(() => shell.stop());

const closeLastWindow = () => {
  win().emit('closed');
  s.app.emit('window-all-closed');
};

describe('GNOME on Wayland', () => {
  it('says once, in words, that the shortcut cannot work and that there is no tray icon', {
    timeout: 90_000,
  }, async () => {
    await until('the demo session', async () => (await value('session.state', {})).signedIn);
    await until('two notices', () => s.notifications.length === 2);
    expect(s.notifications.map((n) => n.title).sort()).toEqual([
      "Ctrl+Alt+T can't start the timer on Wayland",
      'Worktray has no tray icon here',
    ]);
    expect(s.shortcuts.size).toBe(0);
    // The portal was asked for: Chromium's feature switched on before ready.
    expect(s.calls).toContain('appendSwitch enable-features GlobalShortcutsPortal ready=false');
    const text = s.notifications.map((n) => `${n.title} ${n.body}`).join(' ');
    expect(text).not.toMatch(/CommandOrControl|taken by another application/);

    // Another shortcut is not registered either, and not announced again.
    await value('settings.set', { globalShortcut: 'CommandOrControl+Shift+Y' });
    await new Promise((r) => setTimeout(r, 300));
    expect(s.shortcuts.size).toBe(0);
    expect(s.notifications).toHaveLength(2);
    expect(JSON.parse(readFileSync(path.join(s.userData, 'notices-shown.json'), 'utf8'))).toEqual(
      expect.arrayContaining(['no-tray', 'wayland-shortcut']),
    );
  });

  it('closing the last window with a timer running asks; "keep open" opens the window again', {
    timeout: 60_000,
  }, async () => {
    const task = await until('a task', async () => {
      const list = await value('tasks.list', { scope: { kind: 'my' }, offset: 0, limit: 1 });
      return list.items[0];
    });
    const seeded = (await value('timers.active', {})).active;
    if (seeded) await value('edits.apply', { kind: 'timer.stop', trackId: seeded.timer.trackId });
    await value('edits.apply', { kind: 'timer.start', taskId: task.taskId });
    const windows = s.windows.length;
    s.dialogAnswer = 2;
    closeLastWindow();
    await until('the window again', () => s.windows.length === windows + 1);
    expect(s.dialogs.at(-1)).toMatchObject({
      message: 'Quit Worktray with the timer running?',
      buttons: ['Stop the timer and quit', 'Quit, keep it running', 'Keep Worktray open'],
      cancelId: 2,
    });
    expect(s.dialogs.at(-1)?.detail).toContain(task.taskTitle.slice(0, 20));
    expect(s.calls).not.toContain('quit');
  });

  it('"stop the timer and quit" stops it through the outbox, then quits', {
    timeout: 60_000,
  }, async () => {
    const tray = await until('the (unseen) tray', () => s.trays[0]);
    s.dialogAnswer = 0;
    closeLastWindow();
    await until('the quit', () => s.calls.includes('quit'));
    expect(tray.tooltip).toBe('Worktray: no timer running');
    await until('the host closed', () => s.calls.filter((c) => c === 'quit').length === 2);
  });
});
