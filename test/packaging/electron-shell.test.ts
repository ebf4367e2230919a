import { readdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replicaFolderOf } from '../../sync/db/replica-name';
import type { FakeWindow, MenuTemplateItem } from './electron-stand-in';
import { shellHarness, until } from './shell-harness';

/**
 * The Electron main process as built (`buildElectron`), run in Node with a stand-in for the
 * 'electron' module: the real host worker (services, engine, the embedded demo server), the
 * real app:// handler, IPC binding, tray controller and deep links; only Electron's own
 * objects (app, BrowserWindow, Tray, …) are recordings.
 */
const shell = shellHarness('electron-shell');
const { s, base, out, win, invokeRaw, invoke, value } = shell;
const errorCode = async (method: string, input: unknown, event?: unknown) => {
  const answer = await invokeRaw(method, input, event);
  return answer.ok ? null : answer.error.code;
};

// An X11 desktop with a tray, whatever desktop runs the tests (electron-shell-desktop.test.ts
// plays GNOME on Wayland).
process.env.XDG_SESSION_TYPE = 'x11';
process.env.XDG_CURRENT_DESKTOP = 'KDE';
delete process.env.WAYLAND_DISPLAY;

beforeAll(async () => {
  writeFileSync(path.join(base, 'secret.txt'), 'TOP-SECRET');
  await shell.start();
}, 60_000);

afterAll(() => shell.stop());

describe('the Electron main process', () => {
  it('takes the single-instance lock in a profile of its own and registers app:// before the app is ready', () => {
    // Run from sources: not the installed app's profile (nor its lock), on any file system.
    // On Linux, Chromium is told to ask a Wayland desktop's portal for global shortcuts.
    expect(s.calls.slice(0, 5)).toEqual([
      'registerSchemesAsPrivileged ready=false',
      'appendSwitch enable-features GlobalShortcutsPortal ready=false',
      `setPath userData ${path.join(base, 'user-data')}-dev`,
      'requestSingleInstanceLock',
      'setAsDefaultProtocolClient worktray',
    ]);
    // Linux: no Application User Model ID (Windows only).
    expect(s.calls.filter((c) => c.startsWith('setAppUserModelId'))).toEqual([]);
    expect(s.privileged).toEqual([
      expect.objectContaining({
        scheme: 'app',
        privileges: expect.objectContaining({ standard: true, secure: true }),
      }),
    ]);
    expect(s.windows).toEqual([]);
  });

  it('once ready, opens one hardened window on app:// with the built preload', {
    timeout: 90_000,
  }, async () => {
    s.ready();
    await until('the window', () => s.windows.length === 1 && s.ipcHandlers.size === 1);
    const w = win();
    expect(w.options.webPreferences).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      // Node loads main.js by its real path (node_modules may be a link to another folder).
      preload: path.join(realpathSync(out), 'preload.cjs'),
    });
    expect(w.webContents.getURL()).toBe('app://worktray/index.html');
    expect(w.shown).toBe(true);
    expect(s.calls).toEqual(
      expect.arrayContaining([
        'setWindowOpenHandler',
        'setPermissionRequestHandler',
        'setPermissionCheckHandler',
      ]),
    );
    for (const event of ['will-navigate', 'will-redirect', 'will-attach-webview'])
      expect(w.webContents.listenerCount(event), event).toBe(1);
  });

  it("lets the window's page write to the clipboard (Copy buttons), and nothing else", () => {
    const { request, check } = s.permissions;
    const asked = (permission: string, url: string) => {
      let granted: unknown = null;
      request?.(win().webContents, permission, (g: boolean) => (granted = g), {
        requestingUrl: url,
        isMainFrame: true,
      });
      return granted;
    };
    const page = 'app://worktray/index.html';
    expect(asked('clipboard-sanitized-write', page)).toBe(true);
    expect(check?.(win().webContents, 'clipboard-sanitized-write', 'app://worktray', {})).toBe(
      true,
    );
    expect(asked('clipboard-sanitized-write', 'https://example.com/')).toBe(false);
    expect(check?.(null, 'clipboard-sanitized-write', 'https://example.com', {})).toBe(false);
    for (const permission of ['clipboard-read', 'media', 'notifications']) {
      expect(asked(permission, page), permission).toBe(false);
      expect(check?.(win().webContents, permission, 'app://worktray', {}), permission).toBe(false);
    }
  });

  it("bundles the bootstrap's page-decoding worker beside the host worker", () => {
    // Without it a first fill still works, decoding on the host thread instead.
    expect(
      readdirSync(out)
        .filter((f) => f.endsWith('.js'))
        .sort(),
    ).toEqual(['fill-worker.js', 'main.js', 'worker.js']);
  });

  it('serves the renderer over app:// and nothing outside it', async () => {
    const handler = s.protocolHandlers.get('app');
    if (!handler) throw new Error('no app:// handler');
    const page = await handler(new Request('app://worktray/index.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const out = await handler(new Request('app://worktray/..%2f..%2fsecret.txt'));
    expect(out.status).toBe(403);
  });

  it('answers the window over IPC from the host worker (the demo signs in by itself)', {
    timeout: 90_000,
  }, async () => {
    const state = await until('the demo session', async () => {
      const session = await value('session.state', {});
      return session.signedIn ? session : null;
    });
    expect(state).toMatchObject({ demo: true, signedIn: true });
    expect(await errorCode('nope.nothing', {})).toBe('unknown-method');
    expect(await errorCode('session.switchOrg', { orgId: 'x' })).toBe('invalid-input');
    const iframe = {
      sender: win().webContents,
      senderFrame: { url: 'app://worktray/', parent: {} },
    };
    expect(await errorCode('session.state', {}, iframe)).toBe('forbidden');
  });

  it('opens an attachment asked for over IPC with the system app, from a copy under its name', {
    timeout: 90_000,
  }, async () => {
    const attachment = await until('an attachment', async () => {
      const list = await value('tasks.list', { scope: { kind: 'my' }, offset: 0, limit: 50 });
      for (const t of list.items) {
        const detail = await value('tasks.detail', { taskId: t.taskId });
        const a = detail?.attachments[0];
        if (a) return a;
      }
      return null;
    });
    const opened = await value('attachments.open', { attachmentId: attachment.attachmentId });
    expect(opened).toMatchObject({ openedByHost: true, url: null, fileName: attachment.fileName });
    expect(s.calls).toContain(`openPath ${opened.path}`);
    // In the folder of the replica the attachment came from (the demo's, org 1), not a folder
    // every account shares.
    const replica = replicaFolderOf(path.join(s.userData, 'replicas'), opened.path);
    expect(replica).not.toBeNull();
    expect(opened.path).toBe(
      path.join(replica ?? '', 'opened', String(attachment.attachmentId), attachment.fileName),
    );
  });

  it('keeps the tray in step with the timer; a tray click starts and stops it through the outbox', {
    timeout: 90_000,
  }, async () => {
    const tray = await until('the tray', () => s.trays[0]);
    const task = await until('a task', async () => {
      const list = await value('tasks.list', { scope: { kind: 'my' }, offset: 0, limit: 1 });
      return list.items[0];
    });
    const seeded = (await value('timers.active', {})).active;
    if (seeded) await value('edits.apply', { kind: 'timer.stop', trackId: seeded.timer.trackId });
    const started = await invoke('edits.apply', { kind: 'timer.start', taskId: task.taskId });
    expect(started).toMatchObject({ ok: true });
    await until('the tray tooltip', () => tray.tooltip.includes(task.taskTitle.slice(0, 10)));
    const stop = tray.menu?.items.find((i) => i.label === 'Stop');
    stop?.click?.();
    await until('the timer to stop', () => tray.tooltip === 'Worktray: no timer running');
    expect((await value('timers.active', {})).active).toBeNull();
  });

  it('the global shortcut starts the last task and stops it; a new one from settings replaces it', {
    timeout: 60_000,
  }, async () => {
    const tray = await until('the tray', () => s.trays[0]);
    const toggle = await until('the default shortcut', () =>
      s.shortcuts.get('CommandOrControl+Alt+T'),
    );
    toggle();
    await until('a running timer', () => tray.tooltip.includes('0:00:0'));
    const running = (await value('timers.active', {})).active;
    expect(running?.timer.state).toBe('RUNNING');
    toggle();
    await until('the timer to stop', () => tray.tooltip === 'Worktray: no timer running');

    await value('settings.set', { globalShortcut: 'CommandOrControl+Shift+Y' });
    expect([...s.shortcuts.keys()]).toEqual(['CommandOrControl+Shift+Y']);
  });

  it('tray actions apply at once and wait in the outbox while sync is paused', {
    timeout: 60_000,
  }, async () => {
    const tray = await until('the tray', () => s.trays[0]);
    await value('sync.pause', {});
    const start = await until('a start item', () =>
      tray.menu?.items.find(
        (i) => i.click && !['Open Worktray', 'Settings…', 'Quit Worktray'].includes(i.label ?? ''),
      ),
    );
    start.click?.();
    await until('the running timer in the tray', () => tray.tooltip.includes('0:00:0'));
    const status = await value('sync.status', {});
    expect(status?.paused).toBe(true);
    expect(status?.pending).toBeGreaterThanOrEqual(1);
    await value('sync.resume', {});
    await until('the outbox to drain', async () => (await value('sync.status', {}))?.pending === 0);
    const stop = await until('the stop item', () =>
      tray.menu?.items.find((i) => i.label === 'Stop'),
    );
    stop.click?.();
    await until('the timer to stop', () => tray.tooltip === 'Worktray: no timer running');
  });

  it('a pull bringing an assignment and a mention raises one notice; a click opens the task and marks both read', {
    timeout: 60_000,
  }, async () => {
    const session = await value('session.state', {});
    const api = session.serverUrl ?? '';
    const demoId = session.user?.userId ?? 0;
    const auth = await fetch(`${api}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'maria.garcia@example.com', password: 'welcome1234' }),
    });
    const token = ((await auth.json()) as { data: { accessToken: string } }).data.accessToken;
    const created = await fetch(`${api}/v1/tasks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'x-org-id': String(session.currentOrgId),
      },
      body: JSON.stringify({
        taskTitle: 'Review the shell',
        description: 'Could you look, @demo@example.com?',
        owners: [demoId],
      }),
    });
    expect(created.status).toBeLessThan(300);
    const taskId = ((await created.json()) as { data: { taskId: number } }).data.taskId;
    // Unread before the pull brings the two new ones.
    const unreadBefore = (await value('notifications.unreadCount', {})).count;

    s.sent.length = 0;
    await value('sync.now', {});
    const notice = await until('the native notice', () => s.notifications[0]);
    expect(s.notifications).toHaveLength(1);
    expect(notice.title).toBe('1 new mention and 1 new assignment');
    expect(notice.body).toContain('Review the shell');

    notice.click();
    await until('the navigate event', () => s.sent.some((m) => m[1] === 'app.navigate'));
    expect(s.sent.find((m) => m[1] === 'app.navigate')).toEqual([
      'worktray:event',
      'app.navigate',
      { taskId },
    ]);
    // The two that arrived are read again: the count is back to what it was before the pull.
    await until('both marked read', async () => {
      const unread = (await value('notifications.unreadCount', {})).count;
      return unread === unreadBefore;
    });
    const unread = await value('notifications.list', { unreadOnly: true, limit: 100 });
    expect(unread.items.filter((n) => n.taskId === taskId)).toEqual([]);
  });

  it('Help › Check for updates: disabled without a feed; with one, a check and what it found', {
    timeout: 60_000,
  }, async () => {
    const help = () =>
      s.appMenu?.items
        .find((i) => i.role === 'help')
        ?.submenu?.map((i) => ({
          label: i.label,
          enabled: i.enabled !== false,
          click: i.click,
        })) ?? [];
    const tray = await until('the tray', () => s.trays[0]);
    const trayLabels = () => tray.menu?.items.map((i) => i.label) ?? [];
    const off = { label: 'Check for updates (no update feed set)', enabled: false };
    expect(help()).toEqual([expect.objectContaining(off)]);
    expect(trayLabels()).toContain(off.label);

    // A feed from settings is checked at once. electron-updater cannot run under this stand-in
    // (it needs the real 'electron'): the check fails, and says so in both menus.
    s.notifications.length = 0;
    await value('settings.set', { updateFeedUrl: 'https://updates.example.com/worktray/' });
    const failed = await until('the failed check in Help', () =>
      help().find((i) => i.label?.startsWith('Update check failed: the updater could not start')),
    );
    expect(failed.enabled).toBe(false);
    expect(trayLabels()).toContain(failed.label?.replaceAll('&', '&&') ?? '');
    expect(s.notifications).toEqual([]);
    const check = help().find((i) => i.label === 'Check for updates');
    expect(check?.enabled).toBe(true);

    check?.click?.();
    const notice = await until('the notice of a check the user asked for', () =>
      s.notifications.find((n) => n.title === 'Could not check for updates'),
    );
    expect(notice.body).toMatch(/^The updater could not start: /);

    await value('settings.set', { updateFeedUrl: null });
    await until('updates off again', () => help()[0]?.label === off.label);
    s.notifications.length = 0;
  });

  it('opens a worktray:// link from a second launch in the window', async () => {
    s.sent.length = 0;
    s.app.emit('second-instance', {}, ['/opt/worktray', 'worktray://task/42']);
    await until('the navigate event', () =>
      s.sent.some((m) => m[0] === 'worktray:event' && m[1] === 'app.navigate'),
    );
    expect(s.sent.find((m) => m[1] === 'app.navigate')).toEqual([
      'worktray:event',
      'app.navigate',
      { taskId: 42 },
    ]);
  });

  it('Settings… in the app menu and the tray opens the Settings view, waiting for a new page', {
    timeout: 60_000,
  }, async () => {
    const openViews = () =>
      s.sent.filter((m) => m[0] === 'worktray:event' && m[1] === 'app.openView');
    const settingsOf = (items: readonly Pick<MenuTemplateItem, 'label' | 'click'>[] | undefined) =>
      items?.find((i) => i.label === 'Settings…') as
        | (MenuTemplateItem & { accelerator?: string })
        | undefined;
    // This run is on Linux: Settings… heads the File menu.
    const fileMenu = s.appMenu?.items.find((i) => i.role === 'fileMenu');
    const item = settingsOf(fileMenu?.submenu);
    expect(item?.accelerator).toBe('CmdOrCtrl+,');

    // The window is open and its page loaded: the view is sent at once.
    s.sent.length = 0;
    item?.click?.();
    await until('the openView event', () => openViews().length === 1);
    expect(openViews()).toEqual([['worktray:event', 'app.openView', { view: 'settings' }]]);

    // With the window closed, the click makes a new one and the view waits for its page.
    const first = win();
    const loadURL = Object.getPrototypeOf(first).loadURL as FakeWindow['loadURL'];
    let loaded: (() => void) | null = null;
    Object.getPrototypeOf(first).loadURL = function (this: FakeWindow, url: string) {
      loaded = () => void loadURL.call(this, url);
      return Promise.resolve();
    };
    try {
      first.emit('closed');
      s.sent.length = 0;
      item?.click?.();
      expect(s.windows).toHaveLength(2);
      await new Promise((r) => setTimeout(r, 300));
      expect(openViews()).toEqual([]);
      (loaded as (() => void) | null)?.();
    } finally {
      Object.getPrototypeOf(first).loadURL = loadURL;
    }
    const second = s.windows[1];
    await until('the openView event after the load', () => openViews().length === 1);
    expect(openViews()).toEqual([['worktray:event', 'app.openView', { view: 'settings' }]]);
    expect(second?.shown).toBe(true);

    // The tray's Settings… takes the same path.
    const tray = await until('the tray', () => s.trays[0]);
    s.sent.length = 0;
    settingsOf(tray.menu?.items)?.click?.();
    await until('the openView event from the tray', () => openViews().length === 1);
    expect(openViews()).toEqual([['worktray:event', 'app.openView', { view: 'settings' }]]);
  });

  it('stops the host and the tray when quitting', { timeout: 60_000 }, async () => {
    s.app.quit();
    await until('the second quit', () => s.calls.filter((c) => c === 'quit').length === 2);
    expect(s.calls).toContain('tray destroyed');
    expect(s.calls.filter((c) => c.startsWith('error box') || c.startsWith('exit'))).toEqual([]);
  });
});
