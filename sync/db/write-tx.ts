import type Database from 'better-sqlite3';

/**
 * Runs `fn` in a transaction that holds the write lock from its BEGIN (IMMEDIATE), waiting out
 * another writer's commit by busy_timeout. The replica has a second writer (the fill worker's
 * index builds), and a deferred transaction that read before that writer committed cannot
 * write after it: it fails at once with "database is locked", busy_timeout or not, and the
 * user's edit is refused. Every transaction of the replica goes through here. Inside one
 * already, `fn` runs in a savepoint of it (its failure undoes only itself).
 */
export const writeTx = <T>(db: Database.Database, fn: () => T): T => db.transaction(fn).immediate();
