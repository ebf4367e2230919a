/**
 * Checkpoints of the WAL off the writing thread during a bootstrap. SQLite checkpoints
 * inside the commit that crosses `wal_autocheckpoint`: with the replica's 10,000 pages that
 * is ~40 MB copied and synced in one commit, a 100–250 ms block of the event loop, several
 * times per bootstrap. While a bootstrap runs, the writer's connection does not checkpoint;
 * the fill's worker thread does, on its own connection, every `everyMs` (at a bootstrap's pace
 * about the writer's own threshold of WAL; more often copies the pages written again and again
 * more often), without blocking the writer or readers (PASSIVE); a last one when the bootstrap
 * ends leaves the WAL copied back before the writer checkpoints by itself again.
 */
import type { Replica } from '../db/replica';
import type { FillThread } from './fill-thread';

export interface Checkpointer {
  /** True while the worker checkpoints (false: the writer does, as usual). */
  readonly threaded: boolean;
  /** Checkpoints the worker has done. */
  readonly done: number;
  /** Checkpoints once more, waits for it, and gives checkpoints back to the writer. */
  stop(): Promise<void>;
}

const idle: Checkpointer = { threaded: false, done: 0, stop: () => Promise.resolve() };

export const startCheckpointer = (
  replica: Replica,
  thread: FillThread | null,
  options: { everyMs?: number } = {},
): Checkpointer => {
  const { db } = replica;
  if (db.memory || !thread?.alive) return idle;
  const before = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  db.pragma('wal_autocheckpoint = 0');
  let active = true;
  let done = 0;
  let nextId = 1;
  let inFlight: Promise<void> | null = null;
  let settle: (() => void) | null = null;

  // Without the worker the writer checkpoints by itself again, as it would without one.
  const giveBack = () => {
    if (!active) return;
    active = false;
    clearInterval(timer);
    settle?.();
    if (db.open) db.pragma(`wal_autocheckpoint = ${before}`);
  };
  const checkpoint = (): Promise<void> => {
    inFlight ??= new Promise<void>((resolve) => {
      settle = resolve;
      thread.post({ type: 'checkpoint', id: nextId++, file: db.name });
    }).finally(() => {
      inFlight = null;
      settle = null;
    });
    return inFlight;
  };
  thread.onMessage((m) => {
    if (m.type === 'checkpointed') done++;
    // A checkpoint that failed is tried again at the next tick.
    if (m.type === 'checkpointed' || m.type === 'checkpoint-failed') settle?.();
  });
  thread.onStop(giveBack);
  const timer = setInterval(() => {
    if (active && !inFlight) void checkpoint();
  }, options.everyMs ?? 2000);
  timer.unref();

  return {
    get threaded() {
      return active;
    },
    get done() {
      return done;
    },
    async stop() {
      if (!active) return;
      await inFlight;
      if (active) await checkpoint();
      giveBack();
    },
  };
};
