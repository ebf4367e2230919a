import type { Worker } from 'node:worker_threads';
import type { z } from 'zod';
import { type BridgeEventName, type BridgeEvents, bridgeEvents } from '../../shared/bridge';
import type { BridgeResponse } from '../../shared/bridge/define';
import { spawnEntryWorker } from '../../sync/door/paths';
import type { BridgeEndpoint } from '../bridge/endpoint';
import type { EventListener } from '../bridge/events';
import { logFileIn, logsDir } from '../services/log-file';
import type { TokenVault } from '../services/token-vault';
import type { HostConfig } from './host';
import { fromWorker, type ToWorker } from './worker-protocol';

export interface WorkerHost extends BridgeEndpoint {
  /** An event raised on this side (a deep link, a notification click), to every subscriber. */
  emit<E extends BridgeEventName>(event: E, payload: z.input<BridgeEvents[E]>): void;
  /** Stops the engine (the replica stays), the demo server and the worker. */
  close(): Promise<void>;
}

export interface WorkerHostOptions {
  vault: TokenVault;
  /** Where the host's messages are shown too (they always go to the data folder's log file). */
  log?: (message: string, error?: string) => void;
}

/**
 * The host's worker: `worker.ts` from sources (with tsx), `worker.js` beside a bundle (in a
 * packaged app, inside app.asar: main/electron/build.ts).
 */
const spawnWorker = (config: HostConfig): Worker => {
  const worker = spawnEntryWorker(import.meta.url, 'worker', { workerData: config });
  if (!worker) throw new Error('the host worker (worker.js) is missing beside the app bundle');
  return worker;
};

/** Starts the host in a worker thread and answers once its services are up. */
export const startWorkerHost = (
  config: HostConfig,
  options: WorkerHostOptions,
): Promise<WorkerHost> => {
  const show = options.log ?? ((m, e) => console.error(`worktray host: ${m}`, e ?? ''));
  const file = logFileIn(logsDir(config.dataDir));
  const log = (message: string, error?: string) => {
    file.write(`host: ${message}`, error);
    show(message, error);
  };
  const worker = spawnWorker(config);
  const listeners = new Set<EventListener>();
  const calls = new Map<number, (r: BridgeResponse) => void>();
  let nextId = 1;
  let closed: (() => void) | null = null;
  let dead: string | null = null;
  const send = (m: ToWorker) => worker.postMessage(m);
  const fanOut = (event: string, payload: unknown) => {
    for (const l of [...listeners]) l(event, payload);
  };

  const vaultOp = async (id: number, op: 'read' | 'write' | 'clear', secret?: string) => {
    try {
      let value: string | null = null;
      if (op === 'read') value = await options.vault.read();
      else if (op === 'write') await options.vault.write(secret ?? '');
      else await options.vault.clear();
      send({ type: 'vault-result', id, ok: true, value });
    } catch (e) {
      send({
        type: 'vault-result',
        id,
        ok: false,
        value: null,
        error: e instanceof Error ? e.message : String(e),
      });
    }
  };

  const failAll = (message: string) => {
    dead = message;
    for (const [, resolve] of calls) resolve({ ok: false, error: { code: 'internal', message } });
    calls.clear();
  };

  return new Promise<WorkerHost>((resolve, reject) => {
    const host: WorkerHost = {
      call(method, input) {
        if (dead !== null)
          return Promise.resolve({ ok: false, error: { code: 'internal', message: dead } });
        const id = nextId++;
        return new Promise<BridgeResponse>((done) => {
          calls.set(id, done);
          send({ type: 'call', id, method, input });
        });
      },
      subscribe(listener) {
        listeners.add(listener);
        return () => {
          listeners.delete(listener);
        };
      },
      emit(event, payload) {
        fanOut(event, bridgeEvents[event].parse(payload));
      },
      close() {
        if (dead !== null) return Promise.resolve();
        return new Promise<void>((done) => {
          closed = done;
          send({ type: 'close' });
        });
      },
    };
    worker.on('message', (raw: unknown) => {
      const parsed = fromWorker.safeParse(raw);
      if (!parsed.success) return log('a message of unknown shape from the host worker');
      const m = parsed.data;
      switch (m.type) {
        case 'ready':
          return resolve(host);
        case 'failed':
          failAll(`the host failed to start: ${m.message}`);
          return reject(new Error(`the host failed to start: ${m.message}`));
        case 'result': {
          const done = calls.get(m.id);
          calls.delete(m.id);
          return done?.(m.response);
        }
        case 'event':
          return fanOut(m.event, m.payload);
        case 'vault':
          return void vaultOp(m.id, m.op, m.secret);
        case 'log':
          return log(m.message, m.error);
        case 'closed':
          dead = 'the host is closed';
          return;
      }
    });
    worker.on('error', (e) => {
      log('the host worker crashed', e.message);
      failAll(`the host crashed: ${e.message}`);
      reject(e);
    });
    worker.on('exit', (code) => {
      if (dead === null) failAll(`the host stopped (exit code ${code})`);
      closed?.();
    });
  });
};
