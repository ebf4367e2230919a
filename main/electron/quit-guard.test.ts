import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { guardQuit, QUIT_WAIT_MS } from './quit-guard';

/** Electron's quit as far as the guard sees it: `before-quit`, preventable, then the quit. */
class QuitApp extends EventEmitter {
  readonly calls: string[] = [];
  quit() {
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    this.calls.push(prevented ? 'quit held' : 'quit');
  }
}

const setup = (close: () => Promise<void>) => {
  const app = new QuitApp();
  const logged: string[] = [];
  let released = 0;
  guardQuit(app, {
    release: () => {
      released += 1;
    },
    close,
    log: (m, d) => logged.push(d ? `${m} (${d})` : m),
  });
  return { app, logged, released: () => released };
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('guardQuit', () => {
  it('holds the first quit until the host has closed, then quits', async () => {
    let closed: () => void = () => {};
    const g = setup(() => new Promise<void>((r) => (closed = r)));
    g.app.quit();
    expect(g.app.calls).toEqual(['quit held']);
    expect(g.released()).toBe(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(g.app.calls).toEqual(['quit held']);
    closed();
    await vi.advanceTimersByTimeAsync(0);
    expect(g.app.calls).toEqual(['quit held', 'quit']);
    expect(g.logged).toEqual([]);
  });

  it('a host that never closes holds the quit a few seconds, logged, then it goes on', async () => {
    const g = setup(() => new Promise<void>(() => {}));
    g.app.quit();
    await vi.advanceTimersByTimeAsync(QUIT_WAIT_MS - 1);
    expect(g.app.calls).toEqual(['quit held']);
    await vi.advanceTimersByTimeAsync(1);
    expect(g.app.calls).toEqual(['quit held', 'quit']);
    expect(g.logged).toEqual([
      'the engine did not stop within 3 s: quitting without it (every edit is already on disk)',
    ]);
    expect(QUIT_WAIT_MS).toBeLessThanOrEqual(5_000);
  });

  it('a close that fails (or throws) is logged and the quit goes on', async () => {
    const g = setup(() => Promise.reject(new Error('the host is gone')));
    g.app.quit();
    await vi.advanceTimersByTimeAsync(0);
    expect(g.app.calls).toEqual(['quit held', 'quit']);
    const h = setup(() => {
      throw new Error('no worker');
    });
    h.app.quit();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.app.calls).toEqual(['quit held', 'quit']);
    expect([...g.logged, ...h.logged]).toEqual([
      'closing the host failed (the host is gone)',
      'closing the host failed (no worker)',
    ]);
  });

  it('a second quit while the host closes is not held again, and releases nothing twice', async () => {
    const g = setup(() => new Promise<void>(() => {}));
    g.app.quit();
    g.app.quit();
    expect(g.app.calls).toEqual(['quit held', 'quit']);
    expect(g.released()).toBe(1);
    await vi.advanceTimersByTimeAsync(QUIT_WAIT_MS);
  });
});
