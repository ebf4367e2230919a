import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { nextBatchSize } from '../batch-size';
import { stmt } from '../kysely';
import type { Sqlite } from '../open';
import { writeTx } from '../write-tx';

const key = 'fts_indexed_upto';

/**
 * From now on, new tasks are not indexed as they are written (a bootstrap writes faster
 * without it); `catchUpSearchIndex` indexes them afterwards. Only for an empty tasks table:
 * the ids the index holds must be exactly those up to the mark.
 */
export const deferSearchIndex = (db: Sqlite): void => {
  const any = stmt(db, 'SELECT 1 FROM tasks LIMIT 1').get();
  if (any) return;
  stmt(db, 'INSERT OR REPLACE INTO replica_info (key, value) VALUES (?, ?)').run(
    key,
    String(Number.MIN_SAFE_INTEGER),
  );
};

export const searchIndexPending = (db: Sqlite): boolean =>
  stmt(db, 'SELECT 1 FROM replica_info WHERE key = ?').get(key) !== undefined;

/**
 * Indexes the tasks written while indexing was deferred, in id order, one chunk per
 * transaction with a yield between chunks, each sized to about `budgetMs` at the last one's
 * pace; the mark moves with each chunk, so a kill resumes. Each commit writes the chunk as a
 * segment of the index: fixed chunks of 500 took 0.41-0.50 s for 100k tasks, of 5,000 0.28 s.
 */
export const catchUpSearchIndex = async (
  db: Sqlite,
  { firstChunk = 500, budgetMs = 40 }: { firstChunk?: number; budgetMs?: number } = {},
): Promise<number> => {
  let indexed = 0;
  let chunk = firstChunk;
  for (;;) {
    const row = stmt(
      db,
      'SELECT CAST(value AS INTEGER) AS upto FROM replica_info WHERE key = ?',
    ).get(key) as { upto: number } | undefined;
    if (!row) return indexed;
    const started = performance.now();
    const n = writeTx(db, () => {
      const ids = stmt(
        db,
        'SELECT task_id FROM tasks WHERE task_id > ? ORDER BY task_id LIMIT ?',
      ).all(row.upto, chunk) as { task_id: number }[];
      const last = ids.at(-1)?.task_id;
      if (last === undefined) {
        stmt(db, 'DELETE FROM replica_info WHERE key = ?').run(key);
        return 0;
      }
      stmt(
        db,
        'INSERT INTO tasks_fts(rowid, title, description) SELECT task_id, title, description FROM tasks WHERE task_id > ? AND task_id <= ? ORDER BY task_id',
      ).run(row.upto, last);
      stmt(db, 'UPDATE replica_info SET value = ? WHERE key = ?').run(String(last), key);
      return ids.length;
    });
    if (n === 0) return indexed;
    indexed += n;
    chunk = nextBatchSize(chunk, n, performance.now() - started, budgetMs);
    await yieldToLoop();
  }
};
