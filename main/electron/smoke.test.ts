import { describe, expect, it } from 'vitest';
import type { BridgeResponse } from '../../shared/bridge/define';
import { runSmoke, type SmokeProbe, smokeResult, smokeTimeoutMs } from './smoke';

/**
 * The smoke run's steps against a scripted host; the whole run through the built main process
 * and a stand-in Electron binary is test/packaging/smoke-desktop.test.ts.
 */
/** The fields of sync.status the smoke reads (the scripted host's answers are not parsed). */
const status = (over: Record<string, unknown>) => ({
  lastSyncAt: null,
  lastError: null,
  bootstrap: null,
  ...over,
});

const probe = (
  answers: Record<string, () => BridgeResponse>,
  tray = true,
): SmokeProbe & {
  calls: string[];
} => {
  const calls: string[] = [];
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
    windowLoaded: Promise.resolve(),
    trayMenu: async () => tray,
  };
};

const ok = (value: unknown) => (): BridgeResponse => ({ ok: true, value });

describe('runSmoke', () => {
  it('signs in to the demo, waits for the first sync, counts tasks, checks the tray', async () => {
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
    const answers = {
      'session.startDemo': ok({}),
      'sync.status': ok(status({ lastSyncAt: 1 })),
      'tasks.list': ok({ items: [], total: 0 }),
    };
    await expect(runSmoke(probe(answers), { timeoutMs: 5_000 })).rejects.toThrow(/no tasks/);
    answers['tasks.list'] = ok({ items: [], total: 3 });
    await expect(runSmoke(probe(answers, false), { timeoutMs: 5_000 })).rejects.toThrow(
      /tray menu was not the signed-in menu/,
    );
  });

  it('reads its time limit from the environment', () => {
    expect(smokeTimeoutMs({})).toBe(120_000);
    expect(smokeTimeoutMs({ WORKTRAY_SMOKE_TIMEOUT_MS: '1500' })).toBe(1_500);
    expect(smokeTimeoutMs({ WORKTRAY_SMOKE_TIMEOUT_MS: 'soon' })).toBe(120_000);
  });
});
