/**
 * The worker thread of a bootstrap (fill-worker.ts), shared by the page decoder and the
 * checkpointer: one thread is enough for both (two cores), and each costs its own heap.
 */
import { ApiClientError } from '../api';
import {
  type Failure,
  type FromFillWorker,
  fromFillWorker,
  type ToFillWorker,
} from './fill-protocol';
import { spawnEntryWorker } from './worker-thread';

export interface FillThread {
  /** False once the worker has stopped (closed, or failed). */
  readonly alive: boolean;
  post(message: ToFillWorker, transfer?: ArrayBuffer[]): void;
  /** Every message from the worker, checked. */
  onMessage(listener: (m: FromFillWorker) => void): void;
  /** Told once, when the worker stops for any reason. */
  onStop(listener: (reason: Error) => void): void;
  /** Lets the worker end (it closes its connection first). */
  close(): Promise<void>;
}

export const failureError = (f: Failure): Error =>
  f.kind === null
    ? new Error(f.message)
    : new ApiClientError({
        kind: f.kind,
        message: f.message,
        operationId: f.operationId,
        ...(f.status === undefined ? {} : { status: f.status }),
      });

/**
 * Null when the build has no worker entry: the caller then works on its own thread. In a
 * packaged app the entry lies in app.asar beside the bundle (main/electron/build.ts).
 */
export const startFillThread = (): FillThread | null => {
  const worker = spawnEntryWorker(import.meta.url, 'fill-worker');
  if (!worker) return null;
  let alive = true;
  const messageListeners: ((m: FromFillWorker) => void)[] = [];
  const stopListeners: ((reason: Error) => void)[] = [];
  const stop = (reason: Error) => {
    if (!alive) return;
    alive = false;
    for (const l of stopListeners) l(reason);
  };
  worker.on('message', (raw: unknown) => {
    const m = fromFillWorker.safeParse(raw);
    if (!m.success) {
      stop(new Error(`fill worker: bad message: ${m.error.message}`));
      void worker.terminate();
      return;
    }
    for (const l of messageListeners) l(m.data);
  });
  worker.on('error', (e) => stop(e));
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      stop(new Error(`fill worker stopped (exit code ${code})`));
      resolve();
    }),
  );
  return {
    get alive() {
      return alive;
    },
    post: (message, transfer) => worker.postMessage(message, transfer),
    onMessage: (l) => messageListeners.push(l),
    onStop: (l) => stopListeners.push(l),
    async close() {
      if (alive) worker.postMessage({ type: 'close' } satisfies ToFillWorker);
      await exited;
    },
  };
};
