import type Database from 'better-sqlite3';
import {
  type CompiledQuery,
  DummyDriver,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { Sqlite } from './open';
import type { DB } from './types';

/**
 * kysely as a typed query *builder* only: better-sqlite3 runs the compiled SQL synchronously,
 * inside its own transactions, with no promise per query on the hot paths.
 */
export const qb = new Kysely<DB>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

// Compiled statements are cached per SQL text and connection.
type Statement = Database.Statement<unknown[]>;
const cache = new WeakMap<Sqlite, Map<string, Statement>>();

const prepared = (db: Sqlite, sql: string): Statement => {
  let byDb = cache.get(db);
  if (!byDb) {
    byDb = new Map();
    cache.set(db, byDb);
  }
  let stmt = byDb.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    byDb.set(sql, stmt);
  }
  return stmt;
};

export const all = <R>(db: Sqlite, q: { compile(): CompiledQuery<R> }): R[] => {
  const c = q.compile();
  return prepared(db, c.sql).all(c.parameters as unknown[]) as R[];
};

export const first = <R>(db: Sqlite, q: { compile(): CompiledQuery<R> }): R | undefined => {
  const c = q.compile();
  return prepared(db, c.sql).get(c.parameters as unknown[]) as R | undefined;
};

export const run = (db: Sqlite, q: { compile(): CompiledQuery<unknown> }): number => {
  const c = q.compile();
  return prepared(db, c.sql).run(c.parameters as unknown[]).changes;
};

/** A raw statement (hot write paths, FTS), cached like the built ones. */
export const stmt = (db: Sqlite, sql: string) => prepared(db, sql);
