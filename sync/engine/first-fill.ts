import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { nextBatchSize } from '../db/batch-size';
import {
  clearStage,
  firstFillActive,
  mergeStagedTasks,
  moveStarted,
  readStageOrder,
} from '../db/queries/tasks-stage';
import { deferTaskIndexes } from '../db/queries/tasks-stage-indexes';
import type { Replica } from '../db/replica';
import { writeTx } from '../db/write-tx';
import { buildDeferredIndexes } from './fill-indexes';
import type { FillThread } from './fill-thread';
import { PullCancelledError } from './progress';

export interface MergeOptions {
  signal?: AbortSignal;
  /** Time one transaction may block the event loop. */
  writeBudgetMs?: number;
  /** Tasks in the first transaction (default 250); later ones are sized to the budget. */
  firstChunk?: number;
  /** Told the tasks moved so far (a progress bar's second half). */
  onMerged?: (merged: number, total: number) => void;
  /** The fill's worker thread, which builds the indexes after the move (else this thread). */
  thread?: FillThread | null;
}

/**
 * Caches for a first fill, in KiB. The stage and the task tables together outgrow the usual
 * cache (128 MB), which then fills up and stays in the process. Staging only appends: a few
 * MB hold the pages it is filling (with 32 MB, the cache filled up with pages written once,
 * kept through the rest of the fill). The move reads each staged row once, in id order, from
 * all over the stage: 16 MB cost it ~0.2-0.5 s more CPU than 32 MB for 100k tasks.
 */
const fillCacheKib = { stage: 8192, move: 32_768 } as const;

/** Runs `fn` with a fill's smaller page cache on the replica's connection. */
export const withFillCache = async <T>(
  replica: Replica,
  fn: () => Promise<T>,
  phase: keyof typeof fillCacheKib = 'move',
): Promise<T> => {
  const before = replica.db.pragma('cache_size', { simple: true }) as number;
  replica.db.pragma(`cache_size = -${fillCacheKib[phase]}`);
  try {
    return await fn();
  } finally {
    replica.db.pragma(`cache_size = ${before}`);
  }
};

/**
 * Moves a staged first fill (sync/db/queries/tasks-stage.ts) into the task tables in task id
 * order, a chunk sized to the write budget per transaction, yielding between chunks, without
 * the tables' secondary indexes; builds those again; then empties the stage. Resumes where a
 * kill or a cancel left it; with no fill under way, builds any index a kill left unbuilt. The
 * number of tasks moved.
 */
export const mergeFirstFill = async (
  replica: Replica,
  options: MergeOptions = {},
): Promise<number> => {
  if (firstFillActive(replica.db)) return withFillCache(replica, () => merge(replica, options));
  await buildDeferredIndexes(replica, options);
  return 0;
};

/** Tasks per statement of the move at least: fewer and the statements' own cost shows. */
const MIN_MOVE_STEP = 50;

const merge = async (replica: Replica, options: MergeOptions): Promise<number> => {
  const budget = options.writeBudgetMs ?? 40;
  const check = () => {
    if (options.signal?.aborted) throw new PullCancelledError();
  };
  // The last staged copy of each task not moved yet, read a chunk sized to the budget at a
  // time (each row read brings its whole staged page in: 20,000 rows blocked for 75-140 ms).
  const order = new Map<number, number>();
  for (let after = Number.MIN_SAFE_INTEGER, limit = 2000; ; ) {
    const started = performance.now();
    const { next } = readStageOrder(replica.db, order, after, limit);
    if (next === null) break;
    after = next;
    limit = nextBatchSize(limit, limit, performance.now() - started, budget);
    await yieldToLoop();
  }
  // A typed array sorts 100k ids in a few ms (objects with a comparator: tens of ms).
  const ids = Float64Array.from(order.keys()).sort();
  // Before the first chunk only: a resumed move keeps what it dropped (and, once over, what it
  // has built again). The tables hold no server task yet: the drop costs nothing.
  if (!moveStarted(replica.db)) {
    writeTx(replica.db, () => deferTaskIndexes(replica.db));
    await yieldToLoop();
  }
  let size = options.firstChunk ?? 250;
  let merged = 0;
  while (merged < ids.length) {
    check();
    const chunk = Array.from(ids.subarray(merged, merged + size), (taskId) => ({
      taskId,
      seq: order.get(taskId) as number,
    }));
    const started = performance.now();
    const done = replica.transaction(() => {
      // In quarters, the clock read between them: a chunk whose pace changed (sized after a
      // fast one, or the thread descheduled) ends at the budget instead of twice past it.
      const step = Math.max(MIN_MOVE_STEP, Math.ceil(chunk.length / 4));
      let n = 0;
      while (n < chunk.length) {
        mergeStagedTasks(replica.db, chunk.slice(n, n + step));
        n = Math.min(chunk.length, n + step);
        if (performance.now() - started >= budget) break;
      }
      replica.noteServerWrite(chunk.slice(0, n).map((c) => `task:${c.taskId}`));
      return n;
    });
    merged += done;
    size = nextBatchSize(size, done, performance.now() - started, budget);
    options.onMerged?.(merged, ids.length);
    await yieldToLoop();
  }
  await buildDeferredIndexes(replica, options);
  // Emptying appended rows in their order frees whole pages: larger chunks fit the budget.
  let clearSize = 5000;
  for (;;) {
    check();
    const started = performance.now();
    if (writeTx(replica.db, () => clearStage(replica.db, clearSize))) break;
    clearSize = nextBatchSize(clearSize, clearSize, performance.now() - started, budget);
    await yieldToLoop();
  }
  return merged;
};
