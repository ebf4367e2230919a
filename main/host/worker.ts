/**
 * The host worker's entry: the services, the engine and its SQLite replica run here, so a long
 * bootstrap or a heavy query never holds up the thread that serves the window and the tray.
 * Tokens stay with the parent's vault (Electron's safeStorage lives in the main process): the
 * worker asks for them over the port.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openEngine } from '../../sync/door';
import type { TokenVault } from '../services/token-vault';
import { readHostConfig, startHost } from './host';
import { type FromWorker, toWorker } from './worker-protocol';

const port = parentPort;
if (!port) throw new Error('main/host/worker.ts runs as a worker thread');
const post = (m: FromWorker) => port.postMessage(m);
const describe = (e: unknown) => (e instanceof Error ? e.message : String(e));

let nextVaultId = 1;
const vaultCalls = new Map<
  number,
  { resolve: (v: string | null) => void; reject: (e: Error) => void }
>();
const ask = (op: 'read' | 'write' | 'clear', secret?: string) =>
  new Promise<string | null>((resolve, reject) => {
    const id = nextVaultId++;
    vaultCalls.set(id, { resolve, reject });
    post({ type: 'vault', id, op, ...(secret === undefined ? {} : { secret }) });
  });
const vault: TokenVault = {
  read: () => ask('read'),
  write: async (secret) => void (await ask('write', secret)),
  clear: async () => void (await ask('clear')),
};

const log = (message: string, error?: unknown) =>
  post({ type: 'log', message, ...(error === undefined ? {} : { error: describe(error) }) });

const main = async () => {
  const host = await startHost(readHostConfig(workerData), { vault, openEngine, log });
  host.endpoint.subscribe((event, payload) => post({ type: 'event', event, payload }));
  port.on('message', (raw: unknown) => {
    const parsed = toWorker.safeParse(raw);
    if (!parsed.success) return log('a message of unknown shape from the parent');
    const m = parsed.data;
    if (m.type === 'call') {
      void host.endpoint
        .call(m.method, m.input)
        .then((response) => post({ type: 'result', id: m.id, response }));
    } else if (m.type === 'vault-result') {
      const pending = vaultCalls.get(m.id);
      vaultCalls.delete(m.id);
      if (m.ok) pending?.resolve(m.value);
      else pending?.reject(new Error(m.error ?? 'the vault failed'));
    } else {
      void host.close().finally(() => {
        post({ type: 'closed' });
        port.close();
      });
    }
  });
  post({ type: 'ready' });
};

main().catch((e: unknown) => post({ type: 'failed', message: describe(e) }));
