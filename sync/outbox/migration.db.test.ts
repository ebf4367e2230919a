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

/** A replica file as the first `version` migrations left it, holding the rows of `sql`. */
const replicaAt = (file: string, version: number, sql: string) => {
  const old = new Database(file);
  for (const m of migrations.slice(0, version)) old.exec(m.up);
  old.pragma(`user_version = ${version}`);
  old.exec(sql);
  old.close();
};

const count = (db: Database.Database, table: string) =>
  (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('migration 0007-outbox', () => {
  it('applies on a replica at version 6 with rows, and keeps them', () => {
    const file = join(dir, 'v6.sqlite');
    replicaAt(
      file,
      6,
      `INSERT INTO tasks (task_id, title, status) VALUES (1, 'Write spec', 'To Do'), (2, 'Ship', 'Done');
       INSERT INTO checklist_items (checklist_id, task_id, name, completed, position) VALUES (3, 1, 'a', 0, 0);
       INSERT INTO replica_info (key, value) VALUES ('fts_indexed_upto', '2');`,
    );

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

describe('migration 0009-outbox-refs', () => {
  const refs = (db: Database.Database) =>
    db.prepare('SELECT key, mutation_id AS id FROM outbox_refs ORDER BY id, key').all();

  it('gives the rows queued before it their keys, and keeps them with every change', () => {
    const file = join(dir, 'v8.sqlite');
    replicaAt(
      file,
      8,
      `INSERT INTO outbox (entity, kind, operation_id, path, depends_on, idempotency_key, created_at, updated_at)
       VALUES ('task:-1', 'task.create', 'createTask', '{}', '["task:-1"]', 'k1', 0, 0),
              ('checklist:-2', 'checklist.create', 'addChecklistItem', '{"taskId":-1}', '["checklist:-2","task:-1"]', 'k2', 0, 0);`,
    );

    const db = openSqlite(file);
    try {
      expect(migrations[8]?.name).toBe('0009-outbox-refs');
      expect(refs(db)).toEqual([
        { key: 'task:-1', id: 1 },
        { key: 'checklist:-2', id: 2 },
        { key: 'task:-1', id: 2 },
      ]);
      // The create is answered: its keys are re-keyed, then the row is settled.
      db.prepare(
        `UPDATE outbox SET entity = 'task:40', depends_on = '[]' WHERE mutation_id = 1`,
      ).run();
      db.prepare(
        `UPDATE outbox SET depends_on = '["checklist:-2","task:40"]' WHERE mutation_id = 2`,
      ).run();
      expect(refs(db)).toEqual([
        { key: 'task:40', id: 1 },
        { key: 'checklist:-2', id: 2 },
        { key: 'task:40', id: 2 },
      ]);
      db.prepare('DELETE FROM outbox WHERE mutation_id = 1').run();
      enqueue(db, updateTask(7, 'renamed'), 10);
      expect(refs(db)).toEqual([
        { key: 'checklist:-2', id: 2 },
        { key: 'task:40', id: 2 },
        { key: 'task:7', id: 3 },
      ]);
    } finally {
      db.close();
    }
  });
});
