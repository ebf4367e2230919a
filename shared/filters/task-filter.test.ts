import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CustomFieldCondition } from './custom-fields';
import type { FieldKinds } from './filter-query';
import {
  type TaskFilter,
  taskFilterKinds,
  taskFilterQuerySchema,
  taskFilterToQuery,
} from './task-filter';

// @ts-expect-error a kinds table that disagrees with the filter type must not compile
const _wrongKind: FieldKinds<TaskFilter> = { ...taskFilterKinds, title: 'ints' };
void _wrongKind;

function issuesOf(query: Record<string, string | string[] | undefined>) {
  const result = taskFilterQuerySchema.safeParse(query);
  expect(result.success).toBe(false);
  return (result.error?.issues ?? []).map((i) => ({ path: i.path, message: i.message }));
}

const cf = (...conditions: unknown[]) => JSON.stringify(conditions);

describe('taskFilterQuerySchema', () => {
  it('parses every parameter and ignores unknown keys', () => {
    const filter = taskFilterQuerySchema.parse({
      title: ' spec ',
      status: ['To Do,In Review', 'Done'],
      priority: 'High',
      tags: 'a,b',
      creators: ['1', '2,3'],
      owners: '10',
      startDate: '2025-06-15',
      dueDate: '2025-06-16T10:00:00Z',
      createdTime: '2025-06-01T00:00:00+02:00',
      modifiedTime: '2025-06-02T00:00:00.5Z',
      overdue: 'true',
      dueDateSet: 'FALSE',
      pending: 'True',
      upcoming: 'false',
      customFields: cf({ field: 'Client', condition: 'is', value: ['Acme'] }),
      page: '2',
      size: '5',
      sort: 'dueDate,desc',
      somethingElse: 'x',
    });
    expect(filter).toEqual({
      title: 'spec',
      status: ['To Do', 'In Review', 'Done'],
      priority: ['High'],
      tags: ['a', 'b'],
      creators: [1, 2, 3],
      owners: [10],
      startDate: Date.UTC(2025, 5, 15),
      dueDate: Date.UTC(2025, 5, 16, 10),
      createdTime: Date.UTC(2025, 4, 31, 22),
      modifiedTime: Date.UTC(2025, 5, 2, 0, 0, 0, 500),
      overdue: true,
      dueDateSet: false,
      pending: true,
      upcoming: false,
      customFields: [{ field: 'Client', condition: 'IS', value: ['Acme'] }],
    });
  });

  it('an empty query, blank values and an empty customFields array are no filter', () => {
    expect(taskFilterQuerySchema.parse({})).toEqual({});
    expect(
      taskFilterQuerySchema.parse({ title: '  ', status: '', tags: ',', customFields: '[]' }),
    ).toEqual({});
    expect(Object.keys(taskFilterQuerySchema.parse({ title: undefined }))).toEqual([]);
  });

  it('normalises customFields values by condition kind', () => {
    const filter = taskFilterQuerySchema.parse({
      customFields: cf(
        { field: ' Points ', condition: 'IS', value: [8] },
        { field: 'Due', condition: 'between', value: ['1700000000000', 1600000000000] },
        { field: 'Due', condition: 'BEFORE', value: [1700000000000] },
        { field: 'Due', condition: 'TODAY' },
        { field: 'Due', condition: 'TOMORROW', value: null },
        { field: 'Notes', condition: 'ISEMPTY', value: [] },
      ),
    });
    expect(filter.customFields).toEqual([
      { field: 'Points', condition: 'IS', value: ['8'] },
      { field: 'Due', condition: 'BETWEEN', value: [1700000000000, 1600000000000] },
      { field: 'Due', condition: 'BEFORE', value: [1700000000000] },
      { field: 'Due', condition: 'TODAY', value: [] },
      { field: 'Due', condition: 'TOMORROW', value: [] },
      { field: 'Notes', condition: 'ISEMPTY', value: [] },
    ]);
  });
});

describe('taskFilterQuerySchema validation', () => {
  it.each([
    ['creators', '1,abc', '"abc" is not an integer'],
    ['creators', ['1', '2.5'], '"2.5" is not an integer'],
    ['owners', 'x', '"x" is not an integer'],
    ['overdue', 'yes', 'expected true or false, got "yes"'],
    ['pending', '', 'expected true or false, got ""'],
    ['dueDate', 'tomorrow', '"tomorrow" is not an ISO 8601 date-time'],
    ['startDate', '2025-02-30', '"2025-02-30" is not an ISO 8601 date-time'],
  ])('%s=%j is an issue at its path', (key, value, message) => {
    const issues = issuesOf({ [key]: value });
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toEqual([key]);
    expect(issues[0]?.message).toContain(message);
  });

  it.each([
    ['[{"field":', 'customFields is not valid JSON'],
    ['not json', 'customFields is not valid JSON'],
    ['{"field":"a","condition":"IS","value":["x"]}', 'customFields must be a JSON array'],
    [cf('IS'), 'customFields[0]: expected an object'],
    [cf({ condition: 'IS', value: ['x'] }), 'customFields[0]: "field" must be a non-empty string'],
    [cf({ field: ' ', condition: 'IS', value: ['x'] }), '"field" must be a non-empty string'],
    [cf({ field: 'a', condition: 'LIKE', value: ['x'] }), '"condition" must be one of IS, ISNOT,'],
    [cf({ field: 'a', condition: 'IS', value: 'x' }), '"value" must be an array'],
    [cf({ field: 'a', condition: 'IS', value: [] }), 'IS takes exactly 1 value, got 0'],
    [cf({ field: 'a', condition: 'IS' }), 'IS takes exactly 1 value, got 0'],
    [
      cf({ field: 'a', condition: 'CONTAINS', value: ['x', 'y'] }),
      'CONTAINS takes exactly 1 value, got 2',
    ],
    [cf({ field: 'a', condition: 'IS', value: [true] }), 'IS value must be a string'],
    [cf({ field: 'a', condition: 'BETWEEN', value: [1] }), 'BETWEEN takes exactly 2 values, got 1'],
    [
      cf({ field: 'a', condition: 'NOTBETWEEN', value: [1, 2, 3] }),
      'NOTBETWEEN takes exactly 2 values, got 3',
    ],
    [cf({ field: 'a', condition: 'TODAY', value: [1] }), 'TODAY takes no value, got 1'],
    [cf({ field: 'a', condition: 'TOMORROW', value: [1] }), 'TOMORROW takes no value, got 1'],
    [cf({ field: 'a', condition: 'ISEMPTY', value: ['x'] }), 'ISEMPTY takes no value, got 1'],
    [cf({ field: 'a', condition: 'ISNOTEMPTY', value: [''] }), 'ISNOTEMPTY takes no value, got 1'],
    [
      cf({ field: 'a', condition: 'BEFORE', value: ['2025-06-15'] }),
      'BEFORE: "2025-06-15" is not epoch milliseconds',
    ],
    [
      cf({ field: 'a', condition: 'AFTER', value: [1.5] }),
      'AFTER: 1.5 is not an epoch-millisecond integer',
    ],
    [
      cf({ field: 'a', condition: 'BETWEEN', value: [1, null] }),
      'BETWEEN: date values must be epoch milliseconds',
    ],
    [
      cf(
        { field: 'a', condition: 'IS', value: ['x'] },
        { field: 'b', condition: 'AFTER', value: [] },
      ),
      'customFields[1]: AFTER takes exactly 1 value, got 0',
    ],
    [cf(...Array.from({ length: 51 }, () => ({ field: 'a', condition: 'TODAY' }))), 'at most 50'],
  ])('customFields=%s is an issue at ["customFields"]', (text, message) => {
    const issues = issuesOf({ customFields: text });
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toEqual(['customFields']);
    expect(issues[0]?.message).toContain(message);
  });

  it('collects issues of several parameters at once', () => {
    const issues = issuesOf({ creators: 'a', overdue: 'x', customFields: '{' });
    expect(issues.map((i) => i.path)).toEqual([['creators'], ['overdue'], ['customFields']]);
  });
});

describe('taskFilterToQuery', () => {
  const full: TaskFilter = {
    title: 'Write 50% of the spec',
    status: ['To Do', 'In Review'],
    priority: ['High'],
    tags: ['backend', 'ops'],
    creators: [1, 2],
    owners: [10],
    startDate: Date.UTC(2025, 5, 15),
    dueDate: Date.UTC(2025, 5, 16, 10, 30, 0, 250),
    createdTime: Date.UTC(2025, 0, 1),
    modifiedTime: Date.UTC(2025, 5, 1, 23, 59, 59, 999),
    overdue: false,
    dueDateSet: true,
    pending: true,
    upcoming: false,
    customFields: [
      { field: 'Client', condition: 'CONTAINS', value: ['"quoted", with comma'] },
      { field: 'Deadline', condition: 'NOTBETWEEN', value: [2, 1] },
      { field: 'Deadline', condition: 'TODAY', value: [] },
    ],
  };

  it('encodes lists as repeated params, dates as ISO text, customFields as JSON', () => {
    const query = taskFilterToQuery(full);
    expect(query).toMatchObject({
      title: 'Write 50% of the spec',
      status: ['To Do', 'In Review'],
      creators: ['1', '2'],
      dueDate: '2025-06-16T10:30:00.250Z',
      overdue: 'false',
      pending: 'true',
    });
    expect(JSON.parse(query.customFields as string)).toEqual(full.customFields);
    expect(taskFilterToQuery({})).toEqual({});
    expect(taskFilterToQuery({ status: [], title: ' ' })).toEqual({});
  });

  it('round-trips a full filter', () => {
    expect(taskFilterQuerySchema.parse(taskFilterToQuery(full))).toEqual(full);
  });

  it('round-trips any filter (property)', () => {
    // Values the query format can carry: no commas in list items (Spring splits them), no
    // surrounding blanks (the parser trims), ISO years 0000-9999.
    const item = fc.string({ minLength: 1 }).filter((s) => s.trim() === s && !s.includes(','));
    const names = fc.uniqueArray(item, { minLength: 1, maxLength: 4 });
    const ids = fc.uniqueArray(
      fc.maxSafeInteger().map((n) => n || 0),
      { minLength: 1, maxLength: 4 },
    );
    const date = fc.integer({ min: -62167219200000, max: 253402300799999 }); // 0000..9999
    const field = fc.string({ minLength: 1 }).filter((s) => s.trim() === s);
    const ms = fc.maxSafeInteger();
    const condition: fc.Arbitrary<CustomFieldCondition> = fc.oneof(
      fc.record({
        field,
        condition: fc.constantFrom(
          'IS',
          'ISNOT',
          'CONTAINS',
          'NOTCONTAINS',
          'STARTSWITH',
          'ENDSWITH',
        ),
        value: fc.tuple(fc.string()),
      }),
      fc.record({ field, condition: fc.constantFrom('BEFORE', 'AFTER'), value: fc.tuple(ms) }),
      fc.record({
        field,
        condition: fc.constantFrom('BETWEEN', 'NOTBETWEEN'),
        value: fc.tuple(ms, ms),
      }),
      fc.record({
        field,
        condition: fc.constantFrom('ISEMPTY', 'ISNOTEMPTY', 'TODAY', 'TOMORROW'),
        value: fc.constant([] as []),
      }),
    );
    const filter: fc.Arbitrary<TaskFilter> = fc.record(
      {
        title: item,
        status: names,
        priority: names,
        tags: names,
        creators: ids,
        owners: ids,
        startDate: date,
        dueDate: date,
        createdTime: date,
        modifiedTime: date,
        overdue: fc.boolean(),
        dueDateSet: fc.boolean(),
        pending: fc.boolean(),
        upcoming: fc.boolean(),
        customFields: fc.array(condition, { minLength: 1, maxLength: 5 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(filter, (f) => {
        expect(taskFilterQuerySchema.parse(taskFilterToQuery(f))).toEqual(f);
      }),
      { numRuns: 300 },
    );
  });
});
