/**
 * The fill's worker thread (fill-thread.ts): decodes the pages of a first fill, in the order
 * they arrive, telling each page's cursor first; checkpoints the replica's WAL and builds the
 * task tables' indexes after the move on a connection of its own, so that none of it blocks
 * the writing thread's event loop.
 */
import { parentPort } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { processSqliteOptions } from '../db/open';
import { buildDeferredIndex } from '../db/queries/tasks-stage-indexes';
import { type FromFillWorker, toFailure, toFillWorker } from './fill-protocol';
import { decodeStagePage } from './page-decode';

const port = parentPort;
if (!port) throw new Error('sync/engine/fill-worker.ts runs as a worker thread');
const post = (m: FromFillWorker) => port.postMessage(m);
const checkpointRows = z.array(
  z.object({ busy: z.number(), log: z.number(), checkpointed: z.number() }),
);
// No migrations, no settings of the replica's own: this connection only checkpoints and
// builds indexes (waiting up to better-sqlite3's 5 s busy timeout for the writer's commits).
let db: Database.Database | null = null;
const connection = (file: string) => {
  if (db?.name !== file) {
    db?.close();
    db = new Database(file, { fileMustExist: true, ...processSqliteOptions() });
    // better-sqlite3's default cache is 16 MB, which an index build filled (+20 MB of peak
    // RSS); checkpoints need none, and a build reads each table once (4 MB: as fast; 1 MB
    // was ~30% slower, its sorts spilling more).
    db.pragma('cache_size = -4096');
  }
  return db;
};

port.on('message', (raw: unknown) => {
  const parsed = toFillWorker.safeParse(raw);
  if (!parsed.success) {
    const id = (raw as { id?: unknown } | null)?.id;
    post({
      type: 'error',
      id: typeof id === 'number' ? id : -1,
      error: toFailure(new Error(`bad request: ${parsed.error.message}`)),
    });
    return;
  }
  const m = parsed.data;
  if (m.type === 'close') {
    db?.close();
    port.close();
    return;
  }
  if (m.type === 'checkpoint') {
    try {
      // PASSIVE: copies what it can without waiting for, or blocking, the writer and readers.
      const [r] = checkpointRows.parse(connection(m.file).pragma('wal_checkpoint(PASSIVE)'));
      post({
        type: 'checkpointed',
        id: m.id,
        log: r?.log ?? 0,
        checkpointed: r?.checkpointed ?? 0,
      });
    } catch (e) {
      post({
        type: 'checkpoint-failed',
        id: m.id,
        message: e instanceof Error ? e.message : String(e),
      });
    }
    return;
  }
  if (m.type === 'build-index') {
    try {
      buildDeferredIndex(connection(m.file), m.name);
      post({ type: 'index-built', id: m.id });
    } catch (e) {
      post({ type: 'index-failed', id: m.id, message: e instanceof Error ? e.message : String(e) });
    }
    return;
  }
  try {
    const result = decodeStagePage(m, (nextCursor) =>
      post({ type: 'cursor', id: m.id, nextCursor }),
    );
    post({ type: 'page', id: m.id, result });
  } catch (e) {
    post({ type: 'error', id: m.id, error: toFailure(e) });
  }
});
