import { afterEach, describe, expect, it } from 'vitest';
import type { BulkTask } from '../../../shared/api';
import type { Sqlite } from '../open';
import { at, bulkItems, iso, openTestReplica, type TestReplica } from './read.fixture';
import { childInserts } from './task-rows';
import { writeTasks } from './tasks-write';

const taskTables = ['tasks', ...childInserts.map((c) => c.table)];

const dump = (db: Sqlite) =>
  Object.fromEntries(
    taskTables.map((t) => [
      t,
      (db.prepare(`SELECT * FROM ${t}`).all() as object[]).map((r) => JSON.stringify(r)).sort(),
    ]),
  );

const search = (db: Sqlite, text: string) =>
  db
    .prepare('SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH ? ORDER BY rowid')
    .pluck()
    .all(text);

const totalChanges = (db: Sqlite) => db.prepare('SELECT total_changes()').pluck().get() as number;

const opened: TestReplica[] = [];
const open = () => {
  const r = openTestReplica();
  opened.push(r);
  return r.replica;
};
afterEach(() => {
  for (const r of opened.splice(0)) r.close();
});

const byId = (items: BulkTask[], id: number): BulkTask => {
  const t = items.find((i) => i.taskId === id);
  if (!t) throw new Error(`no task ${id} in the fixture`);
  return t;
};

/** Every kind of change writeTasks must carry over rows it wrote before. */
const edited = (): BulkTask[] => {
  const items = bulkItems();
  const one = byId(items, 1);
  const five = byId(items, 5);
  const first = one.customFields?.find((f) => (f.fieldValue ?? []).length > 0);
  if (!first || (one.checklists ?? []).length < 2 || (one.attachments ?? []).length < 1)
    throw new Error('the fixture lost what this test edits');
  Object.assign(one, {
    taskTitle: 'Write the final spec',
    status: 'In Progress',
    tags: ['backend', 'docs'],
    owners: (one.owners ?? []).slice(0, 1),
    dueDate: iso(at('07-01')),
    modifiedTime: iso(at('06-20')),
    checklists: (one.checklists ?? []).slice(1).map((c) => ({ ...c, name: `${c.name}!` })),
    attachments: [],
    customFields: [
      { ...first, fieldValue: (first.fieldValue ?? []).map((v) => ({ ...v, value: 'changed' })) },
    ],
  });
  Object.assign(five, { parentTaskId: null, projectId: 101, completedTime: iso(at('06-19')) });
  return items;
};

describe('writeTasks', () => {
  it('over rows it wrote before leaves exactly what a first write of the new copies leaves', () => {
    const fresh = open();
    fresh.transaction(() => writeTasks(fresh.db, edited()));
    const r = open();
    r.transaction(() => writeTasks(r.db, bulkItems()));
    r.transaction(() => writeTasks(r.db, edited()));
    expect(dump(r.db)).toEqual(dump(fresh.db));
    // The search index follows the title.
    expect(search(r.db, 'final')).toEqual([1]);
    expect(search(r.db, '"Write spec"')).toEqual([]);
  });

  it('changes no row when the copies equal what the replica has', () => {
    const r = open();
    r.transaction(() => writeTasks(r.db, bulkItems()));
    const before = dump(r.db);
    const changes = totalChanges(r.db);
    r.transaction(() => writeTasks(r.db, bulkItems()));
    expect(totalChanges(r.db)).toBe(changes);
    expect(dump(r.db)).toEqual(before);
  });

  it('rewrites only the changed task: a new modified time touches one row, not its children', () => {
    const r = open();
    r.transaction(() => writeTasks(r.db, bulkItems()));
    const changes = totalChanges(r.db);
    const items = bulkItems();
    Object.assign(byId(items, 1), { modifiedTime: iso(at('06-21')), priority: 'Low' });
    r.transaction(() => writeTasks(r.db, items));
    expect(totalChanges(r.db) - changes).toBe(1);
    expect(r.db.prepare('SELECT priority FROM tasks WHERE task_id = 1').pluck().get()).toBe('Low');
  });

  it('takes the last copy of a task named twice in one batch', () => {
    const r = open();
    const [first] = bulkItems();
    if (!first) throw new Error('no task in the fixture');
    const older = { ...first, taskTitle: 'older copy', status: 'To Do' };
    const newer = { ...first, taskTitle: 'newer copy', status: 'Done' };
    r.transaction(() => writeTasks(r.db, [older, newer]));
    r.transaction(() => writeTasks(r.db, [newer, older, newer]));
    expect(
      r.db.prepare('SELECT title, status FROM tasks WHERE task_id = ?').get(first.taskId),
    ).toEqual({ title: 'newer copy', status: 'Done' });
  });
});
