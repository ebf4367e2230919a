import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePagingQuerySchema, pageOf, pageWindow, type SortKey } from './paging';
import { compileOrderBy, compileTaskFilter, taskSortColumns, taskSortProperties } from './sql';
import { ALL, NOW, seedTaskFixture, shape } from './sql-task.fixture';
import type { TaskFilter } from './task-filter';

// Sorting and paging of task lists against a real SQLite store (fixture in ./sql-task.fixture).

let db: Database.Database;
beforeAll(() => {
  db = new Database(':memory:');
  seedTaskFixture(db);
});
afterAll(() => db.close());

describe('sort and paging', () => {
  const columns = taskSortColumns(shape);
  const paging = makePagingQuerySchema(taskSortProperties);

  function sorted(sort: SortKey[], filter: TaskFilter = {}): number[] {
    const where = compileTaskFilter(filter, shape, NOW);
    const orderBy = compileOrderBy(sort, columns, columns.taskId);
    return db
      .prepare(`SELECT t.id FROM tasks AS t WHERE ${where.sql} ${orderBy}`)
      .pluck()
      .all(...where.params) as number[];
  }
  const sortOf = (...sort: string[]) => paging.parse({ sort }).sort;

  it('no sort: id ascending', () => {
    expect(compileOrderBy([], columns, columns.taskId)).toBe('ORDER BY "t"."id" ASC');
    expect(sorted([])).toEqual(ALL);
  });

  it('nulls last in both directions, ties by id', () => {
    const nullDue = [4, 5, 11, 12, 13, 16, 17, 18, 19, 20];
    expect(sorted(sortOf('dueDate'))).toEqual([15, 14, 3, 1, 9, 6, 2, 10, 8, 7, ...nullDue]);
    expect(sorted(sortOf('dueDate,desc'))).toEqual([7, 8, 10, 2, 6, 9, 1, 3, 14, 15, ...nullDue]);
  });

  it('strings compare case-insensitively', () => {
    expect(sorted(sortOf('priority,asc'))).toEqual([
      1, 7, 10, 3, 4, 11, 12, 13, 2, 9, 16, 17, 18, 19, 20, 5, 15, 6, 14, 8,
    ]);
    expect(sorted(sortOf('priority,desc'))).toEqual([
      6, 14, 5, 15, 2, 9, 16, 17, 18, 19, 20, 3, 4, 11, 12, 13, 1, 7, 10, 8,
    ]);
    expect(sorted(sortOf('taskTitle'), { title: 'ship' })).toEqual([4, 3]);
    expect(sorted(sortOf('taskTitle,desc'), { title: 'ship' })).toEqual([3, 4]);
  });

  it('multiple keys', () => {
    expect(sorted(sortOf('status', 'dueDate,desc'))).toEqual([
      10, 3, 15, 4, 2, 9, 6, 7, 8, 1, 14, 5, 11, 12, 13, 16, 17, 18, 19, 20,
    ]);
    expect(sorted(sortOf('completion,desc'))).toEqual([
      3, 4, 10, 15, 9, 2, 8, 6, 1, 5, 7, 11, 12, 13, 14, 16, 17, 18, 19, 20,
    ]);
  });

  it('sorting by the id itself adds no second id term', () => {
    const orderBy = compileOrderBy(sortOf('taskId,desc'), columns, columns.taskId);
    expect(orderBy).toBe('ORDER BY "t"."id" COLLATE NOCASE DESC NULLS LAST');
    expect(sorted(sortOf('taskId,desc'))).toEqual([...ALL].reverse());
  });

  it('an unmapped property is a programming error', () => {
    expect(() =>
      compileOrderBy([{ property: 'toString', direction: 'asc' }], columns, 'id'),
    ).toThrow();
  });

  it('pages through a filtered, sorted list without overlap', () => {
    const filter: TaskFilter = { pending: true };
    const where = compileTaskFilter(filter, shape, NOW);
    const orderBy = compileOrderBy(sortOf('completion,desc'), columns, columns.taskId);
    const total = db
      .prepare(`SELECT count(*) FROM tasks AS t WHERE ${where.sql}`)
      .pluck()
      .get(...where.params) as number;
    const pageAt = (page: number, size: number) => {
      const { limit, offset } = pageWindow(page, size);
      const rows = db
        .prepare(`SELECT t.id FROM tasks AS t WHERE ${where.sql} ${orderBy} LIMIT ? OFFSET ?`)
        .pluck()
        .all(...where.params, limit, offset) as number[];
      return pageOf(rows, total, page, size);
    };
    expect(total).toBe(16);
    expect(pageAt(0, 5)).toMatchObject({
      content: [9, 2, 8, 6, 1],
      totalPages: 4,
      first: true,
      last: false,
    });
    expect(pageAt(1, 5).content).toEqual([5, 7, 11, 12, 13]);
    expect(pageAt(3, 5)).toMatchObject({ content: [20], last: true, numberOfElements: 1 });
    expect(pageAt(4, 5)).toMatchObject({ content: [], empty: true, last: true });
    const size = paging.parse({ size: '500' }).size;
    expect(pageAt(0, size)).toMatchObject({ size: 100, totalPages: 1, numberOfElements: 16 });
  });
});
