/**
 * The replica has a second writer: the fill worker's connection builds the task indexes after
 * a first fill (sync/engine/fill-worker.ts) while the user edits. A transaction that read and
 * then wrote after that connection committed failed at once with "database is locked" (a
 * deferred BEGIN cannot upgrade a stale snapshot; busy_timeout does not help): the user's redo
 * was refused (soak seed 1058717049). Every write transaction takes the write lock at BEGIN.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir';
import { durably, type Sqlite, writeTx } from './open';
import { Replica } from './replica';

const key = { serverUrl: 'http://x', userId: 1, orgId: 1 };
const open: { close(): void }[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

/** The replica's connection, and the file's other writer, which does not wait. */
const twoWriters = () => {
  const dir = tempDir('write-lock-');
  const replica = Replica.open(dir, key);
  const other = new Database(replica.db.name);
  other.pragma('busy_timeout = 0');
  open.push(replica, other);
  return { replica, db: replica.db, other };
};

/** Reads, lets the other writer try to commit, then writes: what the other writer met. */
const readThenWrite = (db: Sqlite, other: Database.Database) => (): string => {
  db.prepare('SELECT COUNT(*) FROM replica_info').pluck().get();
  let met = 'committed';
  try {
    other.exec("INSERT INTO replica_info (key, value) VALUES ('other', '1')");
  } catch (e) {
    met = (e as { code?: string }).code ?? String(e);
  }
  db.prepare("INSERT INTO replica_info (key, value) VALUES ('mine', '1')").run();
  return met;
};

const mine = (db: Sqlite) =>
  db.prepare("SELECT COUNT(*) FROM replica_info WHERE key = 'mine'").pluck().get();

describe('a write transaction of the replica', () => {
  const ways: [string, (r: Replica, fn: () => string) => string][] = [
    ['writeTx', (r, fn) => writeTx(r.db, fn)],
    ['durably', (r, fn) => durably(r.db, fn)],
    ['Replica.transaction', (r, fn) => r.transaction(fn)],
  ];
  for (const [name, run] of ways)
    it(`${name}: holds the write lock from its start; another writer waits, its own write goes`, () => {
      const { replica, db, other } = twoWriters();
      const met = run(replica, readThenWrite(db, other));
      expect(met).toBe('SQLITE_BUSY');
      expect(mine(db)).toBe(1);
    });

  it('nested, is a savepoint of the outer one: its failure undoes only itself', () => {
    const { db } = twoWriters();
    writeTx(db, () => {
      db.prepare("INSERT INTO replica_info (key, value) VALUES ('mine', '1')").run();
      expect(() =>
        writeTx(db, () => {
          db.prepare("INSERT INTO replica_info (key, value) VALUES ('inner', '1')").run();
          throw new Error('refused');
        }),
      ).toThrow('refused');
    });
    expect(mine(db)).toBe(1);
    expect(db.prepare("SELECT COUNT(*) FROM replica_info WHERE key = 'inner'").pluck().get()).toBe(
      0,
    );
  });

  it('is begun nowhere else in sync/: no deferred BEGIN slips back in', () => {
    const root = join(import.meta.dirname, '..');
    const files = (readdirSync(root, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('fixture'))
      .map((f) => join(root, f));
    const begun = files.flatMap((f) =>
      /\bdb\.transaction\(/.test(readFileSync(f, 'utf8')) ? [relative(root, f)] : [],
    );
    expect(begun).toEqual(['db/write-tx.ts']);
  });
});
