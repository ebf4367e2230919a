/**
 * How replicas are named on disk: a file and a folder per (server origin, user, org). Apart
 * from sync/db/open.ts so that the Electron main process can tell a replica's folder without
 * loading SQLite.
 */
import { createHash } from 'node:crypto';
import { join, relative, resolve, sep } from 'node:path';

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
