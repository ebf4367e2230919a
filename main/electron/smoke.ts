import { basename } from 'node:path';
import { z } from 'zod';
import type { BridgeEndpoint } from '../bridge/endpoint';
import { callBridge } from '../tray/bridge-calls';

/**
 * The desktop smoke run (`npm run smoke:desktop`, main/start-smoke.ts): the real main process
 * started with `--smoke` keeps its window hidden, sees its page load, call the bridge through
 * the preload and render the app, signs in to the embedded demo, waits for the first sync,
 * builds the tray menu and prints one JSON line. A page that loads but is broken (its preload
 * failed, the CSP blocked the bundle, React threw, the renderer died) fails the run. The steps
 * live here, apart from Electron, so main.ts only hands over its window and tray.
 */
export const SMOKE_FLAG = '--smoke';
/** Milliseconds the run may take in all (default 120 s). */
export const SMOKE_TIMEOUT_ENV = 'WORKTRAY_SMOKE_TIMEOUT_MS';
/** Heads the one stderr line that says why a run failed. */
export const SMOKE_FAILED = 'worktray smoke failed:';

/** The line a passing run prints: every check true, and the replica holds tasks. */
export const smokeResult = z.strictObject({
  window: z.literal(true),
  synced: z.literal(true),
  tray: z.literal(true),
  tasks: z.number().int().min(1),
});
export type SmokeResult = z.infer<typeof smokeResult>;

export const smokeTimeoutMs = (env: NodeJS.ProcessEnv): number => {
  const ms = Number(env[SMOKE_TIMEOUT_ENV] ?? '');
  return Number.isFinite(ms) && ms > 0 ? ms : 120_000;
};

export interface SmokeProbe {
  endpoint: Pick<BridgeEndpoint, 'call'>;
  /** The hidden window's page (watchWindow). */
  window: SmokeWindow;
  /** Builds the tray menu from the host's state now: true when it is the signed-in menu. */
  trayMenu(): Promise<boolean>;
}

const POLL_MS = 200;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const ERR_ABORTED = -3;

/** The window's contents as the smoke reads them: Electron's `WebContents`, or a stand-in. */
export interface PageContents {
  on(event: string, listener: (...args: never[]) => void): unknown;
}

/**
 * Calls `fail` with one line for each way the window's page breaks after it was made: a load
 * that failed, a preload that threw (the page then has no bridge), a renderer that died. Each
 * of these may come with `did-finish-load` all the same.
 */
export const onPageFailure = (contents: PageContents, fail: (reason: string) => void): void => {
  contents.on(
    'did-fail-load',
    (_e: unknown, code: number, description: string, url: string, isMainFrame?: boolean) => {
      // -3 (ERR_ABORTED): a navigation the window itself refused (window-security.ts).
      if (code !== ERR_ABORTED && isMainFrame !== false)
        fail(`the window could not load ${url}: ${description}`);
    },
  );
  contents.on('preload-error', (_e: unknown, preloadPath: string, error: Error) =>
    fail(`the window's preload failed (${basename(preloadPath)}): ${errorText(error)}`),
  );
  contents.on('render-process-gone', (_e: unknown, details: { reason: string; exitCode: number }) =>
    fail(`the window's page stopped (${details.reason}, exit code ${details.exitCode})`),
  );
};

export interface SmokeWindow {
  /** Resolves once the page has loaded (`did-finish-load`), which says nothing of its health. */
  loaded: Promise<void>;
  /** Rejects as soon as the page breaks (onPageFailure); never resolves. */
  broken: Promise<never>;
  /** Runs code in the page's main world (`executeJavaScript`) and gives its result. */
  run(code: string): Promise<unknown>;
  /** The page's last console error (a CSP refusal, an uncaught exception), if any. */
  lastError(): string | null;
}

/** Watches a window made for the smoke run; call before its page loads. */
export const watchWindow = (
  contents: PageContents & { executeJavaScript(code: string): Promise<unknown> },
): SmokeWindow => {
  let lastError: string | null = null;
  let fail: (reason: string) => void = () => {};
  const broken = new Promise<never>((_, reject) => {
    fail = (reason) => reject(new Error(reason));
  });
  // Raced by runSmoke; a failure after the run ended is nobody's concern.
  broken.catch(() => {});
  onPageFailure(contents, fail);
  // Electron 39 passes the details on the event; older versions as arguments (level 3: error).
  contents.on(
    'console-message',
    // One argument: the event carries level and message (a listener of more is deprecated).
    (event: { level?: unknown; message?: unknown }) => {
      if (event.level === 'error' && typeof event.message === 'string') lastError = event.message;
    },
  );
  return {
    loaded: new Promise((resolve) => contents.on('did-finish-load', () => resolve())),
    broken,
    run: (code) => contents.executeJavaScript(code),
    lastError: () => lastError,
  };
};

/**
 * Run in the page: a harmless bridge call (`session.state` reads) through the preload's API,
 * as the app's own code makes it.
 */
export const PAGE_BRIDGE_CALL = `(async () => {
  const api = window.worktray;
  if (!api || typeof api.invoke !== 'function') return { ok: false, why: 'no window.worktray' };
  const answer = await api.invoke('session.state', {});
  if (answer && answer.ok === true) return { ok: true };
  const error = answer && answer.error;
  return { ok: false, why: error ? error.code + ': ' + error.message : String(answer) };
})()`;
const bridgeCallAnswer = z.union([
  z.object({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), why: z.string() }),
]);

/** Run in the page: what the app's root element (index.html's #root) holds. */
export const PAGE_ROOT = `(() => {
  const root = document.getElementById('root');
  return root ? { elements: root.childElementCount, text: (root.textContent || '').trim().length } : null;
})()`;
const rootAnswer = z.object({ elements: z.number(), text: z.number() }).nullable();

/** Runs the checks in order; throws an Error whose message is the one-line reason. */
export const runSmoke = async (
  probe: SmokeProbe,
  { timeoutMs }: { timeoutMs: number },
): Promise<SmokeResult> => {
  let stage = 'the window to load';
  let lastError: string | null = null;
  let root: string | null = null;
  let over = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const page = probe.window.lastError();
      const why = [
        lastError ? `last sync error: ${lastError}` : null,
        root,
        page ? `the page's last error: ${page}` : null,
      ].filter(Boolean);
      reject(
        new Error(
          `timed out after ${timeoutMs / 1000} s waiting for ${stage}` +
            (why.length ? ` (${why.join('; ')})` : ''),
        ),
      );
    }, timeoutMs);
  });

  const steps = async (): Promise<SmokeResult> => {
    const { window } = probe;
    await window.loaded;

    stage = 'the page to call the bridge';
    const call = bridgeCallAnswer.safeParse(await window.run(PAGE_BRIDGE_CALL));
    if (!call.success) throw new Error('the page gave no answer to its bridge call');
    if (!call.data.ok)
      throw new Error(
        call.data.why === 'no window.worktray'
          ? 'the page has no bridge (window.worktray): its preload did not run'
          : `the page's bridge call failed: ${call.data.why}`,
      );

    stage = "the app's view in the window";
    for (;;) {
      if (over) throw new Error('the run is over');
      const seen = rootAnswer.safeParse(await window.run(PAGE_ROOT));
      const r = seen.success ? seen.data : null;
      if (r && r.elements > 0 && r.text > 0) break;
      root = r ? '#root is empty' : 'the page has no #root';
      await pause(POLL_MS);
    }
    root = null;

    stage = 'the sign-in to the embedded demo';
    try {
      await callBridge(probe.endpoint, 'session.startDemo', {});
    } catch (e) {
      throw new Error(`could not sign in to the embedded demo: ${errorText(e)}`);
    }

    stage = 'the first sync';
    for (;;) {
      if (over) throw new Error('the run is over');
      const status = await callBridge(probe.endpoint, 'sync.status', {});
      lastError = status?.lastError ?? null;
      if (status?.lastSyncAt != null && status.bootstrap === null) break;
      await pause(POLL_MS);
    }
    const { total } = await callBridge(probe.endpoint, 'tasks.list', {
      scope: { kind: 'my' },
      limit: 1,
    });
    if (total === 0) throw new Error('the first sync brought no tasks into the replica');

    stage = 'the tray menu';
    if (!(await probe.trayMenu()))
      throw new Error('the tray menu was not the signed-in menu after the first sync');
    return { window: true, synced: true, tray: true, tasks: total };
  };

  try {
    return await Promise.race([steps(), timeout, probe.window.broken]);
  } finally {
    over = true;
    clearTimeout(timer);
  }
};
