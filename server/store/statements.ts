import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/open';

/**
 * Prepared statements cached per database: the hot paths (bulk export pages of 5,000 items,
 * list pages) run the same few child queries over and over, and preparing costs more than
 * running them on a warm page cache. Only fixed SQL text goes through here; SQL built from
 * user filters is prepared on the spot.
 */
const cachedBy = (prepare: (db: Db, sql: string) => Statement) => {
  const caches = new WeakMap<Db, Map<string, Statement>>();
  return (db: Db, sql: string): Statement => {
    let cache = caches.get(db);
    if (!cache) {
      cache = new Map();
      caches.set(db, cache);
    }
    let s = cache.get(sql);
    if (!s) {
      s = prepare(db, sql);
      cache.set(sql, s);
    }
    return s;
  };
};

export const stmt = cachedBy((db, sql) => db.prepare(sql));

/**
 * The same, for a statement answering rows as arrays in the SELECT's column order: the bulk
 * export reads hundreds of thousands of rows, and an object per row costs more than the query.
 * Cached apart from `stmt` (raw mode is a property of the statement).
 */
export const rawStmt = cachedBy((db, sql) => db.prepare(sql).raw(true));

/**
 * A list of ids bound as ONE parameter and expanded with `json_each(?)`: one statement text
 * for any number of ids (so it caches), and no bump against SQLite's parameter limit.
 */
export const idsParam = (ids: Iterable<number>): string => JSON.stringify([...ids]);
export const IN_IDS = '(SELECT value FROM json_each(?))';

/** The next modified_time of a row: strictly after the previous one, never before now. */
export const NEXT_MODIFIED = 'MAX(modified_time + 1, ?)';
