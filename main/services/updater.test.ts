import { describe, expect, it } from 'vitest';
import {
  plainUpdateError,
  type UpdateCheck,
  UpdateController,
  type Updater,
  type UpdateStatus,
  updateNotice,
} from './updater';

/**
 * The update controller with a stand-in for electron-updater (main/electron/electron-updater.ts
 * adapts the real one to the same interface): each outcome a check can have, as the user sees it.
 */
class StandInUpdater implements Updater {
  feeds: string[] = [];
  checks = 0;
  restarts = 0;
  private progress: ((percent: number) => void) | null = null;
  constructor(private readonly answer: () => Promise<UpdateCheck>) {}
  setFeed(url: string) {
    this.feeds.push(url);
  }
  check() {
    this.checks += 1;
    return this.answer();
  }
  onProgress(listener: (percent: number) => void) {
    this.progress = listener;
  }
  report(percent: number) {
    this.progress?.(percent);
  }
  restart() {
    this.restarts += 1;
  }
}

const FEED = 'https://updates.example.com/worktray/';

const setUp = (answer: () => Promise<UpdateCheck>) => {
  const updater = new StandInUpdater(answer);
  let loads = 0;
  const seen: { status: UpdateStatus; userAsked: boolean }[] = [];
  const controller = new UpdateController({
    load: async () => {
      loads += 1;
      return updater;
    },
    appVersion: '0.1.0',
    onStatus: (status, userAsked) => seen.push({ status, userAsked }),
  });
  return { updater, controller, seen, loads: () => loads };
};

const settle = () => new Promise((r) => setImmediate(r));

const deferred = () => {
  let resolve: () => void = () => {};
  let reject: (e: Error) => void = () => {};
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

describe('UpdateController', () => {
  it('is off without a feed: nothing is loaded and no check runs', async () => {
    const t = setUp(async () => ({ available: false }));
    expect(t.controller.status).toEqual({ state: 'off' });
    expect(await t.controller.check({ userAsked: true })).toEqual({ state: 'off' });
    t.controller.setFeed(null);
    expect(await t.controller.check({ userAsked: false })).toEqual({ state: 'off' });
    expect(t.loads()).toBe(0);
    expect(t.updater.checks).toBe(0);
  });

  it('up to date: checks the feed set in settings and says so', async () => {
    const t = setUp(async () => ({ available: false }));
    t.controller.setFeed(FEED);
    expect(t.controller.status).toEqual({ state: 'idle' });
    expect(await t.controller.check({ userAsked: true })).toEqual({
      state: 'up-to-date',
      version: '0.1.0',
    });
    expect(t.updater.feeds).toEqual([FEED]);
    expect(t.seen.map((s) => s.status.state)).toEqual(['idle', 'checking', 'up-to-date']);
    expect(t.seen.at(-1)?.userAsked).toBe(true);
  });

  it('a newer version: downloading (with progress), then ready to restart', async () => {
    const download = deferred();
    const t = setUp(async () => ({
      available: true,
      version: '0.2.0',
      downloaded: download.promise,
    }));
    t.controller.setFeed(FEED);
    expect(await t.controller.check({ userAsked: false })).toEqual({
      state: 'downloading',
      version: '0.2.0',
      percent: null,
    });
    t.updater.report(41.6);
    expect(t.controller.status).toEqual({ state: 'downloading', version: '0.2.0', percent: 42 });
    // A second check while downloading asks nothing more.
    await t.controller.check({ userAsked: true });
    expect(t.updater.checks).toBe(1);

    download.resolve();
    await settle();
    expect(t.controller.status).toEqual({ state: 'ready', version: '0.2.0' });
    t.controller.restart();
    expect(t.updater.restarts).toBe(1);
  });

  it('a failed check or download is an error in plain words', async () => {
    const t = setUp(async () => {
      throw new Error(
        'Cannot find channel "latest-linux.yml" update info: HttpError: 404 \n"method: GET url: https://updates.example.com/worktray/latest-linux.yml"',
      );
    });
    t.controller.setFeed(FEED);
    expect(await t.controller.check({ userAsked: true })).toEqual({
      state: 'error',
      message: 'the update feed answered HTTP 404: check its address in Sync › Troubleshooting',
    });

    const download = deferred();
    const d = setUp(async () => ({
      available: true,
      version: '0.2.0',
      downloaded: download.promise,
    }));
    d.controller.setFeed(FEED);
    await d.controller.check({ userAsked: false });
    download.reject(new Error('sha512 checksum mismatch'));
    await settle();
    expect(d.controller.status).toEqual({
      state: 'error',
      message: 'the download of 0.2.0 failed: sha512 checksum mismatch',
    });
    d.controller.restart();
    expect(d.updater.restarts).toBe(0);
  });

  it('an updater that cannot load is an error, not a crash', async () => {
    const c = new UpdateController({
      load: async () => {
        throw new Error('Cannot find module electron-updater');
      },
      appVersion: '0.1.0',
      onStatus: () => {},
    });
    c.setFeed(FEED);
    expect(await c.check({ userAsked: true })).toEqual({
      state: 'error',
      message: 'the updater could not start: Cannot find module electron-updater',
    });
  });

  it('turning the feed off mid-check keeps it off', async () => {
    let answer: (c: UpdateCheck) => void = () => {};
    const t = setUp(() => new Promise<UpdateCheck>((r) => (answer = r)));
    t.controller.setFeed(FEED);
    const check = t.controller.check({ userAsked: false });
    await settle();
    t.controller.setFeed(null);
    answer({ available: false });
    await check;
    expect(t.controller.status).toEqual({ state: 'off' });
  });
});

describe('plainUpdateError', () => {
  it.each([
    ['net::ERR_NAME_NOT_RESOLVED', 'could not reach the update feed (ERR_NAME_NOT_RESOLVED)'],
    ['getaddrinfo ENOTFOUND updates.example.com', 'could not reach the update feed (ENOTFOUND)'],
    ['connect ECONNREFUSED 127.0.0.1:9', 'could not reach the update feed (ECONNREFUSED)'],
    ['HttpError: 500 \n"method: GET"', 'the update feed answered HTTP 500'],
    ['first line\n  at stack', 'first line'],
  ])('%s', (raw, plain) => {
    expect(plainUpdateError(new Error(raw))).toBe(plain);
  });
});

describe('updateNotice', () => {
  it('tells the user what a check they asked for found; a ready update always', () => {
    expect(updateNotice({ state: 'up-to-date', version: '0.1.0' }, true)).toEqual({
      title: 'Worktray is up to date',
      body: 'You have the latest version (0.1.0).',
    });
    expect(updateNotice({ state: 'up-to-date', version: '0.1.0' }, false)).toBeNull();
    expect(updateNotice({ state: 'error', message: 'the feed answered HTTP 500' }, true)).toEqual({
      title: 'Could not check for updates',
      body: 'The feed answered HTTP 500.',
    });
    expect(updateNotice({ state: 'error', message: 'x' }, false)).toBeNull();
    expect(
      updateNotice({ state: 'downloading', version: '0.2.0', percent: null }, true)?.title,
    ).toBe('Downloading Worktray 0.2.0');
    expect(updateNotice({ state: 'downloading', version: '0.2.0', percent: 5 }, true)).toBeNull();
    expect(updateNotice({ state: 'ready', version: '0.2.0' }, false)).toEqual({
      title: 'Update ready',
      body: 'Worktray 0.2.0 is downloaded: choose "Restart to update" in the tray or Help menu.',
    });
  });
});
