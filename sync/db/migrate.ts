import type Database from 'better-sqlite3';
import { migrations } from './migrations';
import { writeTx } from './write-tx';

export class ReplicaTooNewError extends Error {}

/** Applies the migrations the file lacks, each in its own transaction with its version bump. */
export const migrate = (db: Database.Database): { from: number; to: number } => {
  const from = db.pragma('user_version', { simple: true }) as number;
  if (from > migrations.length)
    throw new ReplicaTooNewError(
      `the replica has schema ${from}, this app knows ${migrations.length}: update the app`,
    );
  for (let v = from; v < migrations.length; v++) {
    const m = migrations[v];
    if (!m) break;
    writeTx(db, () => {
      db.exec(m.up);
      db.pragma(`user_version = ${v + 1}`);
    });
  }
  return { from, to: migrations.length };
};
