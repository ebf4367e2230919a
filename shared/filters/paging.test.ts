import { describe, expect, it } from 'vitest';
import {
  makePagingQuerySchema,
  makeSortSchema,
  pageOf,
  pageWindow,
  pagingQuerySchema,
  parseSort,
} from './paging';
import { taskSortProperties } from './sql';

const taskPaging = makePagingQuerySchema(taskSortProperties);

function issues(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  expect(result.success).toBe(false);
  return (result.error?.issues ?? []).map((i) => ({ path: i.path, message: i.message }));
}

describe('pagingQuerySchema', () => {
  it('defaults page 0, size 20, no sort', () => {
    expect(pagingQuerySchema.parse({})).toEqual({ page: 0, size: 20, sort: [] });
  });

  it('coerces query strings and keeps raw sort strings', () => {
    expect(pagingQuerySchema.parse({ page: '3', size: ' 7 ', sort: 'dueDate,desc' })).toEqual({
      page: 3,
      size: 7,
      sort: ['dueDate,desc'],
    });
    expect(pagingQuerySchema.parse({ sort: ['a', ' ', 'b,asc'] }).sort).toEqual(['a', 'b,asc']);
  });

  it('clamps size over 100 to 100, including huge values', () => {
    expect(pagingQuerySchema.parse({ size: '101' }).size).toBe(100);
    expect(pagingQuerySchema.parse({ size: '1000' }).size).toBe(100);
    expect(pagingQuerySchema.parse({ size: '100000000000000000000000' }).size).toBe(100);
    expect(pagingQuerySchema.parse({ size: '100' }).size).toBe(100);
    expect(pagingQuerySchema.parse({ size: '1' }).size).toBe(1);
  });

  it('uses the first value of a repeated page/size', () => {
    expect(pagingQuerySchema.parse({ page: ['2', 'x'], size: ['5', '9'] })).toMatchObject({
      page: 2,
      size: 5,
    });
  });

  it.each([
    ['page', '-1', 'must be at least 0'],
    ['size', '0', 'must be at least 1'],
    ['size', '-5', 'must be at least 1'],
    ['page', 'abc', '"abc" is not an integer'],
    ['page', '1.5', '"1.5" is not an integer'],
    ['size', '', '"" is not an integer'],
    ['size', '1e3', 'is not an integer'],
    ['page', '99999999999', 'must be at most 2147483647'],
  ])('rejects %s=%j', (key, value, message) => {
    const found = issues(pagingQuerySchema.safeParse({ [key]: value }));
    expect(found).toHaveLength(1);
    expect(found[0]?.path).toEqual([key]);
    expect(found[0]?.message).toContain(message);
  });

  it('reports page and size problems together', () => {
    const found = issues(pagingQuerySchema.safeParse({ page: '-1', size: '0' }));
    expect(found.map((i) => i.path)).toEqual([['page'], ['size']]);
  });
});

describe('sort', () => {
  it('parses property,direction; direction optional and case-insensitive', () => {
    expect(taskPaging.parse({ sort: ['dueDate,DESC', 'taskTitle', 'status,Asc'] }).sort).toEqual([
      { property: 'dueDate', direction: 'desc' },
      { property: 'taskTitle', direction: 'asc' },
      { property: 'status', direction: 'asc' },
    ]);
    expect(taskPaging.parse({ sort: 'priority,desc' }).sort).toEqual([
      { property: 'priority', direction: 'desc' },
    ]);
  });

  it("accepts Spring's several-properties form and drops repeats", () => {
    expect(parseSort('status,dueDate,desc', taskSortProperties).keys).toEqual([
      { property: 'status', direction: 'desc' },
      { property: 'dueDate', direction: 'desc' },
    ]);
    expect(parseSort(['status,desc', 'status,asc'], taskSortProperties).keys).toEqual([
      { property: 'status', direction: 'desc' },
    ]);
    expect(parseSort('status,completion', taskSortProperties).keys).toHaveLength(2);
  });

  it('rejects an unknown property at ["sort"], naming the allowed ones', () => {
    const found = issues(taskPaging.safeParse({ sort: 'title,asc' }));
    expect(found).toEqual([
      {
        path: ['sort'],
        message:
          'unknown sort property "title"; allowed: taskId, taskTitle, status, priority, startDate, dueDate, createdTime, modifiedTime, completion',
      },
    ]);
  });

  it('rejects a bad direction at ["sort"]', () => {
    const found = issues(taskPaging.safeParse({ sort: ['dueDate,up'] }));
    expect(found).toEqual([
      {
        path: ['sort'],
        message: 'invalid sort direction "up" in "dueDate,up": expected asc or desc',
      },
    ]);
  });

  it('reports every bad sort entry', () => {
    const found = issues(taskPaging.safeParse({ sort: ['nope', 'dueDate,sideways', 'status'] }));
    expect(found).toHaveLength(2);
  });

  it('standalone schema: property names are case-sensitive like Spring', () => {
    const schema = makeSortSchema(['name']);
    expect(schema.safeParse('Name').success).toBe(false);
    expect(schema.parse(undefined)).toEqual([]);
    expect(schema.parse(['', ' ,'])).toEqual([]);
  });
});

describe('pageOf', () => {
  it('builds a middle page', () => {
    expect(pageOf(['c', 'd'], 5, 1, 2)).toEqual({
      content: ['c', 'd'],
      totalElements: 5,
      totalPages: 3,
      size: 2,
      number: 1,
      first: false,
      last: false,
      numberOfElements: 2,
      empty: false,
    });
  });

  it('first and last pages', () => {
    expect(pageOf([1, 2], 5, 0, 2)).toMatchObject({ first: true, last: false, totalPages: 3 });
    expect(pageOf([5], 5, 2, 2)).toMatchObject({ first: false, last: true, numberOfElements: 1 });
    expect(pageOf([1, 2], 4, 1, 2)).toMatchObject({ last: true, totalPages: 2 });
  });

  it('empty results and pages past the end', () => {
    expect(pageOf([], 0, 0, 20)).toEqual({
      content: [],
      totalElements: 0,
      totalPages: 0,
      size: 20,
      number: 0,
      first: true,
      last: true,
      numberOfElements: 0,
      empty: true,
    });
    expect(pageOf([], 5, 9, 2)).toMatchObject({ empty: true, last: true, first: false, number: 9 });
  });

  it('pageWindow gives LIMIT/OFFSET', () => {
    expect(pageWindow(0, 20)).toEqual({ limit: 20, offset: 0 });
    expect(pageWindow(3, 25)).toEqual({ limit: 25, offset: 75 });
  });
});
