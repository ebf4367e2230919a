import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomFieldCondition } from './custom-fields';
import { compileTaskFilter } from './sql';
import { ALL, at, DAY, except, NOW, seedTaskFixture, shape } from './sql-task.fixture';
import type { TaskFilter } from './task-filter';

// customFields conditions against a real SQLite store (fixture in ./sql-task.fixture).

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

const cf = (field: string, condition: string, value: unknown[] = []) =>
  ids({ customFields: [{ field, condition, value } as CustomFieldCondition] });

describe('compileTaskFilter: customFields', () => {
  it('text conditions, across every definition with the name (case-insensitive)', () => {
    expect(cf('Client', 'IS', ['acme CORP'])).toEqual([1, 2, 19]);
    expect(cf('client', 'ISNOT', ['acme CORP'])).toEqual(except(1, 2, 19));
    expect(cf('Client', 'CONTAINS', ['acme'])).toEqual([1, 2, 17, 18, 19]);
    expect(cf('Client', 'NOTCONTAINS', ['acme'])).toEqual(except(1, 2, 17, 18, 19));
    expect(cf('Client', 'STARTSWITH', ['acme'])).toEqual([1, 2, 17, 19]);
    expect(cf('Client', 'ENDSWITH', ['CORP'])).toEqual([1, 2, 18, 19]);
  });

  it('LIKE wildcards in values are literal', () => {
    expect(cf('Client', 'CONTAINS', ['%_'])).toEqual([6]);
    expect(cf('Client', 'CONTAINS', ['_'])).toEqual([6]);
    expect(cf('Client', 'STARTSWITH', ['%'])).toEqual([]);
    expect(cf('Client', 'ENDSWITH', ['_sure'])).toEqual([6]);
  });

  it('ISEMPTY / ISNOTEMPTY: no row, NULL or empty text is empty', () => {
    expect(cf('Client', 'ISNOTEMPTY')).toEqual([1, 2, 4, 6, 9, 17, 18, 19]);
    expect(cf('Client', 'ISEMPTY')).toEqual([3, 5, 7, 8, 10, 11, 12, 13, 14, 15, 16, 20]);
    expect(cf('Deadline', 'ISEMPTY')).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(cf('Unused', 'ISEMPTY')).toEqual(ALL);
    expect(cf('Unused', 'ISNOTEMPTY')).toEqual([]);
  });

  it('dropdown and number fields compare their text', () => {
    expect(cf('Stage', 'IS', ['design'])).toEqual([1, 7]);
    expect(cf('Stage', 'ISNOT', ['Design'])).toEqual(except(1, 7));
    expect(cf('Points', 'IS', ['8'])).toEqual([2]);
    expect(cf('Points', 'CONTAINS', ['1'])).toEqual([20]);
  });

  it('an unknown field: positive conditions match nothing, negative ones everything', () => {
    expect(cf('Nope', 'IS', ['x'])).toEqual([]);
    expect(cf('Nope', 'ISNOT', ['x'])).toEqual(ALL);
    expect(cf('Nope', 'TODAY')).toEqual([]);
  });

  it('DATE: TODAY and TOMORROW use the UTC days of now', () => {
    expect(cf('Deadline', 'TODAY')).toEqual([2, 9]);
    expect(cf('deadline', 'TOMORROW')).toEqual([3, 7]);
    expect(
      ids({ customFields: [{ field: 'Deadline', condition: 'TODAY', value: [] }] }, NOW + DAY),
    ).toEqual([3, 7]);
  });

  it('DATE: BEFORE / AFTER are strict', () => {
    expect(cf('Deadline', 'BEFORE', [at('06-15')])).toEqual([4]);
    expect(cf('Deadline', 'BEFORE', [at('06-15') + 1])).toEqual([4, 9]);
    expect(cf('Deadline', 'AFTER', [at('06-20')])).toEqual([6]);
    expect(cf('Deadline', 'AFTER', [at('06-20') - 1])).toEqual([1, 6]);
  });

  it('DATE: BETWEEN is inclusive and order-independent; NOTBETWEEN needs a value outside', () => {
    expect(cf('Deadline', 'BETWEEN', [at('06-17'), at('06-16')])).toEqual([3, 7, 8]);
    expect(cf('Deadline', 'BETWEEN', [at('06-16'), at('06-17')])).toEqual([3, 7, 8]);
    expect(cf('Deadline', 'NOTBETWEEN', [at('06-15'), at('06-20')])).toEqual([4, 6]);
    expect(cf('Deadline', 'NOTBETWEEN', [at('06-20'), at('06-15')])).toEqual([4, 6]);
  });

  it('DATE: IS is the same UTC day; other types compare text', () => {
    expect(cf('Deadline', 'IS', [String(at('06-16T12:00'))])).toEqual([3, 7]);
    // Same day for the DATE definition, text equality for the TEXT one (task 5).
    expect(cf('Deadline', 'IS', [String(at('06-15T13:00'))])).toEqual([2, 5, 9]);
    expect(cf('Deadline', 'ISNOT', [String(at('06-16T12:00'))])).toEqual(except(3, 7));
    expect(cf('Deadline', 'IS', ['not a date'])).toEqual([]);
  });

  it('date conditions on non-DATE fields match nothing', () => {
    expect(cf('Points', 'BEFORE', [10])).toEqual([]);
    expect(cf('Points', 'AFTER', [0])).toEqual([]);
    expect(cf('Client', 'BETWEEN', [0, Number.MAX_SAFE_INTEGER])).toEqual([]);
    expect(cf('Client', 'NOTBETWEEN', [0, 1])).toEqual([]);
    expect(cf('Points', 'TODAY')).toEqual([]);
  });

  it('several conditions and other filters are ANDed', () => {
    const conditions: CustomFieldCondition[] = [
      { field: 'Client', condition: 'CONTAINS', value: ['acme'] },
      { field: 'Deadline', condition: 'TODAY', value: [] },
    ];
    expect(ids({ customFields: conditions })).toEqual([2]);
    expect(ids({ customFields: conditions, status: ['to do'] })).toEqual([]);
    expect(
      ids({
        customFields: [{ field: 'Client', condition: 'ISEMPTY', value: [] }],
        owners: [10, 12],
        pending: true,
      }),
    ).toEqual([5]);
  });

  it('subquery aliases never capture the outer alias', () => {
    const sql = compileTaskFilter(
      { tags: ['a'], customFields: [{ field: 'x', condition: 'TODAY', value: [] }] },
      { ...shape, alias: '_f1' },
      NOW,
    ).sql;
    expect(sql).not.toMatch(/AS _f1\b/);
  });

  it('rejects a shape name that is not an identifier', () => {
    expect(() =>
      compileTaskFilter(
        { title: 'x' },
        { ...shape, columns: { ...shape.columns, title: 'title; --' } },
        NOW,
      ),
    ).toThrow(/invalid SQL identifier/);
  });
});
