import { EventEmitter } from 'node:events';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { BridgeResponse } from '../../shared/bridge/define';
import { runSmoke, type SmokeProbe, smokeResult, smokeTimeoutMs, watchWindow } from './smoke';

/**
 * The smoke run's steps against a scripted host and page; the whole run through the built main
 * process and a stand-in Electron binary, each broken page included, is
 * test/packaging/smoke-desktop.test.ts.
 */

/**
 * A window's contents: Electron's events, and the smoke's page code run for real (in a VM
 * context) against a bridge and a #root as scripted.
 */
class Page extends EventEmitter {
  /** The preload's `window.worktray.invoke`; null: the preload did not run. */
  bridge: ((method: string) => unknown) | null = () => ({ ok: true, value: {} });
  rootText = 'Sign in to Worktray';
  /** Typed as Electron's overloads are, one listener shape per event. */
  override on(event: string, listener: (...args: never[]) => void): this {
    return super.on(event, listener as (...args: unknown[]) => void);
  }
  async executeJavaScript(code: string): Promise<unknown> {
    const bridge = this.bridge;
    const root = { childElementCount: this.rootText ? 1 : 0, textContent: this.rootText };
    return runInNewContext(code, {
      window: bridge ? { worktray: { invoke: async (m: string) => bridge(m) } } : {},
      document: { getElementById: (id: string) => (id === 'root' ? root : null) },
    });
  }
  /** Loads: what breaks the page happens first (`before`), as Electron orders it. */
  load(before?: () => void) {
    setTimeout(() => {
      before?.();
      this.emit('did-finish-load', {});
    }, 5);
    return this;
  }
  consoleError(message: string) {
    this.emit('console-message', { level: 'error', message }, 3, message);
  }
}

/** The fields of sync.status the smoke reads (the scripted host's answers are not parsed). */
const status = (over: Record<string, unknown>) => ({
  lastSyncAt: null,
  lastError: null,
  bootstrap: null,
  ...over,
});

const probe = (
  answers: Record<string, () => BridgeResponse>,
  { tray = true, page }: { tray?: boolean; page?: Page } = {},
): SmokeProbe & { calls: string[] } => {
  const calls: string[] = [];
  const contents = page ?? new Page();
  const window = watchWindow(contents);
  if (!page) contents.load();
  return {
    calls,
    endpoint: {
      call: async (method) => {
        calls.push(method);
        const answer = answers[method];
        return answer
          ? answer()
          : { ok: false, error: { code: 'unknown-method', message: `no ${method}` } };
      },
    },
    window,
    trayMenu: async () => tray,
  };
};

const ok = (value: unknown) => (): BridgeResponse => ({ ok: true, value });
const synced = {
  'session.startDemo': ok({}),
  'sync.status': ok(status({ lastSyncAt: 1 })),
  'tasks.list': ok({ items: [], total: 3 }),
};

describe('runSmoke', () => {
  it('sees the page call the bridge and render, signs in, waits for the first sync, counts tasks, checks the tray', async () => {
    let polls = 0;
    const p = probe({
      'session.startDemo': ok({}),
      'sync.status': () => {
        polls += 1;
        return { ok: true, value: status(polls < 3 ? {} : { lastSyncAt: 1 }) };
      },
      'tasks.list': ok({ items: [], total: 42 }),
    });
    const result = await runSmoke(p, { timeoutMs: 5_000 });
    expect(result).toEqual({ window: true, synced: true, tray: true, tasks: 42 });
    expect(smokeResult.parse(result)).toEqual(result);
    expect(p.calls.filter((c) => c === 'sync.status')).toHaveLength(3);
    expect(p.calls[0]).toBe('session.startDemo');
  });

  it('a demo that cannot start is the reason', async () => {
    const p = probe({
      'session.startDemo': () => ({
        ok: false,
        error: { code: 'internal', message: 'connect ECONNREFUSED 127.0.0.1:9' },
      }),
    });
    await expect(runSmoke(p, { timeoutMs: 5_000 })).rejects.toThrow(
      'could not sign in to the embedded demo: connect ECONNREFUSED 127.0.0.1:9',
    );
  });

  it('times out naming the step it waited for and the last sync error', async () => {
    const p = probe({
      'session.startDemo': ok({}),
      'sync.status': ok(status({ lastError: 'fetch failed' })),
    });
    await expect(runSmoke(p, { timeoutMs: 500 })).rejects.toThrow(
      'timed out after 0.5 s waiting for the first sync (last sync error: fetch failed)',
    );
  });

  it('fails on an empty replica and on a signed-out tray', async () => {
    const answers = { ...synced, 'tasks.list': ok({ items: [], total: 0 }) };
    await expect(runSmoke(probe(answers), { timeoutMs: 5_000 })).rejects.toThrow(/no tasks/);
    await expect(runSmoke(probe(synced, { tray: false }), { timeoutMs: 5_000 })).rejects.toThrow(
      /tray menu was not the signed-in menu/,
    );
  });

  it('reads its time limit from the environment', () => {
    expect(smokeTimeoutMs({})).toBe(120_000);
    expect(smokeTimeoutMs({ WORKTRAY_SMOKE_TIMEOUT_MS: '1500' })).toBe(1_500);
    expect(smokeTimeoutMs({ WORKTRAY_SMOKE_TIMEOUT_MS: 'soon' })).toBe(120_000);
  });
});

describe('runSmoke with a page that loads broken', () => {
  const fails = (page: Page, timeoutMs = 5_000) => {
    const p = probe(synced, { page });
    return runSmoke(p, { timeoutMs }).then(
      () => ({ reason: null, calls: p.calls }),
      (e: Error) => ({ reason: e.message, calls: p.calls }),
    );
  };

  it('a preload that threw: the reason, before any sign-in', async () => {
    const page = new Page();
    page.bridge = null;
    page.load(() =>
      page.emit(
        'preload-error',
        {},
        '/opt/Worktray/resources/app.asar/dist-electron/preload.cjs',
        new Error("Cannot find module './names'"),
      ),
    );
    const r = await fails(page);
    expect(r.reason).toBe(
      "the window's preload failed (preload.cjs): Cannot find module './names'",
    );
    expect(r.calls).toEqual([]);
  });

  it('a page without the bridge, or whose bridge call is refused', async () => {
    const none = new Page();
    none.bridge = null;
    expect((await fails(none.load())).reason).toBe(
      'the page has no bridge (window.worktray): its preload did not run',
    );
    const refused = new Page();
    refused.bridge = () => ({ ok: false, error: { code: 'forbidden', message: 'not our page' } });
    expect((await fails(refused.load())).reason).toBe(
      "the page's bridge call failed: forbidden: not our page",
    );
  });

  it.each([
    [
      'the CSP blocked the bundle',
      "Refused to load the script 'app://worktray/assets/index-3f2a.js' because it violates the following Content Security Policy directive: \"script-src 'self'\".",
    ],
    ['React threw', 'Uncaught Error: Minified React error #130'],
  ])('%s: the app never shows, and the page’s last error says why', async (_what, error) => {
    const page = new Page();
    page.rootText = '';
    page.load(() => page.consoleError(error));
    const r = await fails(page, 600);
    expect(r.reason).toBe(
      `timed out after 0.6 s waiting for the app's view in the window (#root is empty; the page's last error: ${error})`,
    );
    expect(r.calls).toEqual([]);
  });

  it('a renderer that dies later fails the run at once, whatever step it is on', async () => {
    const page = new Page().load();
    const p = probe({ 'session.startDemo': ok({}), 'sync.status': ok(status({})) }, { page });
    const started = Date.now();
    const run = runSmoke(p, { timeoutMs: 5_000 });
    setTimeout(
      () => page.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 }),
      300,
    );
    await expect(run).rejects.toThrow("the window's page stopped (crashed, exit code 139)");
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(p.calls).toContain('sync.status');
  });

  it('a load that failed is the reason; a navigation the window refused is not', async () => {
    const page = new Page();
    setTimeout(() => {
      page.emit('did-fail-load', {}, -3, 'ERR_ABORTED', 'https://example.com/', true);
      page.emit('did-fail-load', {}, -6, 'ERR_FILE_NOT_FOUND', 'app://worktray/index.html', true);
    }, 5);
    expect((await fails(page)).reason).toBe(
      'the window could not load app://worktray/index.html: ERR_FILE_NOT_FOUND',
    );
  });
});
