import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sqliteOpenOptions } from '../../shared/native-binding';
import { migrate } from './migrate';
import { type ReplicaKey, replicaFileName } from './replica-name';
import { writeTx } from './write-tx';

export type Sqlite = Database.Database;

export type { ReplicaKey } from './replica-name';
export {
  replicaFileName,
  replicaFilesDir,
  replicaFolderName,
  replicaFolderOf,
} from './replica-name';
export { writeTx } from './write-tx';

/**
 * better-sqlite3's options for this process: inside Electron, the build prepared for its ABI
 * (shared/native-binding.ts); in Node, none.
 */
export const processSqliteOptions = (): { nativeBinding?: string } =>
  sqliteOpenOptions({
    electron: process.versions.electron,
    env: process.env,
    resourcesPath: (process as { resourcesPath?: string }).resourcesPath,
    execPath: process.execPath,
    exists: existsSync,
  });

export const openReplicaFile = (dataDir: string, key: ReplicaKey): Sqlite => {
  mkdirSync(dataDir, { recursive: true });
  return openSqlite(join(dataDir, replicaFileName(key)));
};

/** Opens a SQLite file (or ':memory:') with the replica's settings and schema. */
export const openSqlite = (file: string): Sqlite => {
  const db = new Database(file, processSqliteOptions());
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: commits survive a crash or kill of the app (the crash test proves
  // it); a power loss or OS crash may lose the last ones before a checkpoint. That is fine
  // for what the server can send again; a user's edit commits through `durably` instead.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = OFF');
  db.pragma('busy_timeout = 5000');
  // A bootstrap writes ~100 MB: larger cache and fewer checkpoints (each one syncs) keep it
  // CPU-bound. The WAL grows to ~40 MB before a checkpoint; durability is unchanged.
  db.pragma('cache_size = -131072');
  db.pragma('wal_autocheckpoint = 10000');
  db.pragma('temp_store = MEMORY');
  migrate(db);
  return db;
};

/**
 * Runs `fn` in a transaction that is on disk when it returns: the WAL is synced at its commit
 * (synchronous FULL for this one commit), so it survives a power cut or an OS crash, not only
 * a killed process. For what only the user has (an edit and its outbox row); the server's
 * data, which a pull can fetch again, commits at NORMAL. Inside a transaction already, `fn`
 * joins it (the outer commit decides).
 */
export const durably = <T>(db: Sqlite, fn: () => T): T => {
  if (db.inTransaction) return fn();
  db.pragma('synchronous = FULL');
  try {
    return writeTx(db, fn);
  } finally {
    db.pragma('synchronous = NORMAL');
  }
};
