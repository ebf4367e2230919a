import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReplicaTooNewError } from './migrate';
import { migrations } from './migrations';
import { openSqlite } from './open';
import { readProject } from './queries/projects-read';
import { applyProjectItems, replaceSpaces } from './queries/projects-write';
import { bulkItems, NOW, projectDto, projectSpecs, spaceDto } from './queries/read.fixture';
import { searchTasks } from './queries/search';
import { readTasks } from './queries/tasks-read';
import { applyTaskItems } from './queries/tasks-write';
import { myTasks } from './queries/views';
import { Replica } from './replica';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'replica-migrate-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A replica file as version 1 of the app left it: schema 0001 only, with rows in it. The rows
 * are written by today's writers into a current replica, then copied column by column into
 * the version-1 tables (so the fixture does not break with every new column).
 */
const makeVersion1 = (file: string) => {
  const current = Replica.openFile(join(dir, 'current.sqlite'));
  current.transaction(() => {
    replaceSpaces(current.db, [spaceDto(10, 'Product', [1, 2, 3])]);
    applyProjectItems(current.db, projectSpecs.filter((p) => p.projectId < 110).map(projectDto));
    applyTaskItems(current.db, bulkItems());
  });
  current.close();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const first = migrations[0];
  if (!first) throw new Error('no migration 0001');
  db.exec(first.up);
  db.pragma('user_version = 1');
  db.exec(`ATTACH DATABASE '${join(dir, 'current.sqlite')}' AS cur`);
  const tables = (
    db
      .prepare(
        "SELECT name FROM main.sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'tasks_fts%'",
      )
      .all() as { name: string }[]
  ).map((t) => t.name);
  db.transaction(() => {
    for (const table of tables) {
      const cols = (db.prepare(`PRAGMA main.table_info(${table})`).all() as { name: string }[])
        .map((c) => c.name)
        .join(', ');
      db.exec(`INSERT INTO main.${table} (${cols}) SELECT ${cols} FROM cur.${table}`);
    }
    db.exec("INSERT INTO tasks_fts(tasks_fts) VALUES ('rebuild')");
  })();
  db.exec('DETACH DATABASE cur');
  const counts = (table: string) =>
    (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const before = Object.fromEntries(
    [
      'tasks',
      'projects',
      'spaces',
      'space_members',
      'task_owners',
      'checklist_items',
      'attachments',
      'custom_field_values',
      'users',
    ].map((t) => [t, counts(t)]),
  );
  db.close();
  return before;
};

describe('migrating a replica file', () => {
  it('from version 1 to the latest keeps every row and rebuilds the search index', () => {
    const file = join(dir, 'v1.sqlite');
    const before = makeVersion1(file);
    expect(before.tasks).toBe(15);

    const replica = Replica.openFile(file);
    try {
      const db = replica.db;
      expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
      for (const [table, n] of Object.entries(before)) {
        expect(
          (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n,
          table,
        ).toBe(n);
      }
      const tasks = readTasks(db, [1, 8, 13], NOW);
      expect(tasks.map((t) => [t.taskId, t.taskTitle, t.customFields?.length])).toEqual([
        [1, 'Write spec', 3],
        [8, 'Budget review', 3],
        [13, 'Whole milk', 0],
      ]);
      expect(readProject(db, 100, NOW)?.projectName).toBe('Alpha launch');
      // The FTS index was rebuilt from the rows: search works, prefixes too.
      expect(searchTasks(db, 'spe').map((h) => h.taskId)).toEqual([2, 1]);
      expect(searchTasks(db, 'cafe').map((h) => h.taskId)).toEqual([4]);
      // The new indexes are in place and used.
      expect(myTasks(db, 1, NOW).counts).toEqual({ overdue: 3, today: 2, upcoming: 2 });
      db.prepare("INSERT INTO tasks_fts(tasks_fts, rank) VALUES ('integrity-check', 1)").run();
    } finally {
      replica.close();
    }
    // Opening again runs nothing twice.
    const again = openSqlite(file);
    try {
      expect(again.pragma('user_version', { simple: true })).toBe(migrations.length);
      expect((again.prepare('SELECT count(*) AS n FROM tasks').get() as { n: number }).n).toBe(15);
    } finally {
      again.close();
    }
  });

  it('refuses a file from a newer app', () => {
    const file = join(dir, 'future.sqlite');
    const db = new Database(file);
    db.pragma(`user_version = ${migrations.length + 1}`);
    db.close();
    expect(() => openSqlite(file)).toThrow(ReplicaTooNewError);
  });
});
