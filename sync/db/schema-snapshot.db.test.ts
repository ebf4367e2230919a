import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrations } from './migrations';
import { openSqlite, type Sqlite } from './open';

/**
 * The replica's schema, as SQLite stores it, against a committed snapshot: a migration that
 * changes the schema by accident (or an edit of a shipped migration) fails here. After an
 * intended change, regenerate and commit the file:
 *
 *   UPDATE_SCHEMA_SNAPSHOT=1 npx vitest run sync/db/schema-snapshot.db.test.ts
 */
const SNAPSHOT = fileURLToPath(new URL('./schema-snapshot.txt', import.meta.url));

const dumpSchema = (db: Sqlite): string => {
  const rows = db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all() as {
    type: string;
    name: string;
    sql: string | null;
  }[];
  const version = db.pragma('user_version', { simple: true }) as number;
  return [
    `user_version ${version}`,
    ...rows.map((r) => `${r.type} ${r.name}: ${(r.sql ?? '(no sql)').replace(/\s+/g, ' ').trim()}`),
    '',
  ].join('\n');
};

describe('replica schema', () => {
  it('matches the committed snapshot (sync/db/schema-snapshot.txt)', () => {
    const db = openSqlite(':memory:');
    try {
      const actual = dumpSchema(db);
      if (process.env.UPDATE_SCHEMA_SNAPSHOT === '1') {
        writeFileSync(SNAPSHOT, actual);
        return;
      }
      const committed = readFileSync(SNAPSHOT, 'utf8');
      expect(
        actual,
        'the replica schema changed: if intended, run UPDATE_SCHEMA_SNAPSHOT=1 npx vitest run sync/db/schema-snapshot.db.test.ts and commit sync/db/schema-snapshot.txt',
      ).toBe(committed);
    } finally {
      db.close();
    }
  });

  it('is at the version of the last migration', () => {
    const db = openSqlite(':memory:');
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    } finally {
      db.close();
    }
  });
});
