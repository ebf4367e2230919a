import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sqliteOpenOptions } from '../../shared/native-binding';
import { neverReusedIds, schemaSql, schemaVersion } from './schema';

export type Db = Database.Database;

/** Opens (creating if needed) the server database under `dataDir`, or in memory. */
export const openDb = (dataDir: string | null): Db => {
  let file = ':memory:';
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    file = join(dataDir, 'server.sqlite');
  }
  // Inside Electron (the demo server embedded in the app's host): the build for its ABI.
  const db = new Database(
    file,
    sqliteOpenOptions({
      electron: process.versions.electron,
      env: process.env,
      resourcesPath: (process as { resourcesPath?: string }).resourcesPath,
      execPath: process.execPath,
      exists: existsSync,
    }),
  );
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // A page cache of up to 128 MiB (grown as pages are read; the default is 16 MB): the bulk
  // export of 100,000 tasks reads some 60 MB of tables and indexes, and every page read
  // again from the file costs a system call: a third of the export's time with the default.
  db.pragma('cache_size = -131072');
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > schemaVersion)
    throw new Error(`server database ${file} has schema ${version}, newer than ${schemaVersion}`);
  if (version === 1) upgradeToAutoincrement(db);
  db.exec(schemaSql);
  db.pragma(`user_version = ${schemaVersion}`);
  return db;
};

/**
 * Version 1 gave a deleted row's id to the next row (INTEGER PRIMARY KEY reuses the highest):
 * its hard-deleted tables are rebuilt with AUTOINCREMENT, rows and ids kept, in one
 * transaction. Nothing references these tables, so foreign keys stay as they are.
 */
const upgradeToAutoincrement = (db: Db): void => {
  db.transaction(() => {
    for (const t of neverReusedIds) db.exec(`ALTER TABLE ${t} RENAME TO ${t}_v1`);
    // The new tables; their index names are still taken by the old ones (made again below).
    db.exec(schemaSql);
    for (const t of neverReusedIds) {
      db.exec(`INSERT INTO ${t} SELECT * FROM ${t}_v1`);
      db.exec(`DROP TABLE ${t}_v1`);
    }
  })();
};
