import { z } from 'zod';
import type { BridgeEndpoint } from '../bridge/endpoint';
import { callBridge } from '../tray/bridge-calls';

/**
 * The desktop smoke run (`npm run smoke:desktop`, main/start-smoke.ts): the real main process
 * started with `--smoke` keeps its window hidden, signs in to the embedded demo, waits for the
 * first sync, builds the tray menu and prints one JSON line. The steps live here, apart from
 * Electron, so main.ts only hands over its window and tray.
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
  /** Resolves once the hidden window has loaded the app (rejects when it could not). */
  windowLoaded: Promise<void>;
  /** Builds the tray menu from the host's state now: true when it is the signed-in menu. */
  trayMenu(): Promise<boolean>;
}

const POLL_MS = 200;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Resolves when the window's page has loaded; rejects, saying what, when it could not. */
export const firstLoad = (contents: {
  once(event: string, listener: (...args: never[]) => void): unknown;
}): Promise<void> =>
  new Promise((resolve, reject) => {
    contents.once('did-finish-load', () => resolve());
    contents.once(
      'did-fail-load',
      (_event: unknown, _code: number, description: string, url: string) =>
        reject(new Error(`the window could not load ${url}: ${description}`)),
    );
  });

/** Runs the checks in order; throws an Error whose message is the one-line reason. */
export const runSmoke = async (
  probe: SmokeProbe,
  { timeoutMs }: { timeoutMs: number },
): Promise<SmokeResult> => {
  let stage = 'the window to load';
  let lastError: string | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const why = lastError ? ` (last sync error: ${lastError})` : '';
      reject(new Error(`timed out after ${timeoutMs / 1000} s waiting for ${stage}${why}`));
    }, timeoutMs);
  });

  const steps = async (): Promise<SmokeResult> => {
    await probe.windowLoaded;

    stage = 'the sign-in to the embedded demo';
    try {
      await callBridge(probe.endpoint, 'session.startDemo', {});
    } catch (e) {
      throw new Error(`could not sign in to the embedded demo: ${errorText(e)}`);
    }

    stage = 'the first sync';
    for (;;) {
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
    return await Promise.race([steps(), timeout]);
  } finally {
    clearTimeout(timer);
  }
};
