import * as m0001 from './0001-replica';

/**
 * Numbered, append-only: never edit a migration that has shipped; add the next one. The
 * replica's version is `PRAGMA user_version` = the number of migrations applied. Queued
 * outbox rows live in the same file and must survive every upgrade.
 */
export const migrations: readonly { name: string; up: string }[] = [
  { name: '0001-replica', up: m0001.up },
];

export { serverDataTables } from './0001-replica';
