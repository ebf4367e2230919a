import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../shared/bridge/settings';
import { tempDir } from '../../sync/test-support/temp-dir';
import { SettingsStore } from './settings-store';

const fileIn = () => join(tempDir('wt-settings-'), 'settings.json');

describe('SettingsStore', () => {
  it('starts from the defaults when there is no file', async () => {
    const store = await SettingsStore.load(fileIn());
    expect(store.get()).toEqual(defaultSettings);
    expect(store.problems).toEqual([]);
  });

  it('keeps the valid keys of a file and replaces each bad or unknown one by its default', async () => {
    const file = fileIn();
    writeFileSync(
      file,
      JSON.stringify({ theme: 'dark', idleMinutes: -3, globalShortcut: null, colour: 'red' }),
    );
    const store = await SettingsStore.load(file);
    expect(store.get()).toEqual({
      ...defaultSettings,
      theme: 'dark',
      globalShortcut: null,
    });
    expect(store.problems).toEqual([
      expect.stringMatching(/^setting idleMinutes invalid/),
      'unknown setting colour ignored',
    ]);
  });

  it('survives a file that is not JSON, or not an object', async () => {
    for (const text of ['{nope', '[1,2]', '"dark"']) {
      const file = fileIn();
      writeFileSync(file, text);
      const store = await SettingsStore.load(file);
      expect(store.get()).toEqual(defaultSettings);
      expect(store.problems).toHaveLength(1);
    }
  });

  it('writes a change as JSON that loads back the same', async () => {
    const file = fileIn();
    const store = await SettingsStore.load(file);
    const next = await store.set({ theme: 'light', idleMinutes: 15 });
    expect(next).toMatchObject({ theme: 'light', idleMinutes: 15 });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(next);
    expect((await SettingsStore.load(file)).get()).toEqual(next);
  });
});
