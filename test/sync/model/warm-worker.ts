/**
 * The child's fill worker, started ahead of time. Every case of the model test fills a fresh
 * org, and each first fill starts a worker thread (fill-worker.js) that loads zod and the
 * contract's schemas into a new isolate: a first fill of a two-task org took ~450 ms with its
 * worker started then, ~220 ms with one started ahead (medians of 12, machine load ~4), some
 * 60 s of a 200-case run. The engine still makes its worker with `new Worker(url)`; this hands
 * it one started the same way a moment earlier, idle until its first message (the fill worker
 * only answers), and starts the next. Nothing of the engine changes, only when the thread
 * began to load.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type { WorkerOptions, Worker as WorkerType } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const threads = require('node:worker_threads') as typeof import('node:worker_threads');
const RealWorker = threads.Worker;

let spare: { href: string; worker: WorkerType } | null = null;

const start = (href: string): WorkerType => {
  const w = new RealWorker(new URL(href));
  // An idle spare must not keep the process alive.
  w.unref();
  // One that died idle is not handed out: its exit would never reach the engine.
  w.once('exit', () => {
    if (spare?.worker === w) spare = null;
  });
  return w;
};

/** Starts the spare for `entry` (a URL of a bundled worker entry). */
export const warmWorker = (entry: URL): void => {
  spare = { href: entry.href, worker: start(entry.href) };
};

/**
 * Replaces `Worker` (the module's export and the ES binding the bundle imports): a worker of
 * the warmed entry with no options comes from the spare; anything else is made as usual.
 */
export const installWarmWorkers = (): void => {
  function WarmWorker(url: string | URL, options?: WorkerOptions): WorkerType {
    const href = url instanceof URL ? url.href : url;
    const plain = options === undefined || Object.keys(options).length === 0;
    if (spare && plain && spare.href === href) {
      const w = spare.worker;
      spare = { href, worker: start(href) };
      w.ref();
      return w;
    }
    return new RealWorker(url, options);
  }
  WarmWorker.prototype = RealWorker.prototype;
  threads.Worker = WarmWorker as unknown as typeof RealWorker;
  syncBuiltinESMExports();
};
