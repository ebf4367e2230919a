import type { BrowserWindowConstructorOptions, Session, WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import {
  applyWindowSecurity,
  contentSecurityPolicy,
  createMainWindow,
  cspHeaderValue,
  decideNavigation,
} from './window-security';

/**
 * Holds the window hardening: a weakened preference, a looser CSP or a handler that lets
 * anything through fails here. The expectations are written out on purpose rather than derived
 * from the module, so changing the module alone cannot make them pass.
 */

/** Stands in for Electron's BrowserWindow: keeps the options it was made with. */
class RecordingWindow {
  constructor(readonly options: BrowserWindowConstructorOptions) {}
}
const { options } = createMainWindow(
  RecordingWindow,
  { width: 1000, height: 700 },
  '/app/preload.cjs',
);
const prefs = options.webPreferences ?? {};

describe('window options', () => {
  it('keep the renderer sandboxed, isolated and without Node', () => {
    expect(prefs).toMatchObject({
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
    });
    expect(prefs.preload).toBe('/app/preload.cjs');
  });

  it('set no preference outside the reviewed list', () => {
    expect(Object.keys(prefs).sort()).toEqual(
      [
        'allowRunningInsecureContent',
        'contextIsolation',
        'disableBlinkFeatures',
        'experimentalFeatures',
        'navigateOnDragDrop',
        'nodeIntegration',
        'nodeIntegrationInSubFrames',
        'nodeIntegrationInWorker',
        'preload',
        'safeDialogs',
        'sandbox',
        'webSecurity',
        'webviewTag',
      ].sort(),
    );
    expect(prefs.disableBlinkFeatures).toContain('Auxclick');
    expect(options.show).toBe(false);
  });
});

describe('content security policy', () => {
  const directives = new Map(
    cspHeaderValue()
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources] as const),
  );
  const loose = [
    "'unsafe-eval'",
    "'unsafe-hashes'",
    "'wasm-unsafe-eval'",
    '*',
    'http:',
    'https:',
    'data:',
    'blob:',
    'file:',
  ];

  it("has default-src 'self' (or 'none') and no source looser than 'self' for scripts", () => {
    expect(["'self'", "'none'"]).toContain((directives.get('default-src') ?? []).join(' '));
    const scripts = directives.get('script-src') ?? directives.get('default-src') ?? [];
    expect(scripts).toEqual(["'self'"]);
    for (const [name, sources] of directives) {
      for (const bad of loose) {
        if (name === 'img-src' && (bad === 'data:' || bad === 'blob:')) continue;
        expect(sources, `${name} ${bad}`).not.toContain(bad);
      }
      if (name !== 'style-src') expect(sources, name).not.toContain("'unsafe-inline'");
    }
  });

  it('forbids plugins, frames, form posts and base rewriting', () => {
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
  });

  it('is the policy the module declares, serialized in full', () => {
    expect(directives.size).toBe(Object.keys(contentSecurityPolicy).length);
  });
});

describe('navigation', () => {
  it('opens web links outside, task links in the app, and nothing else', () => {
    expect(decideNavigation('https://example.com/a?b=1')).toEqual({
      kind: 'external',
      url: 'https://example.com/a?b=1',
    });
    expect(decideNavigation('worktray://task/42')).toEqual({ kind: 'open-task', taskId: 42 });
    expect(decideNavigation('app://task/7')).toEqual({ kind: 'open-task', taskId: 7 });
    for (const url of [
      'file:///etc/passwd',
      'app://worktray/index.html',
      'javascript:alert(1)',
      'data:text/html,<script>1</script>',
      'smb://host/share',
      'https://user:pw@example.com/',
      'not a url',
    ])
      expect(decideNavigation(url), url).toEqual({ kind: 'deny' });
  });
});

describe('applyWindowSecurity', () => {
  type Handler = (...args: unknown[]) => unknown;
  const wire = () => {
    const on = new Map<string, Handler>();
    let openHandler: Handler | null = null;
    let requestHandler: Handler | null = null;
    let checkHandler: Handler | null = null;
    const contents = {
      setWindowOpenHandler: (h: Handler) => {
        openHandler = h;
      },
      on: (event: string, h: Handler) => {
        on.set(event, h);
        return contents;
      },
    };
    const session = {
      setPermissionRequestHandler: (h: Handler) => {
        requestHandler = h;
      },
      setPermissionCheckHandler: (h: Handler) => {
        checkHandler = h;
      },
    };
    const opened: string[] = [];
    const tasks: number[] = [];
    applyWindowSecurity(contents as unknown as WebContents, session as unknown as Session, {
      openExternal: (url) => opened.push(url),
      openTask: (id) => tasks.push(id),
    });
    return {
      on,
      opened,
      tasks,
      open: (url: string) => openHandler?.({ url }),
      request: (permission: string, url = 'app://worktray/index.html') => {
        let granted: boolean | null = null;
        requestHandler?.(
          {},
          permission,
          (g: boolean) => {
            granted = g;
          },
          { requestingUrl: url, isMainFrame: true },
        );
        return granted;
      },
      check: (permission: string, origin = 'app://worktray') =>
        checkHandler?.({}, permission, origin, { requestingUrl: `${origin}/`, isMainFrame: true }),
    };
  };

  it('denies every window.open, following the link outside or to a task', () => {
    const w = wire();
    expect(w.open('https://example.com/')).toEqual({ action: 'deny' });
    expect(w.open('worktray://task/5')).toEqual({ action: 'deny' });
    expect(w.open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(w.opened).toEqual(['https://example.com/']);
    expect(w.tasks).toEqual([5]);
  });

  it('prevents every navigation and redirect, and webviews', () => {
    const w = wire();
    for (const event of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      let prevented = false;
      w.on.get(event)?.({ preventDefault: () => (prevented = true) }, 'app://worktray/other.html');
      expect(prevented, event).toBe(true);
    }
    expect(w.opened).toEqual([]);
  });

  it('refuses every permission request and check but clipboard writes', () => {
    const w = wire();
    const refused = [
      'media',
      'notifications',
      'geolocation',
      'clipboard-read',
      'deprecated-sync-clipboard-read',
      'openExternal',
      'fileSystem',
      'unknown',
    ];
    for (const p of refused) {
      expect(w.request(p), p).toBe(false);
      expect(w.check(p), p).toBe(false);
    }
  });

  it("grants clipboard writes (the Copy buttons) to the app's own origin only", () => {
    const w = wire();
    expect(w.request('clipboard-sanitized-write')).toBe(true);
    expect(w.check('clipboard-sanitized-write')).toBe(true);
    for (const origin of [
      'https://example.com',
      'app://worktray.example.com',
      'app://other',
      'file://',
      'null',
      '',
    ]) {
      expect(w.request('clipboard-sanitized-write', `${origin}/index.html`), origin).toBe(false);
      expect(w.check('clipboard-sanitized-write', origin), origin).toBe(false);
    }
  });
});
