/**
 * An engine on the demo server, for tests of what reaches the server: opened through its first
 * fill with fast retries, closed after each test, and the helpers those tests share.
 */
import { afterEach, expect } from 'vitest';
import { type RunningServer, startServer } from '../../server/app';
import type { Quirk } from '../../server/deps';
import type { ApiClient } from '../../sync/api';
import { openEngine } from '../../sync/engine/engine';
import type { EngineOptions, SyncEngine } from '../../sync/engine/engine-api';
import { admin, demoClient, startDemoServer, tempDir } from './support';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a test may set of its engine's schedule, and its clock (the client's too). */
export type TestEngineOptions = Pick<EngineOptions, 'pullIntervalMs' | 'backoff' | 'now'>;

/**
 * An engine on `client`'s server, not started: a fresh data folder, fast retries, no timer
 * pulls (unless `options` say otherwise).
 */
export const testEngine = (
  client: ApiClient,
  folder: string,
  options: TestEngineOptions = {},
): SyncEngine =>
  openEngine({
    dataDir: tempDir(folder),
    client,
    userId: client.session.user?.userId ?? 0,
    pullIntervalMs: 3_600_000,
    backoff: { baseMs: 20, capMs: 100 },
    ...options,
  });

/** Call once per test file: what `setUp` opens is closed after each test. */
export const engineSetup = () => {
  let opened: { server: RunningServer; client: ApiClient; engine: SyncEngine } | undefined;
  afterEach(async () => {
    await opened?.engine.close();
    await opened?.client.close();
    await opened?.server.close();
    opened = undefined;
  });
  /** The demo server (its clock `skewMs` off, with `quirks`), an engine through its first fill. */
  return async (skewMs = 0, quirks: Quirk[] = [], options: TestEngineOptions = {}) => {
    const server =
      quirks.length > 0
        ? await startServer({ dataDir: null, admin: true, seed: { kind: 'demo' }, quirks })
        : await startDemoServer();
    if (skewMs !== 0) await admin(server, 'clock', { offsetMs: skewMs });
    const client = await demoClient(server, 1, 'demo', options.now);
    const engine = testEngine(client, 'engine-', options);
    opened = { server, client, engine };
    engine.start();
    await engine.syncNow();
    return opened;
  };
};

export const faults = (s: RunningServer, body: unknown) => admin(s, 'faults', body);

/** Syncs until nothing is pending (fast backoff: retries come due quickly); nothing failed. */
export const settle = async (e: SyncEngine) => {
  for (let i = 0; i < 100 && e.status().pending > 0; i++) {
    await e.syncNow();
    if (e.status().pending > 0) await sleep(30);
  }
  expect(e.status().failed).toEqual([]);
  expect(e.status().pending).toBe(0);
};

/** The server id of an entity created offline, once mapped. */
export const serverIdOf = (e: SyncEngine, kind: string, id: number): number =>
  id > 0
    ? id
    : (
        e.replica.db
          .prepare('SELECT server_id FROM local_ids WHERE entity_kind = ? AND local_id = ?')
          .get(kind, id) as { server_id: number }
      ).server_id;

/** A task with one checklist item, on the server: their server ids. */
export const taskWithItem = async (e: SyncEngine, title: string) => {
  const t = e.edit({ kind: 'task.create', fields: { taskTitle: title } });
  const c = e.edit({ kind: 'checklist.create', taskId: t.id, name: 'item' });
  await settle(e);
  return { taskId: serverIdOf(e, 'task', t.id), checklistId: serverIdOf(e, 'checklist', c.id) };
};
