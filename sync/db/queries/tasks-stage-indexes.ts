/**
 * The task tables' secondary indexes during a first fill's move (tasks-stage.ts): dropped
 * before the move and built again after it. Kept up row by row, they cost the move ~1.6 s of
 * CPU for 100k tasks (each chunk's commit wrote their randomly touched pages to the WAL again:
 * ~300 MB of WAL against ~70 MB without them); building them afterwards costs ~0.5 s.
 * Each dropped index's SQL is kept in `replica_info` in the transaction that drops it, and
 * removed in the transaction that builds it again: a kill at any point leaves every index
 * either present or recorded, and `buildDeferredIndex` brings back what is recorded. Queries
 * stay correct without the indexes, only slower. No kysely: the fill's worker thread builds
 * the indexes on its own connection.
 */
import type Database from 'better-sqlite3';
import { writeTx } from '../write-tx';
import { childInserts } from './task-rows';

/** The tables a task's rows fill: tasks and its child tables. */
const taskTables = ['tasks', ...childInserts.map((c) => c.table)];
const prefix = 'deferred_index:';

export interface DeferredIndex {
  name: string;
  sql: string;
}

/**
 * Drops the task tables' secondary indexes, recording each one's SQL. Call in a transaction,
 * before the move writes any row. Indexes already recorded stay recorded.
 */
export const deferTaskIndexes = (db: Database.Database): number => {
  const rows = db
    .prepare(
      `SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL
       AND tbl_name IN (SELECT value FROM json_each(?)) ORDER BY name`,
    )
    .all(JSON.stringify(taskTables)) as DeferredIndex[];
  const record = db.prepare('INSERT OR REPLACE INTO replica_info (key, value) VALUES (?, ?)');
  for (const r of rows) {
    record.run(`${prefix}${r.name}`, r.sql);
    db.exec(`DROP INDEX "${r.name.replaceAll('"', '""')}"`);
  }
  return rows.length;
};

/** The indexes dropped and not built again yet. */
export const deferredIndexes = (db: Database.Database): DeferredIndex[] =>
  (
    db
      .prepare(
        'SELECT substr(key, ?) AS name, value AS sql FROM replica_info WHERE key >= ? AND key < ? ORDER BY key',
      )
      .all(prefix.length + 1, prefix, `${prefix}\uffff`) as DeferredIndex[]
  ).map((r) => ({ name: r.name, sql: r.sql }));

/**
 * Builds one recorded index again and forgets its record, in one transaction; nothing when it
 * is not recorded (built already). One statement over a whole table: ~10-250 ms for 100k
 * tasks, which is why the fill's worker thread runs it when there is one.
 */
export const buildDeferredIndex = (db: Database.Database, name: string): void => {
  writeTx(db, () => {
    const row = db
      .prepare('SELECT value FROM replica_info WHERE key = ?')
      .get(`${prefix}${name}`) as { value: string } | undefined;
    if (!row) return;
    const present = db
      .prepare("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?")
      .get(name);
    if (!present) db.exec(row.value);
    db.prepare('DELETE FROM replica_info WHERE key = ?').run(`${prefix}${name}`);
  });
};
