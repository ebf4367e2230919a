/**
 * Builds the task tables' indexes a first fill dropped for its move
 * (sync/db/queries/tasks-stage-indexes.ts), one index per statement: on the fill's worker
 * thread when there is one (an index over 100k rows takes up to ~250 ms, far over the event
 * loop's ~50 ms), on the caller's thread otherwise (a build without the worker, or a restart
 * that finds indexes still to build).
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { buildDeferredIndex, deferredIndexes } from '../db/queries/tasks-stage-indexes';
import type { Replica } from '../db/replica';
import type { FillThread } from './fill-thread';
import { PullCancelledError } from './progress';

type Build = (file: string, name: string) => Promise<void>;

/** One builder per thread: a thread's message listeners stay for its whole life. */
const builders = new WeakMap<FillThread, Build>();

const threadBuilder = (thread: FillThread): Build => {
  const known = builders.get(thread);
  if (known) return known;
  const waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  let nextId = 1;
  thread.onMessage((m) => {
    if (m.type !== 'index-built' && m.type !== 'index-failed') return;
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.type === 'index-built') w?.resolve();
    else w?.reject(new Error(`building index: ${m.message}`));
  });
  thread.onStop((reason) => {
    for (const w of waiting.values()) w.reject(reason);
    waiting.clear();
  });
  const build: Build = (file, name) =>
    new Promise<void>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      thread.post({ type: 'build-index', id, file, name });
    });
  builders.set(thread, build);
  return build;
};

/** Builds every deferred index; the number built. Resumable: each one is its own transaction. */
export const buildDeferredIndexes = async (
  replica: Replica,
  options: { thread?: FillThread | null; signal?: AbortSignal } = {},
): Promise<number> => {
  const pending = deferredIndexes(replica.db);
  for (const { name } of pending) {
    if (options.signal?.aborted) throw new PullCancelledError();
    const { thread } = options;
    if (thread?.alive && !replica.db.memory) await threadBuilder(thread)(replica.db.name, name);
    else buildDeferredIndex(replica.db, name);
    await yieldToLoop();
  }
  return pending.length;
};
