/**
 * Stands in for the 'electron' module (whose binary is not installed here) when the shell test
 * bundles main/electron/main.ts: the APIs main.ts and tray-binding.ts use, recording what they
 * are asked to do in `globalThis.electronStandIn` for the test to read and drive.
 *
 * Process mode (ELECTRON_STAND_IN=process, the smoke test's stand-in binary runs the bundle
 * with Node): there is no test to drive it, so the app is ready at once, `app.exit` and an
 * unprevented `app.quit` end the process, and the app folder is the bundle's parent;
 * ELECTRON_STAND_IN_PAGE picks how the window's page loads (`StandInPage`).
 */
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { createPreloadApi, type IpcRendererLike } from '../../main/electron/preload-api';
import { bridgeEventNameList, bridgeMethodNameList } from '../../shared/bridge/names';
import { newStandInState } from './stand-in-state';

/**
 * How the window's page loads. `ok`: the preload gives it the bridge and the app renders into
 * #root. The rest load all the same (`did-finish-load`) but broken, as a real window can:
 * the preload throws, the CSP blocks the bundle, React throws, the renderer dies.
 */
export const standInPages = [
  'ok',
  'preload-error',
  'csp-blocks-bundle',
  'react-throws',
  'renderer-crash',
] as const;
export type StandInPage = (typeof standInPages)[number];

type Handler = (...args: unknown[]) => unknown;

export interface MenuTemplateItem {
  label?: string;
  role?: string;
  enabled?: boolean;
  click?: () => void;
  submenu?: MenuTemplateItem[];
}

export interface StandInNotice {
  title: string;
  body: string;
  click: () => void;
  close: () => void;
  fail: (error: string) => void;
}

export interface StandInState {
  userData: string;
  appPath: string;
  calls: string[];
  privileged: unknown[];
  protocolHandlers: Map<string, (request: Request) => Promise<Response>>;
  ipcHandlers: Map<string, Handler>;
  /** The session's permission handlers, as the window set them last. */
  permissions: { request?: Handler; check?: Handler };
  windows: FakeWindow[];
  sent: unknown[][];
  trays: FakeTray[];
  shortcuts: Map<string, Handler>;
  /** Each notice shown; the test plays the user (click, close) or Windows (fail). */
  notifications: StandInNotice[];
  app: EventEmitter & { quit(): void };
  powerMonitor: EventEmitter;
  dialogAnswer: number;
  /** The options of each `dialog.showMessageBox`, in order. */
  dialogs: { message: string; detail?: string; buttons?: string[] }[];
  /** Chromium switches on the command line (`app.commandLine`), by name. */
  switches: Record<string, string>;
  /** `globalShortcut.register` refuses (a Wayland desktop with no shortcut portal). */
  refuseShortcuts: boolean;
  /** What Menu.setApplicationMenu was given last. */
  appMenu?: { items: MenuTemplateItem[] } | null;
  ready: () => void;
  /** Process mode: exits end this process. */
  exitsProcess?: boolean;
  /** `app.isPackaged` (false: run from sources, as the tests run it). */
  packaged?: boolean;
  /** Another instance holds the single-instance lock. */
  lockTaken?: boolean;
  /** How each window's page loads (default `ok`). */
  page?: StandInPage;
}

const pageFromEnv = (): StandInPage => {
  const page = process.env.ELECTRON_STAND_IN_PAGE ?? 'ok';
  const known = standInPages.find((p) => p === page);
  if (!known) throw new Error(`ELECTRON_STAND_IN_PAGE=${page}: not one of ${standInPages}`);
  return known;
};

const processState = (): StandInState => ({
  ...newStandInState(
    path.join(process.env.WORKTRAY_DATA_DIR ?? process.cwd(), 'electron-user-data'),
    path.resolve(path.dirname(process.argv[1] ?? '.'), '..'),
  ),
  exitsProcess: true,
  page: pageFromEnv(),
});

const state =
  (globalThis as { electronStandIn?: StandInState }).electronStandIn ??
  (process.env.ELECTRON_STAND_IN === 'process' ? processState() : undefined);
if (!state) throw new Error('set globalThis.electronStandIn before loading the bundle');
const s: StandInState = state;

let readyResolve: () => void = () => {};
const whenReadyPromise = new Promise<void>((r) => {
  readyResolve = r;
});
s.ready = () => readyResolve();

class FakeApp extends EventEmitter {
  isReadyFlag = false;
  get isPackaged() {
    return s.packaged ?? false;
  }
  setAppUserModelId(id: string) {
    s.calls.push(`setAppUserModelId ${id}`);
  }
  requestSingleInstanceLock() {
    s.calls.push('requestSingleInstanceLock');
    return !s.lockTaken;
  }
  setAsDefaultProtocolClient(scheme: string) {
    s.calls.push(`setAsDefaultProtocolClient ${scheme}`);
    return true;
  }
  whenReady() {
    return whenReadyPromise.then(() => {
      this.isReadyFlag = true;
    });
  }
  isReady() {
    return this.isReadyFlag;
  }
  getPath(name: string) {
    if (name !== 'userData') throw new Error(`getPath(${name})`);
    return s.userData;
  }
  setPath(name: string, value: string) {
    if (name !== 'userData') throw new Error(`setPath(${name})`);
    s.calls.push(`setPath userData ${value}`);
    s.userData = value;
  }
  getAppPath() {
    return s.appPath;
  }
  commandLine = {
    getSwitchValue: (name: string) => s.switches[name] ?? '',
    hasSwitch: (name: string) => name in s.switches,
    appendSwitch: (name: string, value = '') => {
      s.calls.push(`appendSwitch ${name} ${value} ready=${this.isReadyFlag}`);
      s.switches[name] = value;
    },
  };
  getVersion() {
    return '0.1.0';
  }
  exit(code: number) {
    s.calls.push(`exit ${code}`);
    if (s.exitsProcess) process.exit(code);
  }
  quit() {
    s.calls.push('quit');
    let prevented = false;
    this.emit('before-quit', {
      preventDefault: () => {
        prevented = true;
        s.calls.push('before-quit prevented');
      },
    });
    if (!prevented && s.exitsProcess) process.exit(0);
  }
}
export const app = new FakeApp();
s.app = app;
if (s.exitsProcess) setImmediate(() => s.ready());

export const protocol = {
  registerSchemesAsPrivileged: (schemes: unknown[]) => {
    s.calls.push(`registerSchemesAsPrivileged ready=${app.isReadyFlag}`);
    s.privileged.push(...schemes);
  },
  handle: (scheme: string, handler: (request: Request) => Promise<Response>) =>
    s.protocolHandlers.set(scheme, handler),
};

export const ipcMain = {
  handle: (channel: string, h: Handler) => s.ipcHandlers.set(channel, h),
  removeHandler: (channel: string) => s.ipcHandlers.delete(channel),
};

export const safeStorage = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString: (text: string) => Buffer.from(`enc:${Buffer.from(text).toString('base64')}`),
  decryptString: (data: Buffer) => {
    const text = data.toString();
    if (!text.startsWith('enc:')) throw new Error('cannot decrypt');
    return Buffer.from(text.slice(4), 'base64').toString();
  },
};

export const screen = {
  getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
};

export const shell = {
  openExternal: async (url: string) => s.calls.push(`openExternal ${url}`),
  // '' is Electron's "opened"; the test reads the path back from the calls.
  openPath: async (file: string) => {
    s.calls.push(`openPath ${file}`);
    return '';
  },
  showItemInFolder: (file: string) => {
    s.calls.push(`showItemInFolder ${file}`);
  },
};

class FakeContents extends EventEmitter {
  url = '';
  destroyed = false;
  session = {
    setPermissionRequestHandler: (h: Handler) => {
      s.calls.push('setPermissionRequestHandler');
      s.permissions.request = h;
    },
    setPermissionCheckHandler: (h: Handler) => {
      s.calls.push('setPermissionCheckHandler');
      s.permissions.check = h;
    },
  };
  mainFrame = { url: '', parent: null };
  setWindowOpenHandler() {
    s.calls.push('setWindowOpenHandler');
  }
  send(...args: unknown[]) {
    s.sent.push(args);
  }
  isDestroyed() {
    return this.destroyed;
  }
  getURL() {
    return this.url;
  }
  /** Our main frame's IPC, as the preload's `ipcRenderer` reaches the main process. */
  private ipc(): IpcRendererLike {
    return {
      invoke: async (channel, ...args) => {
        const handler = s.ipcHandlers.get(channel);
        if (!handler) throw new Error(`No handler registered for '${channel}'`);
        return handler({ sender: this, senderFrame: this.mainFrame }, ...args);
      },
      on: () => {},
      removeListener: () => {},
    };
  }
  /** The page's main world: the preload's API (unless it failed) and #root as the page left it. */
  executeJavaScript(code: string): Promise<unknown> {
    const page = s.page ?? 'ok';
    const worktray =
      page === 'preload-error'
        ? undefined
        : createPreloadApi(this.ipc(), bridgeMethodNameList, bridgeEventNameList);
    const rendered = page === 'ok';
    const root = {
      childElementCount: rendered ? 1 : 0,
      textContent: rendered ? 'Sign in to Worktray' : '',
    };
    return Promise.resolve(
      runInNewContext(code, {
        window: { worktray },
        document: { getElementById: (id: string) => (id === 'root' ? root : null) },
      }),
    );
  }
  /** A console line of the page, as Electron 39 sends it (details on the event, and the old arguments). */
  consoleError(message: string) {
    this.emit('console-message', { level: 'error', message }, 3, message, 1, 'app://worktray/');
  }
}

export class FakeWindow extends EventEmitter {
  webContents = new FakeContents();
  shown = false;
  constructor(readonly options: Record<string, unknown>) {
    super();
    s.windows.push(this);
  }
  async loadURL(url: string) {
    const contents = this.webContents;
    contents.url = url;
    contents.mainFrame.url = url;
    const page = s.page ?? 'ok';
    const preload = (this.options.webPreferences as { preload?: string } | undefined)?.preload;
    if (page === 'preload-error')
      contents.emit('preload-error', {}, preload ?? '', new Error("Cannot find module './names'"));
    this.emit('ready-to-show');
    contents.emit('did-finish-load');
    if (page === 'csp-blocks-bundle')
      contents.consoleError(
        "Refused to load the script 'app://worktray/assets/index-3f2a.js' because it violates " +
          'the following Content Security Policy directive: "script-src \'self\'".',
      );
    if (page === 'react-throws')
      contents.consoleError('Uncaught Error: Minified React error #130; visit https://react.dev');
    if (page === 'renderer-crash')
      setTimeout(
        () => contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 }),
        50,
      );
  }
  isDestroyed() {
    return false;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  show() {
    this.shown = true;
  }
  focus() {}
  maximize() {}
  isMaximized() {
    return false;
  }
  getNormalBounds() {
    return { x: 10, y: 10, width: 1000, height: 700 };
  }
}
export { FakeWindow as BrowserWindow };

export class FakeTray {
  title = '';
  tooltip = '';
  menu: { items: { label?: string; click?: () => void; submenu?: unknown }[] } | null = null;
  constructor() {
    s.trays.push(this);
  }
  setTitle(t: string) {
    this.title = t;
  }
  setToolTip(t: string) {
    this.tooltip = t;
  }
  setContextMenu(menu: FakeTray['menu']) {
    this.menu = menu;
  }
  destroy() {
    s.calls.push('tray destroyed');
  }
}
export { FakeTray as Tray };

export const Menu = {
  buildFromTemplate: (items: MenuTemplateItem[]) => ({ items }),
  setApplicationMenu: (menu: { items: MenuTemplateItem[] } | null) => {
    s.appMenu = menu;
  },
};

export const nativeImage = {
  createFromBuffer: (b: Buffer) => ({
    size: b.length,
    addRepresentation: () => {},
    setTemplateImage: () => {},
  }),
};

export class Notification extends EventEmitter {
  static isSupported() {
    return true;
  }
  constructor(readonly options: { title: string; body: string }) {
    super();
  }
  show() {
    s.notifications.push({
      ...this.options,
      click: () => this.emit('click', {}),
      close: () => this.emit('close', {}),
      fail: (error) => this.emit('failed', {}, error),
    });
  }
}

export const powerMonitor = new EventEmitter() as EventEmitter & {
  getSystemIdleTime(): number;
};
powerMonitor.getSystemIdleTime = () => 0;
s.powerMonitor = powerMonitor;

export const dialog = {
  showMessageBox: async (options: StandInState['dialogs'][number]) => {
    s.dialogs.push(options);
    return { response: s.dialogAnswer };
  },
  showErrorBox: (title: string, content: string) => s.calls.push(`error box ${title}: ${content}`),
};

export const globalShortcut = {
  register: (accelerator: string, h: Handler) => {
    // A Wayland desktop with no GlobalShortcuts portal refuses every shortcut.
    if (s.refuseShortcuts) return false;
    s.shortcuts.set(accelerator, h);
    return true;
  },
  unregister: (accelerator: string) => s.shortcuts.delete(accelerator),
};

export const contextBridge = {
  exposeInMainWorld: () => {
    throw new Error('the preload is not run in this test');
  },
};
export const ipcRenderer = {};
