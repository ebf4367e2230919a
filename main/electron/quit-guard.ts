/**
 * What a quit waits for: the engine to stop cleanly, for a few seconds at most. The quit (the
 * user's, an update's install, the OS shutting down) goes on after that whatever the engine
 * does; a host that hangs (a sign-in still waiting on the network, a stuck request) must not
 * keep the app, an installer or a shutdown waiting.
 *
 * Quitting without the engine's close loses no edit. Each edit is committed to the replica with
 * its outbox row, the WAL synced, before the window is told it was applied (`durably`,
 * sync/db/open.ts); SQLite keeps what was committed when a process ends with its connection
 * open, and the next open reads it back from the WAL. A request in flight is sent again at the
 * next launch and found done if it was. That is a killed app, which the engine is built and
 * tested for (test/sync/outbox-crash.test.ts, held-answer.test.ts). The close adds a WAL
 * checkpoint and the server clock's last estimate, both made again later.
 */
export const QUIT_WAIT_MS = 3_000;

/** The part of Electron's `app` this needs (the stand-in's in tests). */
export interface QuittingApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
}

export interface QuitGuardOptions {
  /** Releases what the launch set up (tray, IPC, timers); runs once, at the first quit. */
  release(): void;
  /** Stops the host and its engine. */
  close(): Promise<void>;
  log(message: string, detail?: string): void;
  waitMs?: number;
}

/**
 * The first quit is held back while the host closes, then made again; the second goes
 * through. A close that fails or takes longer than `waitMs` is logged and the quit goes on.
 */
export const guardQuit = (
  app: QuittingApp,
  { release, close, log, waitMs = QUIT_WAIT_MS }: QuitGuardOptions,
): void => {
  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    event.preventDefault();
    quitting = true;
    release();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), waitMs);
    });
    const closed = Promise.resolve()
      .then(close)
      .then(
        () => 'closed' as const,
        (e: unknown) => {
          log('closing the host failed', e instanceof Error ? e.message : String(e));
          return 'failed' as const;
        },
      );
    void Promise.race([closed, late]).then((outcome) => {
      clearTimeout(timer);
      if (outcome === 'late')
        log(
          `the engine did not stop within ${waitMs / 1000} s: quitting without it`,
          'every edit is already on disk',
        );
      app.quit();
    });
  });
};
