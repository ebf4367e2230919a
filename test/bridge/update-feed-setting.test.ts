import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SettingsStore } from '../../main/services/settings-store';
import { settings } from '../../shared/bridge';
import { tempDir } from '../sync/support';
import { openTestServices } from './support';

/**
 * The update feed setting, through the host's real dispatcher and settings file: https, or
 * plain http to this machine only; null turns updates off. A refused value changes nothing.
 */
const dataDir = tempDir('wt-update-feed-');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const file = join(dataDir, 'settings.json');

describe('settings.updateFeedUrl', () => {
  it('is off (null) until set', () => {
    expect(settings.shape.updateFeedUrl.parse(null)).toBeNull();
  });

  it.each([
    'https://updates.example.com/worktray/',
    'https://updates.example.com:8443/channel/stable',
    'http://127.0.0.1:8080/feed',
    'http://localhost:9000/',
    'http://[::1]:9000/',
  ])('accepts %s', (url) => {
    expect(settings.shape.updateFeedUrl.parse(url)).toBe(url);
  });

  it.each([
    ['http to another machine', 'http://updates.example.com/feed'],
    ['another scheme', 'ftp://updates.example.com/feed'],
    ['a file', 'file:///tmp/feed'],
    ['a script', 'javascript:alert(1)'],
    ['no URL at all', 'updates.example.com'],
    ['an empty string', ''],
    ['an address too long', `https://updates.example.com/${'a'.repeat(2_000)}`],
  ])('refuses %s', (_what, url) => {
    expect(settings.shape.updateFeedUrl.safeParse(url).success).toBe(false);
  });

  it('persists through settings.set; a refused value changes nothing and announces nothing', async () => {
    const services = await openTestServices(dataDir);
    const heard: unknown[] = [];
    const off = services.hub.subscribe((event, payload) => {
      if (event === 'settings.changed') heard.push(payload);
    });
    try {
      expect(await services.dispatcher.call('settings.get', {})).toMatchObject({
        ok: true,
        value: { updateFeedUrl: null },
      });
      const feed = 'https://updates.example.com/worktray/';
      const set = await services.dispatcher.call('settings.set', { updateFeedUrl: feed });
      expect(set).toMatchObject({ ok: true, value: { updateFeedUrl: feed } });
      const saved = readFileSync(file, 'utf8');
      expect(JSON.parse(saved)).toMatchObject({ updateFeedUrl: feed });

      const bad = await services.dispatcher.call('settings.set', {
        updateFeedUrl: 'http://updates.example.com/',
      });
      expect(bad).toMatchObject({
        ok: false,
        error: {
          code: 'invalid-input',
          fieldErrors: [{ field: 'updateFeedUrl', message: expect.stringMatching(/https/) }],
        },
      });
      expect(readFileSync(file, 'utf8')).toBe(saved);
      expect(heard).toHaveLength(1);

      const cleared = await services.dispatcher.call('settings.set', { updateFeedUrl: null });
      expect(cleared).toMatchObject({ ok: true, value: { updateFeedUrl: null } });
    } finally {
      off();
      await services.close();
    }
  });

  it('a hand-edited bad feed in the file falls back to off, the rest kept', async () => {
    writeFileSync(file, JSON.stringify({ theme: 'dark', updateFeedUrl: 'http://evil.example/' }));
    const store = await SettingsStore.load(file);
    expect(store.get()).toMatchObject({ theme: 'dark', updateFeedUrl: null });
    expect(store.problems.join('\n')).toMatch(/updateFeedUrl invalid/);
  });
});
