import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Services } from '../../main/services/services';
import { openEngine } from '../../sync/engine/engine';
import { steppedClock } from '../support/stepped-clock';
import { startDemoServer, tempDir } from '../sync/support';
import { serviceCall as call, eventually, openTestServices } from './support';

/**
 * The settings of the Settings screen through the host's real dispatcher, settings file and
 * engine: a bad value is refused with words a person can act on and changes nothing; the sync
 * interval reaches the running engine's pull schedule at once, and the next launch's engine.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const lastSyncAt = async (services: Services) =>
  ((await call(services, 'sync.status', {})) as { lastSyncAt: number | null }).lastSyncAt;

/** When the pull after `after` ended (the engine stamps lastSyncAt at the end of a cycle). */
const nextPull = (services: Services, after: number, timeoutMs: number) =>
  eventually(async () => {
    const at = await lastSyncAt(services);
    return at !== null && at > after ? at : undefined;
  }, timeoutMs);

describe('settings.set', () => {
  it.each([
    ['syncIntervalSeconds', 5, /at least 10 seconds/],
    ['syncIntervalSeconds', 86_400, /at most an hour/],
    ['syncIntervalSeconds', 12.5, /whole number/],
    ['notifyKinds', ['MENTION', 'MENTION'], /twice/],
    ['notifyKinds', ['BIRTHDAY'], /MENTION/],
    ['theme', 'sepia', /system|light|dark/],
  ])('refuses %s = %j with a clear error and changes nothing', async (key, value, words) => {
    const dataDir = tempDir('wt-settings-bad-');
    dirs.push(dataDir);
    const services = await openTestServices(dataDir);
    const heard: string[] = [];
    const off = services.hub.subscribe((event) => heard.push(event));
    try {
      await call(services, 'settings.set', { theme: 'dark', syncIntervalSeconds: 60 });
      const file = join(dataDir, 'settings.json');
      const saved = readFileSync(file, 'utf8');
      const before = await call(services, 'settings.get', {});
      const bad = await services.dispatcher.call('settings.set', { idleMinutes: 7, [key]: value });
      expect(bad).toMatchObject({
        ok: false,
        error: {
          code: 'invalid-input',
          fieldErrors: [{ field: expect.stringContaining(key), message: expect.any(String) }],
        },
      });
      if (bad.ok) return;
      expect(bad.error.fieldErrors?.map((f) => f.message).join(' ')).toMatch(words);
      // The whole patch is refused: the good key beside the bad one is not half-applied.
      expect(await call(services, 'settings.get', {})).toEqual(before);
      expect(readFileSync(file, 'utf8')).toBe(saved);
      expect(heard.filter((e) => e === 'settings.changed')).toHaveLength(1);
    } finally {
      off();
      await services.close();
    }
  });
});

describe('app.openDataFolder', () => {
  it('names the data folder (the desktop opens it; browser mode shows the path)', async () => {
    const dataDir = tempDir('wt-settings-folder-');
    dirs.push(dataDir);
    const services = await openTestServices(dataDir);
    try {
      expect(await call(services, 'app.openDataFolder', {})).toEqual({
        path: dataDir,
        opened: false,
      });
    } finally {
      await services.close();
    }
  });
});

describe('the sync interval', () => {
  it('reaches the running engine at once, and the engine of the next launch', async () => {
    const server = await startDemoServer();
    const dataDir = tempDir('wt-settings-interval-');
    dirs.push(dataDir);
    // No fixed interval: the setting rules, as in the app. The engines' clock is moved by hand:
    // ten seconds between two pulls pass at once, and only a due pull fires.
    const clock = steppedClock();
    const open = () =>
      openTestServices(dataDir, undefined, {
        pullIntervalMs: undefined,
        openEngine: (o) => openEngine({ ...o, now: clock.now, schedule: clock.schedule }),
      });
    const first = await open();
    try {
      await call(first, 'session.signIn', {
        serverUrl: server.url,
        email: 'demo@example.com',
        password: 'demo1234',
      });
      const firstPull = await nextPull(first, 0, 30_000);
      // The default, 30 s, would not pull again within this test's waits; 10 s must.
      await call(first, 'settings.set', { syncIntervalSeconds: 10 });
      clock.advance(10_000);
      const second = await nextPull(first, firstPull, 15_000);
      expect(second - firstPull).toBeGreaterThanOrEqual(9_500);
      expect(second - firstPull).toBeLessThan(14_000);
    } finally {
      await first.close();
    }

    const next = await open();
    try {
      expect(await next.session.resume()).toBe(true);
      expect((await call(next, 'settings.get', {})).syncIntervalSeconds).toBe(10);
      const resumed = await nextPull(next, 0, 30_000);
      clock.advance(10_000);
      const after = await nextPull(next, resumed, 15_000);
      expect(after - resumed).toBeGreaterThanOrEqual(9_500);
      expect(after - resumed).toBeLessThan(14_000);
    } finally {
      await next.close();
      await server.close();
    }
  }, 60_000);
});
