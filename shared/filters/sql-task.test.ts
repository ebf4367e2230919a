import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileTaskFilter } from './sql';
import { ALL, at, DAY, except, NOW, seedTaskFixture, shape } from './sql-task.fixture';
import { type TaskFilter, taskFilterQuerySchema } from './task-filter';

// Task filters against a real SQLite store (fixture and fixed clock in ./sql-task.fixture).

let db: Database.Database;
beforeAll(() => {
  db = new Database(':memory:');
  seedTaskFixture(db);
});
afterAll(() => db.close());

function ids(filter: TaskFilter, now = NOW): number[] {
  const where = compileTaskFilter(filter, shape, now);
  // Every placeholder has its param (no '?' can come from the shape).
  expect(where.sql.split('?').length - 1).toBe(where.params.length);
  return db
    .prepare(`SELECT t.id FROM tasks AS t WHERE ${where.sql} ORDER BY t.id`)
    .pluck()
    .all(...where.params) as number[];
}

describe('compileTaskFilter: plain filters', () => {
  it('no filter is `1` and matches everything', () => {
    expect(compileTaskFilter({}, shape, NOW)).toEqual({ sql: '1', params: [] });
    expect(ids({})).toEqual(ALL);
    expect(ids({ status: [], tags: [], title: '' })).toEqual(ALL);
  });

  it('title: case-insensitive substring, wildcards literal', () => {
    expect(ids({ title: 'spec' })).toEqual([1, 2]);
    expect(ids({ title: 'SHIP 50' })).toEqual([3, 4]);
    expect(ids({ title: '50%' })).toEqual([3]);
    expect(ids({ title: '_case' })).toEqual([11]);
    expect(ids({ title: 'k\\s' })).toEqual([13]);
    expect(ids({ title: '%' })).toEqual([3]);
  });

  it('user text never becomes SQL', () => {
    expect(ids({ title: "x'); DROP TABLE tasks; --", status: ["' OR 1=1 --"] })).toEqual([]);
    expect(db.prepare('SELECT count(*) FROM tasks').pluck().get()).toBe(20);
  });

  it('status and priority: any of the names, case-insensitive', () => {
    expect(ids({ status: ['done'] })).toEqual([3, 4, 10, 15]);
    expect(ids({ status: ['In Progress', 'in review'] })).toEqual([2, 6, 9]);
    expect(ids({ priority: ['high'] })).toEqual([1, 7, 10]);
    expect(ids({ priority: ['None'] })).toEqual([5, 15]);
    expect(ids({ priority: ['nope'] })).toEqual([]);
  });

  it('tags: any tag in the list, case-insensitive', () => {
    expect(ids({ tags: ['BACKEND'] })).toEqual([1, 2, 10]);
    expect(ids({ tags: ['urgent', 'ops'] })).toEqual([1, 6, 9]);
    expect(ids({ tags: ['none-such'] })).toEqual([]);
  });

  it('creators and owners', () => {
    expect(ids({ creators: [1] })).toEqual([1, 3, 7, 9]);
    expect(ids({ creators: [4, 5] })).toEqual([10, 11, 12, 13, 14, 15]);
    expect(ids({ owners: [10] })).toEqual([1, 5, 9]);
    expect(ids({ owners: [11, 13] })).toEqual([1, 2, 6, 14]);
    expect(ids({ owners: [99] })).toEqual([]);
  });

  it('date-time filters match the same UTC day', () => {
    expect(ids({ startDate: at('06-15T18:30') })).toEqual([6, 9]);
    expect(ids({ startDate: at('06-10') })).toEqual([1]);
    expect(ids({ dueDate: at('06-15T00:00:00.001') })).toEqual([6, 9]);
    expect(ids({ dueDate: at('06-16T23:00') })).toEqual([2]);
    expect(ids({ createdTime: at('06-01T23:59:59.999') })).toEqual([1, 3]);
    expect(ids({ modifiedTime: at('06-15T12:00') })).toEqual([1, 5]);
    expect(ids({ modifiedTime: at('06-14') })).toEqual([2]);
  });

  it('overdue: due before now and not completed; false is the negation', () => {
    expect(ids({ overdue: true })).toEqual([1, 9, 14]);
    expect(ids({ overdue: false })).toEqual(except(1, 9, 14));
  });

  it('upcoming: now <= due < now + 7 days, not completed; false is the negation', () => {
    expect(ids({ upcoming: true })).toEqual([2, 6, 8]);
    expect(ids({ upcoming: false })).toEqual(except(2, 6, 8));
    // The window moves with the clock.
    expect(ids({ upcoming: true }, NOW - 5 * DAY)).toEqual([1, 2, 6, 9]);
  });

  it('pending and dueDateSet', () => {
    expect(ids({ pending: true })).toEqual(except(3, 4, 10, 15));
    expect(ids({ pending: false })).toEqual([3, 4, 10, 15]);
    expect(ids({ dueDateSet: true })).toEqual([1, 2, 3, 6, 7, 8, 9, 10, 14, 15]);
    expect(ids({ dueDateSet: false })).toEqual([4, 5, 11, 12, 13, 16, 17, 18, 19, 20]);
  });

  it('combined filters are ANDed', () => {
    expect(ids({ status: ['to do'], overdue: true })).toEqual([1, 14]);
    expect(ids({ status: ['to do'], overdue: true, owners: [11], tags: ['urgent'] })).toEqual([1]);
    expect(ids({ creators: [1], pending: true, dueDateSet: true })).toEqual([1, 7, 9]);
    expect(ids({ title: 'due', upcoming: false, priority: ['high', 'urgent'] })).toEqual([
      7, 10, 14,
    ]);
  });

  it('works from a parsed query string', () => {
    const filter = taskFilterQuerySchema.parse({ status: 'Done,In Review', owners: ['12', '13'] });
    expect(ids(filter)).toEqual([3, 6]);
  });
});
