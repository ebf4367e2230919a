import type { BrowserWindowConstructorOptions, Session, WebContents } from 'electron';
import { isOurOrigin } from './app-origin';
import { parseDeepLink } from './deep-link';
import { MIN_HEIGHT, MIN_WIDTH } from './window-state';

/**
 * Every hardening choice of the window, in one place, as data a test reads: the renderer is
 * untrusted web content that reaches the host only through the preload's `invoke`/`on`.
 * Weakening any line here should fail `window-security.test.ts`.
 */

export interface WindowPlacementOptions {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

export type WindowConstructor<W> = new (options: BrowserWindowConstructorOptions) => W;

/**
 * Makes the main window: placement from the remembered state, the hardened preferences written
 * out here as literals (so a reader, the test and electronegativity all see the same values), the
 * preload by absolute path. The constructor is passed in so this file never loads Electron.
 */
export const createMainWindow = <W>(
  BrowserWindow: WindowConstructor<W>,
  placement: WindowPlacementOptions,
  preloadPath: string,
): W =>
  new BrowserWindow({
    ...placement,
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    // Shown once the first paint is ready, so the user never sees a white flash.
    show: false,
    title: 'Worktray',
    autoHideMenuBar: true,
    webPreferences: {
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      // No middle-click on links (Electron hands it to the open handler, which refuses a new
      // window): nothing in the app acts on it.
      disableBlinkFeatures: 'Auxclick',
      preload: preloadPath,
    },
  });

/**
 * The Content-Security-Policy of every page the `app://` protocol serves. Scripts only from the
 * bundle; inline styles are allowed because the renderer's own meta CSP allows them (the
 * stricter of the two policies applies anyway), never inline scripts or eval.
 */
export const contentSecurityPolicy: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'frame-src': ["'none'"],
  'worker-src': ["'self'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

export const cspHeaderValue = (policy = contentSecurityPolicy): string =>
  Object.entries(policy)
    .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
    .join('; ');

/** What a navigation or `window.open` of the renderer turns into. */
export type NavigationDecision =
  | { kind: 'deny' }
  /** Opened in the user's browser, never in our window. */
  | { kind: 'external'; url: string }
  /** A link to a task (`worktray://task/12`, `app://task/12`): the app opens it itself. */
  | { kind: 'open-task'; taskId: number };

/** Nothing navigates the window away from the bundle; links go to the browser or to a task. */
export const decideNavigation = (url: string): NavigationDecision => {
  const link = parseDeepLink(url);
  if (link) return { kind: 'open-task', taskId: link.taskId };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: 'deny' };
  }
  if ((parsed.protocol === 'https:' || parsed.protocol === 'http:') && !parsed.username) {
    return { kind: 'external', url: parsed.href };
  }
  return { kind: 'deny' };
};

/**
 * The permissions the page is given, to its own origin only: writing text to the clipboard
 * (its Copy buttons, `navigator.clipboard.writeText`). Everything else (camera, notifications,
 * reading the clipboard, …) is refused: the UI needs none, and native notifications come from
 * the host, not the page.
 */
export const grantedPermissions: readonly string[] = ['clipboard-sanitized-write'];

/** `url`: the requesting frame's URL or origin, as Electron's handlers are given it. */
export const permissionAllowed = (permission: string, url: string | undefined): boolean =>
  grantedPermissions.includes(permission) && url !== undefined && isOurOrigin(url);

export interface NavigationHooks {
  openExternal(url: string): void;
  openTask(taskId: number): void;
}

/** Wires the policies above onto a window's contents and its session. */
export function applyWindowSecurity(
  contents: WebContents,
  session: Session,
  hooks: NavigationHooks,
): void {
  const follow = (decision: NavigationDecision) => {
    if (decision.kind === 'external') hooks.openExternal(decision.url);
    else if (decision.kind === 'open-task') hooks.openTask(decision.taskId);
  };
  contents.setWindowOpenHandler(({ url }) => {
    follow(decideNavigation(url));
    return { action: 'deny' };
  });
  const block = (event: { preventDefault(): void }, url: string) => {
    event.preventDefault();
    follow(decideNavigation(url));
  };
  contents.on('will-navigate', block);
  contents.on('will-redirect', block);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  // Both: Chromium checks a permission first and asks only when the check says no.
  session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(permissionAllowed(permission, details.requestingUrl)),
  );
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    permissionAllowed(permission, requestingOrigin),
  );
}
