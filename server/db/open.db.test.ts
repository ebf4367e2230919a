import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from './open';
import { neverReusedIds, schemaSql } from './schema';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'server-db-'));
  dirs.push(d);
  return d;
};

const seedTask = (db: Database.Database) => {
  db.prepare("INSERT INTO orgs (org_id, name) VALUES (1, 'o')").run();
  db.prepare(
    "INSERT INTO users (user_id, email, first_name, last_name, password_hash, created_time) VALUES (1, 'a@b.c', 'A', 'B', 'x', 0)",
  ).run();
  db.prepare(
    `INSERT INTO tasks (task_id, org_id, title, status, priority, created_by, modified_by, created_time, modified_time)
     VALUES (1, 1, 't', 'To Do', 'None', 1, 1, 0, 0)`,
  ).run();
};
const addItem = (db: Database.Database, name: string) =>
  Number(
    db
      .prepare(
        'INSERT INTO checklist_items (task_id, name, position, created_time, modified_time) VALUES (1, ?, 0, 0, 0)',
      )
      .run(name).lastInsertRowid,
  );

describe('the server database never gives a deleted row’s id again', () => {
  it('a fresh file', () => {
    const db = openDb(tempDir());
    seedTask(db);
    addItem(db, 'a');
    const b = addItem(db, 'b');
    db.prepare('DELETE FROM checklist_items WHERE checklist_id = ?').run(b);
    expect(addItem(db, 'c')).toBe(b + 1);
    db.close();
  });

  it('a version-1 file is rebuilt with its rows and ids, and reuses none after', () => {
    const dir = tempDir();
    // What version 1 made: the same tables with plain INTEGER PRIMARY KEY.
    const v1 = new Database(join(dir, 'server.sqlite'));
    v1.exec(schemaSql.replaceAll(' AUTOINCREMENT', ''));
    v1.pragma('user_version = 1');
    seedTask(v1);
    const a = addItem(v1, 'a');
    const b = addItem(v1, 'b');
    v1.close();
    const db = openDb(dir);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    for (const t of neverReusedIds)
      expect(
        db
          .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?")
          .pluck()
          .get(t),
      ).toMatch(/AUTOINCREMENT/);
    expect(db.prepare('SELECT checklist_id, name FROM checklist_items ORDER BY 1').all()).toEqual([
      { checklist_id: a, name: 'a' },
      { checklist_id: b, name: 'b' },
    ]);
    // Indexes are back on the new tables.
    expect(
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'timers'")
        .all(),
    ).not.toEqual([]);
    db.prepare('DELETE FROM checklist_items WHERE checklist_id = ?').run(b);
    expect(addItem(db, 'c')).toBe(b + 1);
    db.close();
  });
});
