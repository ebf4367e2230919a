import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../db/migrations';
import { openSqlite } from '../db/open';
import { allocateLocalId } from './local-ids';
import { allMutations, enqueue } from './queue';
import { createTask, updateTask } from './test-support';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'outbox-migrate-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const count = (db: Database.Database, table: string) =>
  (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('migration 0007-outbox', () => {
  it('applies on a replica at version 6 with rows, and keeps them', () => {
    const file = join(dir, 'v6.sqlite');
    const old = new Database(file);
    for (const m of migrations.slice(0, 6)) old.exec(m.up);
    old.pragma('user_version = 6');
    old.exec(`
      INSERT INTO tasks (task_id, title, status) VALUES (1, 'Write spec', 'To Do'), (2, 'Ship', 'Done');
      INSERT INTO checklist_items (checklist_id, task_id, name, completed, position) VALUES (3, 1, 'a', 0, 0);
      INSERT INTO replica_info (key, value) VALUES ('fts_indexed_upto', '2');
    `);
    old.close();

    const db = openSqlite(file);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
      expect(migrations[6]?.name).toBe('0007-outbox');
      expect(count(db, 'tasks')).toBe(2);
      expect(count(db, 'checklist_items')).toBe(1);
      expect(count(db, 'outbox')).toBe(0);
      expect(count(db, 'outbox_files')).toBe(0);
      expect(count(db, 'local_ids')).toBe(0);
      // The new tables work on the migrated file.
      expect(allocateLocalId(db)).toBe(-1);
      enqueue(db, createTask(-1), 10);
      enqueue(db, updateTask(1, 'renamed'), 10);
    } finally {
      db.close();
    }
    const again = openSqlite(file);
    try {
      expect(allMutations(again).map((m) => m.entity)).toEqual(['task:-1', 'task:1']);
      expect(count(again, 'tasks')).toBe(2);
    } finally {
      again.close();
    }
  });

  it('refuses rows the outbox could not replay', () => {
    const db = openSqlite(join(dir, 'r.sqlite'));
    try {
      const insert = (state: string, path: string) =>
        db
          .prepare(
            `INSERT INTO outbox (entity, kind, operation_id, path, idempotency_key, state, created_at, updated_at)
             VALUES ('task:1', 'task.update', 'updateTask', ?, lower(hex(randomblob(8))), ?, 0, 0)`,
          )
          .run(path, state);
      insert('pending', '{"taskId":1}');
      expect(() => insert('sent', '{"taskId":1}')).toThrow(/CHECK/);
      expect(() => insert('pending', 'not json')).toThrow(/CHECK/);
      expect(() => insert('pending', '[1]')).toThrow(/CHECK/);
      expect(() => db.prepare("INSERT INTO local_ids VALUES ('task', 5, 6)").run()).toThrow(
        /CHECK/,
      );
    } finally {
      db.close();
    }
  });
});
