import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SIZE,
  loadWindowState,
  placeWindow,
  saveWindowState,
  WINDOW_STATE_FILE,
  windowStateOf,
} from './window-state';

const laptop = { x: 0, y: 0, width: 1440, height: 875 };
const rightMonitor = { x: 1440, y: -200, width: 2560, height: 1400 };

describe('placeWindow', () => {
  it('uses the default size, centred, when nothing was saved', () => {
    expect(placeWindow(null, [laptop])).toEqual({ ...DEFAULT_SIZE, maximized: false });
    expect(placeWindow(null, [{ x: 0, y: 0, width: 1024, height: 600 }])).toEqual({
      width: 1024,
      height: 600,
      maximized: false,
    });
  });

  it('restores saved bounds that are on a display', () => {
    const saved = { x: 1600, y: 0, width: 1200, height: 900, maximized: true };
    expect(placeWindow(saved, [laptop, rightMonitor])).toEqual(saved);
  });

  it('falls back when the display the window was on is gone', () => {
    const saved = { x: 1600, y: 0, width: 1200, height: 900, maximized: false };
    expect(placeWindow(saved, [laptop])).toEqual({ ...DEFAULT_SIZE, maximized: false });
    // Only a sliver of the title bar visible: not reachable either.
    expect(placeWindow({ ...saved, x: 1420 }, [laptop])).toMatchObject({ ...DEFAULT_SIZE });
  });

  it('shrinks and moves bounds larger than their display into it', () => {
    const saved = { x: 100, y: -30, width: 3000, height: 2000, maximized: false };
    expect(placeWindow(saved, [laptop])).toEqual({
      x: 0,
      y: 0,
      width: 1440,
      height: 875,
      maximized: false,
    });
    expect(placeWindow({ ...saved, width: 1000, height: 700, x: 900 }, [laptop])).toEqual({
      x: 440,
      y: 0,
      width: 1000,
      height: 700,
      maximized: false,
    });
  });
});

describe('window state file', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips a saved state', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'window-state-'));
    const state = windowStateOf({ x: 10.4, y: 20.6, width: 1000.2, height: 700 }, true);
    expect(state).toEqual({ x: 10, y: 21, width: 1000, height: 700, maximized: true });
    saveWindowState(dir, state);
    expect(loadWindowState(dir)).toEqual(state);
  });

  it('ignores a missing, corrupt or out-of-range file', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'window-state-'));
    expect(loadWindowState(dir)).toBeNull();
    const file = path.join(dir, WINDOW_STATE_FILE);
    for (const text of [
      '{"x":1',
      '[]',
      '{"x":0,"y":0,"width":-5,"height":10,"maximized":false}',
      '{"x":0,"y":0,"width":"800","height":600,"maximized":false}',
      '{"x":1e9,"y":0,"width":800,"height":600,"maximized":false}',
    ]) {
      writeFileSync(file, text);
      expect(loadWindowState(dir), text).toBeNull();
    }
  });

  it('refuses to write an invalid state, keeping the previous one', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'window-state-'));
    saveWindowState(dir, { x: 1, y: 2, width: 800, height: 600, maximized: false });
    expect(() =>
      saveWindowState(dir, { x: 1, y: 2, width: Number.NaN, height: 600, maximized: false }),
    ).toThrow();
    expect(JSON.parse(readFileSync(path.join(dir, WINDOW_STATE_FILE), 'utf8'))).toMatchObject({
      width: 800,
    });
  });
});
