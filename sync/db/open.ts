import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate';

export type Sqlite = Database.Database;

export interface ReplicaKey {
  /** Origin of the service, e.g. https://api.example.com (path ignored). */
  serverUrl: string;
  userId: number;
  orgId: number;
}

const replicaBaseName = (key: ReplicaKey): string => {
  const origin = new URL(key.serverUrl).origin;
  const tag = createHash('sha256').update(origin).digest('hex').slice(0, 16);
  return `replica-${tag}-u${key.userId}-o${key.orgId}`;
};

/** One file per (server origin, user, org): org scoping is structural, not a WHERE clause. */
export const replicaFileName = (key: ReplicaKey): string => `${replicaBaseName(key)}.sqlite`;

/**
 * The folder beside the replica's file for the files it owns (staged uploads, attachment
 * content, copies opened by the host), e.g. `replica-…-u1-o1.files/`. The same scoping as the
 * file: a shared folder let one org's engine sweep another's queued uploads as orphans, and
 * serve another server's attachment of the same id.
 */
export const replicaFolderName = (key: ReplicaKey): string => `${replicaBaseName(key)}.files`;

export const replicaFilesDir = (dataDir: string, key: ReplicaKey): string =>
  join(dataDir, replicaFolderName(key));

const REPLICA_FOLDER = /^replica-[0-9a-f]{16}-u\d+-o\d+\.files$/;

/**
 * The replica folder directly under `dataDir` that `path` lies inside (at any depth), or null
 * when it is in none: tells the host whose file an answer names without trusting its shape.
 */
export const replicaFolderOf = (dataDir: string, path: string): string | null => {
  const parts = relative(resolve(dataDir), resolve(path)).split(sep);
  const [folder] = parts;
  if (parts.length < 2 || folder === undefined || !REPLICA_FOLDER.test(folder)) return null;
  return join(resolve(dataDir), folder);
};

export const openReplicaFile = (dataDir: string, key: ReplicaKey): Sqlite => {
  mkdirSync(dataDir, { recursive: true });
  return openSqlite(join(dataDir, replicaFileName(key)));
};

/** Opens a SQLite file (or ':memory:') with the replica's settings and schema. */
export const openSqlite = (file: string): Sqlite => {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: commits survive a crash or kill of the app (the crash test proves
  // it); only a power loss or OS crash may lose the last ones before a checkpoint. FULL
  // would sync on every edit, against the ~5 ms an edit may take to show.
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
