/**
 * The Electron main process: one instance, one hardened window on `app://`, the host (services,
 * engine, replica) in a worker thread, the bridge over IPC, and the tray that outlives the
 * window. Each piece's logic lives in a module tested without Electron; this file wires them.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Notification,
  protocol,
  safeStorage,
  screen,
  shell,
} from 'electron';
import type { AppView } from '../../shared/bridge/events';
import { DisposableStore } from '../../shared/lifecycle';
import { withMainSide } from '../bridge/main-side';
import { folderMethods } from '../bridge/open-logs';
import { startWorkerHost, type WorkerHost } from '../host/worker-host';
import { desktopSessionFile, replicasDir } from '../services/data-layout';
import { type LogFile, logFileIn, logsDir } from '../services/log-file';
import { fileTokenVault } from '../services/token-vault';
import { settleIdentity } from './app-identity';
import {
  APP_ENTRY_URL,
  APP_SCHEME,
  appSchemePrivileges,
  createAppProtocolHandler,
} from './app-protocol';
import { attachmentMethods } from './attachment-opener';
import { DEEP_LINK_SCHEME, deepLinkFromArgv, parseDeepLink } from './deep-link';
import {
  askTrayHost,
  desktopLimits,
  enableFeaturesWithPortal,
  isGnome,
  onNativeWayland,
} from './desktop-limits';
import { downloadMarker } from './download-mark';
import { bindIpcCalls, forwardEvents } from './ipc-transport';
import { nativeNotices } from './native-notices';
import { type NavigationTarget, PendingNavigation } from './pending-navigation';
import { guardQuit } from './quit-guard';
import { safeStorageTokenVault } from './safe-storage-vault';
import {
  errorText,
  onPageFailure,
  runSmoke,
  SMOKE_FAILED,
  SMOKE_FLAG,
  type SmokeWindow,
  smokeTimeoutMs,
  watchWindow,
} from './smoke';
import { startTrayShell, type TrayShell } from './tray-binding';
import { startUpdates, type UpdatesBinding } from './updates-binding';
import { applyWindowSecurity, createMainWindow } from './window-security';
import { loadWindowState, placeWindow, saveWindowState, windowStateOf } from './window-state';

const here = path.dirname(fileURLToPath(import.meta.url));
const execFileAsync = promisify(execFile);
// `npm run smoke:desktop` (smoke.ts): a hidden window, one JSON line on stdout, then exit.
const smoke = process.argv.includes(SMOKE_FLAG);
const say = (message: string, detail?: string) =>
  console.error(`worktray: ${message}${detail ? ` (${detail})` : ''}`);
// The data folder (and so the log file) is known once the app is ready.
let logFile: LogFile | null = null;
const log = (message: string, detail?: string) => {
  logFile?.write(message, detail);
  say(message, detail);
};
// Every native notice of the app (tray errors, new mentions, updates), kept until it is done.
const notices = nativeNotices(Notification, {
  onFailed: (error) => log('a notice could not be shown', error),
});

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: appSchemePrivileges }]);
// On Wayland the desktop's portal gives global shortcuts; Chromium asks it only when told so.
const features = enableFeaturesWithPortal(
  process.platform,
  app.commandLine.getSwitchValue('enable-features'),
);
if (features) app.commandLine.appendSwitch('enable-features', features);
// A run from sources gets its own profile (and lock); Windows gets the app's ID for its toasts.
settleIdentity(app, { platform: process.platform, execPath: process.execPath });
// `npm start` passes the data folder it chose, so browser mode and the app share one.
const dataDirOf = () => process.env.WORKTRAY_DATA_DIR || app.getPath('userData');

if (smoke) {
  // Beside a running app: no single-instance lock, no protocol registration, and Chromium's
  // profile inside the run's own data folder.
  if (process.env.WORKTRAY_DATA_DIR)
    app.setPath('userData', path.join(process.env.WORKTRAY_DATA_DIR, 'electron'));
  launch().catch((e: unknown) => endSmoke(1, `${SMOKE_FAILED} ${errorText(e)}`));
} else if (!app.requestSingleInstanceLock()) {
  // A second launch (a clicked worktray:// link on Windows and Linux) hands its arguments to
  // the running instance and quits; said, so a launch that seems to do nothing can be traced.
  const message =
    'another Worktray is running with this profile: this launch is handed to it and quits';
  logFileIn(logsDir(dataDirOf())).write(message, app.getPath('userData'));
  say(message, app.getPath('userData'));
  app.quit();
} else {
  // Run from sources (`electron dist-electron/main.js`), the OS must be told the script too.
  if (process.defaultApp && process.argv[1]) {
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [
      path.resolve(process.argv[1]),
    ]);
  } else {
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  }
  launch().catch((e: unknown) => {
    // The host could not start (a corrupt data folder, a port, a bug): say so, do not linger.
    const message = errorText(e);
    log('start-up failed', message);
    dialog.showErrorBox('Worktray could not start', message);
    app.exit(1);
  });
}

/** The result on stdout, or the reason on stderr; exits once it is written (pipes may lag). */
function endSmoke(code: number, line: string): void {
  const stream = code === 0 ? process.stdout : process.stderr;
  stream.write(`${line}\n`, () => app.exit(code));
}

async function launch(): Promise<void> {
  let window: BrowserWindow | null = null;
  // Set by createWindow in a smoke run (a closure assigns it: no narrowing to null).
  let smokeWindow = null as SmokeWindow | null;
  let host: WorkerHost | null = null;
  let shell_: TrayShell | null = null;
  let updates: UpdatesBinding | null = null;
  // What the launch sets up, each kept here as it is made, released together at the end.
  const disposables = new DisposableStore();
  const pending = new PendingNavigation(() => {
    const h = host;
    return h
      ? {
          navigate: (taskId) => h.emit('app.navigate', { taskId }),
          openView: (view) => h.emit('app.openView', { view }),
        }
      : null;
  }, deepLinkFromArgv(process.argv)?.taskId ?? null);

  /** Shows the window (making it if closed) on a task or a view, once its page listens. */
  const openIn = (target: NavigationTarget) => {
    pending.queue(target);
    showWindow();
    pending.flush();
  };
  const openTask = (taskId: number) => openIn({ taskId });
  const openView = (view: AppView) => openIn({ view });

  app.on('open-url', (event, url) => {
    event.preventDefault();
    const link = parseDeepLink(url);
    if (link) openTask(link.taskId);
  });
  app.on('second-instance', (_event, argv) => {
    const link = deepLinkFromArgv(argv);
    if (link) openTask(link.taskId);
    else showWindow();
  });
  // The tray keeps the app (and its timer) alive with every window closed; on a desktop with
  // no tray, closing the last window quits (asking first while a timer runs).
  app.on('window-all-closed', () => {
    const tray = shell_;
    if (!tray || smoke) return;
    void tray.lastWindowClosed().then((next) => {
      if (next === 'quit') app.quit();
      else if (next === 'reopen') showWindow();
    });
  });

  await app.whenReady();
  const dataDir = dataDirOf();
  logFile = logFileIn(logsDir(dataDir));
  log(`started (Electron ${process.versions.electron ?? '?'}, ${process.platform})`);
  // Asked while the host starts; only GNOME and Wayland sessions may lack a tray host.
  const desktop = {
    platform: process.platform,
    env: process.env,
    switchValue: (name: string) => app.commandLine.getSwitchValue(name),
  };
  const trayHost =
    onNativeWayland(desktop) || isGnome(desktop)
      ? askTrayHost(async (file, args) => {
          const { stdout } = await execFileAsync(file, [...args], { timeout: 2_000 });
          return stdout;
        })
      : Promise.resolve(null);
  protocol.handle(
    APP_SCHEME,
    createAppProtocolHandler(path.join(app.getAppPath(), 'renderer', 'dist')),
  );

  const vault = safeStorageTokenVault(safeStorage, fileTokenVault(desktopSessionFile(dataDir)));
  if (vault.mode === 'memory-only') {
    log('no OS key store: you will be asked to sign in at every launch');
  }
  host = await startWorkerHost(
    {
      dataDir,
      serverUrl: process.env.WORKTRAY_SERVER || null,
      // A smoke run signs in to the demo itself, once.
      demoDefault: process.env.WORKTRAY_NO_DEMO !== '1' && !smoke,
    },
    // The host writes its own lines to the log file; here they are only shown.
    { vault, log: say },
  );
  const bridge = host;
  // The window, tray and notices call through this; the methods only this process can finish
  // (it reaches the system's shell) are in one table: attachments and folders open here.
  const endpoint = withMainSide(bridge, {
    ...attachmentMethods({
      openPath: (file) => shell.openPath(file),
      showItemInFolder: (file) => shell.showItemInFolder(file),
      markDownloaded: downloadMarker({
        platform: process.platform,
        writeFile: (file, data) => writeFile(file, data),
        execFile: async (file, args) => {
          await execFileAsync(file, [...args]);
        },
        now: Date.now,
      }),
      replicasDir: replicasDir(dataDir),
    }),
    ...folderMethods((folder) => shell.openPath(folder)),
  });
  disposables.addRelease(
    bindIpcCalls(ipcMain, endpoint, {
      isOurContents: (contents) => window !== null && contents === window.webContents,
      onRefused: (reason) => log('refused a bridge call', reason),
    }),
  );
  disposables.addRelease(forwardEvents([bridge], () => window?.webContents ?? null));

  function showWindow(): void {
    // Before the host is up there is no bridge to answer the page; the launch opens the window.
    if (!app.isReady() || !host) return;
    if (!window || window.isDestroyed()) window = createWindow();
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  }

  function createWindow(): BrowserWindow {
    const workAreas = screen.getAllDisplays().map((d) => d.workArea);
    const placement = placeWindow(loadWindowState(dataDir), workAreas);
    const { maximized, ...bounds } = placement;
    const win = createMainWindow(BrowserWindow, bounds, path.join(here, 'preload.cjs'));
    applyWindowSecurity(win.webContents, win.webContents.session, {
      openExternal: (url) => void shell.openExternal(url),
      openTask,
    });
    pending.pageGone();
    win.once('ready-to-show', () => {
      if (smoke) return;
      if (maximized) win.maximize();
      win.show();
    });
    win.webContents.on('did-finish-load', () => pending.pageLoaded());
    win.on('close', () => {
      saveWindowState(dataDir, windowStateOf(win.getNormalBounds(), win.isMaximized()));
    });
    win.on('session-end', () => shell_?.sessionEnding());
    win.on('closed', () => {
      if (window === win) window = null;
      pending.pageGone();
    });
    // A page that loads broken fails a smoke run; in a user's run it is logged.
    if (smoke) smokeWindow = watchWindow(win.webContents);
    else onPageFailure(win.webContents, (reason) => log(reason));
    void win.loadURL(APP_ENTRY_URL);
    return win;
  }

  const limits = desktopLimits(desktop, await trayHost);
  if (limits.wayland) log("running on Wayland: global shortcuts through the desktop's portal");
  shell_ = disposables.add(
    startTrayShell(
      endpoint,
      dataDir,
      {
        openApp: showWindow,
        openTask,
        openView,
        checkForUpdates: () => updates?.perform({ kind: 'check-updates' }),
        restartToUpdate: () => updates?.perform({ kind: 'restart-to-update' }),
        quit: () => app.quit(),
        log,
        notify: notices.notify,
      },
      limits,
    ),
  );
  const tray = shell_;
  updates = disposables.add(
    startUpdates({
      endpoint,
      notify: notices.notify,
      showItems: (items) => tray.setUpdateItems(items),
      openView,
      log,
    }),
  );
  if (smoke) {
    window = createWindow();
    if (!smokeWindow) throw new Error('no window was made');
    const outcome = await runSmoke(
      {
        endpoint,
        window: smokeWindow,
        trayMenu: async () => {
          const menu = await tray.refreshMenu();
          return menu.signedIn && menu.items.length > 0;
        },
      },
      { timeoutMs: smokeTimeoutMs(process.env) },
    ).then(
      (result) => ({ code: 0, line: JSON.stringify(result) }),
      (e: unknown) => ({ code: 1, line: `${SMOKE_FAILED} ${errorText(e)}` }),
    );
    disposables.dispose();
    // The engine stops cleanly, but a stuck host never holds the answer back.
    await Promise.race([bridge.close(), new Promise((r) => setTimeout(r, 10_000))]);
    return endSmoke(outcome.code, outcome.line);
  }
  showWindow();

  app.on('activate', showWindow);
  // The engine stops cleanly before the process ends, for a few seconds at most (quit-guard.ts).
  guardQuit(app, { release: () => disposables.dispose(), close: () => bridge.close(), log });
}
