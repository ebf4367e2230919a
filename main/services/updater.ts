/**
 * Auto-update, apart from Electron: what a check does and what the user is told. The updater
 * itself (electron-updater, main/electron/electron-updater.ts) sits behind `Updater` and is
 * loaded on the first check, so with no feed set nothing is loaded and nothing runs.
 */

export type UpdateCheck =
  | { available: false }
  /** A newer version; its download has started and `downloaded` settles when it ends. */
  | { available: true; version: string; downloaded: Promise<void> };

export interface Updater {
  /** The generic feed to ask (the folder with latest*.yml and the installers). */
  setFeed(url: string): void;
  check(): Promise<UpdateCheck>;
  onProgress(listener: (percent: number) => void): void;
  /** Quits the app and installs the downloaded update. */
  restart(): void;
}

export type UpdateStatus =
  | { state: 'off' }
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'up-to-date'; version: string }
  | { state: 'downloading'; version: string; percent: number | null }
  | { state: 'ready'; version: string }
  | { state: 'error'; message: string };

export interface UpdateControllerOptions {
  load(): Promise<Updater>;
  /** This app's version (an up-to-date answer names it). */
  appVersion: string;
  /** Every change; `userAsked` when it follows a "Check for updates" click. */
  onStatus(status: UpdateStatus, userAsked: boolean): void;
}

const firstLine = (text: string) => (text.split('\n')[0] ?? '').trim().slice(0, 300);

/** electron-updater's messages (HTTP dumps, stacks) cut to what a user can act on. */
export const plainUpdateError = (e: unknown): string => {
  const text = e instanceof Error ? e.message : String(e);
  const network =
    /net::(ERR_[A-Z_]+)|\b(ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN)\b/.exec(text);
  if (network) return `could not reach the update feed (${network[1] ?? network[2]})`;
  const http = /HttpError: (\d{3})/.exec(text);
  if (http?.[1] === '404')
    return 'the update feed answered HTTP 404: check its address in Sync › Troubleshooting';
  if (http) return `the update feed answered HTTP ${http[1]}`;
  return firstLine(text);
};

export class UpdateController {
  private current: UpdateStatus = { state: 'off' };
  private feed: string | null = null;
  private updater: Promise<Updater> | null = null;
  private loaded: Updater | null = null;

  constructor(private readonly options: UpdateControllerOptions) {}

  get status(): UpdateStatus {
    return this.current;
  }

  /** From settings: null turns updates off (a check then does nothing). */
  setFeed(url: string | null): void {
    if (url === this.feed) return;
    this.feed = url;
    this.set(url === null ? { state: 'off' } : { state: 'idle' }, false);
  }

  /** Asks the feed; a newer version downloads at once. Answers the status it leads to. */
  async check({ userAsked }: { userAsked: boolean }): Promise<UpdateStatus> {
    const feed = this.feed;
    const busy = ['checking', 'downloading', 'ready'].includes(this.current.state);
    if (feed === null || busy) return this.current;
    this.set({ state: 'checking' }, userAsked);
    let updater: Updater;
    try {
      updater = await this.load();
    } catch (e) {
      this.updater = null;
      return this.settle(
        feed,
        { state: 'error', message: `the updater could not start: ${plainUpdateError(e)}` },
        userAsked,
      );
    }
    let found: UpdateCheck;
    try {
      updater.setFeed(feed);
      found = await updater.check();
    } catch (e) {
      return this.settle(feed, { state: 'error', message: plainUpdateError(e) }, userAsked);
    }
    if (!found.available)
      return this.settle(
        feed,
        { state: 'up-to-date', version: this.options.appVersion },
        userAsked,
      );
    const { version } = found;
    found.downloaded.then(
      () => this.settle(feed, { state: 'ready', version }, false),
      (e: unknown) =>
        this.settle(
          feed,
          { state: 'error', message: `the download of ${version} failed: ${plainUpdateError(e)}` },
          false,
        ),
    );
    return this.settle(feed, { state: 'downloading', version, percent: null }, userAsked);
  }

  /** "Restart to update": only once an update is downloaded. */
  restart(): void {
    if (this.current.state === 'ready') this.loaded?.restart();
  }

  private load(): Promise<Updater> {
    this.updater ??= this.options.load().then((u) => {
      this.loaded = u;
      u.onProgress((percent) => {
        const c = this.current;
        const rounded = Math.round(percent);
        if (c.state === 'downloading' && c.percent !== rounded)
          this.set({ ...c, percent: rounded }, false);
      });
      return u;
    });
    return this.updater;
  }

  /** A result for the feed it was asked of; the feed changed meanwhile: it is dropped. */
  private settle(feed: string, status: UpdateStatus, userAsked: boolean): UpdateStatus {
    if (this.feed === feed) this.set(status, userAsked);
    return this.current;
  }

  private set(status: UpdateStatus, userAsked: boolean): void {
    this.current = status;
    this.options.onStatus(status, userAsked);
  }
}

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

/**
 * The native notice for a status, or null: what a check the user asked for found, and a
 * downloaded update whoever asked (background checks are otherwise silent; the menus say it).
 */
export const updateNotice = (
  status: UpdateStatus,
  userAsked: boolean,
): { title: string; body: string } | null => {
  if (status.state === 'ready')
    return {
      title: 'Update ready',
      body: `Worktray ${status.version} is downloaded: choose "Restart to update" in the tray or Help menu.`,
    };
  if (!userAsked) return null;
  if (status.state === 'up-to-date')
    return {
      title: 'Worktray is up to date',
      body: `You have the latest version (${status.version}).`,
    };
  if (status.state === 'error')
    return { title: 'Could not check for updates', body: sentence(status.message) };
  if (status.state === 'downloading' && status.percent === null)
    return {
      title: `Downloading Worktray ${status.version}`,
      body: 'You will be told when it is ready to install.',
    };
  return null;
};
