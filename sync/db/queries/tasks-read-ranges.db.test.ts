/**
 * Date ranges and number comparisons of task lists, through a real replica. The fixture's
 * NOW is Sunday 2025-06-15 12:00 UTC; `MONDAY_3AM` is already Monday in UTC but still Sunday
 * evening in Los Angeles (UTC-7 in June), so zone and week start both decide the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedView } from '../../../shared/bridge/settings';
import type { ListTaskFilter, PagingRequest } from '../../../shared/filters';
import { at, NOW, openTestReplica, seedReplica, type TestReplica } from './read.fixture';
import { listTasks, type TaskScope } from './tasks-read';

let t: TestReplica;
beforeAll(() => {
  t = openTestReplica();
  seedReplica(t.replica);
});
afterAll(() => t.close());

const all: TaskScope = { kind: 'all' };
const MONDAY_3AM = Date.parse('2025-06-16T03:00:00Z');
const LA = 'America/Los_Angeles';
const UTC = 'UTC';

const ids = (filter: ListTaskFilter, now = NOW, scope: TaskScope = all) => {
  const query: PagingRequest & ListTaskFilter = { page: 0, size: 100, sort: [], ...filter };
  return listTasks(t.replica.db, scope, query, now).content.map((x) => x.taskId);
};
const due = (rule: NonNullable<ListTaskFilter['dates']>[number], zone = UTC, weekStartsOn = 1) =>
  ({ dates: [rule], timeZone: zone, weekStartsOn }) as ListTaskFilter;

describe('due date by day, relative days resolved at read time', () => {
  it.each<[string, ListTaskFilter, number[]]>([
    ['today', due({ column: 'dueDate', op: 'today' }), [5, 9, 10, 13]],
    ['tomorrow', due({ column: 'dueDate', op: 'tomorrow' }), [2]],
    ['this week (Mon-Sun)', due({ column: 'dueDate', op: 'thisWeek' }), [1, 3, 5, 9, 10, 12, 13]],
    ['next week', due({ column: 'dueDate', op: 'nextWeek' }), [2, 7, 8, 14]],
    ['overdue: before today', due({ column: 'dueDate', op: 'overdue' }), [1, 3, 12]],
    ['no date', due({ column: 'dueDate', op: 'none' }), [4, 6, 11]],
    ['on a day', due({ column: 'dueDate', op: 'on', date: '2025-06-22' }), [7, 8, 14]],
    ['before a day', due({ column: 'dueDate', op: 'before', date: '2025-06-14' }), [3]],
    ['after a day', due({ column: 'dueDate', op: 'after', date: '2025-06-22' }), [15]],
    [
      'between, both days included, any order',
      due({ column: 'dueDate', op: 'between', from: '2025-06-16', to: '2025-06-14' }),
      [1, 2, 5, 9, 10, 12, 13],
    ],
    ['start date on a day', due({ column: 'startDate', op: 'on', date: '2025-06-12' }), [2]],
  ])('%s', (_, filter, expected) => {
    expect(ids(filter)).toEqual(expected);
  });

  it('west of UTC: still Sunday in Los Angeles when it is Monday in UTC', () => {
    const at3 = (rule: Parameters<typeof due>[0], zone: string, start = 1) =>
      ids(due(rule, zone, start), MONDAY_3AM);
    expect(at3({ column: 'dueDate', op: 'today' }, LA)).toEqual([5, 9, 10, 13]);
    expect(at3({ column: 'dueDate', op: 'today' }, UTC)).toEqual([2]);
    expect(at3({ column: 'dueDate', op: 'tomorrow' }, LA)).toEqual([2]);
    expect(at3({ column: 'dueDate', op: 'overdue' }, LA)).toEqual([1, 3, 12]);
    expect(at3({ column: 'dueDate', op: 'overdue' }, UTC)).toEqual([1, 3, 5, 9, 10, 12, 13]);
  });

  it('week boundary: the zone and the first day of the week pick the week', () => {
    const week = (zone: string, start: number) =>
      ids(due({ column: 'dueDate', op: 'thisWeek' }, zone, start), MONDAY_3AM);
    // Los Angeles, weeks from Monday: Sunday evening closes Jun 9-15.
    expect(week(LA, 1)).toEqual([1, 3, 5, 9, 10, 12, 13]);
    // UTC, weeks from Monday: a new week, Jun 16-22.
    expect(week(UTC, 1)).toEqual([2, 7, 8, 14]);
    // Los Angeles, weeks from Sunday (en-US): Jun 15-21.
    expect(week(LA, 0)).toEqual([2, 5, 9, 10, 13]);
    expect(ids(due({ column: 'dueDate', op: 'nextWeek' }, LA, 0), MONDAY_3AM)).toEqual([
      7, 8, 14, 15,
    ]);
  });

  it('a moment (created) falls on the local day of the zone', () => {
    const created = (date: string, zone: string) =>
      ids(due({ column: 'createdTime', op: 'on', date }, zone));
    expect(created('2025-06-04', UTC)).toEqual([4]);
    // 06-05T00:00Z is the evening of June 4 in Los Angeles; 06-04T00:00Z is still June 3.
    expect(created('2025-06-04', LA)).toEqual([5]);
    expect(created('2025-06-01', LA)).toEqual([1, 9, 10, 11, 12, 13, 14, 15]);
  });

  it('ANDs with the other filters', () => {
    expect(ids({ ...due({ column: 'dueDate', op: 'thisWeek' }), pending: true })).toEqual([
      1, 5, 9, 10, 13,
    ]);
  });
});

describe('custom fields: dates by day, numbers compared', () => {
  it('a DATE field by day; "no date" also holds for tasks without the field', () => {
    expect(ids(due({ field: 'deadline', op: 'thisWeek' }))).toEqual([2]);
    expect(ids(due({ field: 'Deadline', op: 'nextWeek' }))).toEqual([1]);
    expect(ids(due({ field: 'Deadline', op: 'on', date: '2025-06-20' }))).toEqual([1]);
    expect(ids(due({ field: 'Deadline', op: 'none' }))).toEqual([
      3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    ]);
    // A date rule on a text field matches nothing.
    expect(ids(due({ field: 'Client', op: 'before', date: '2030-01-01' }))).toEqual([]);
  });

  const points = (rule: Record<string, unknown>) =>
    ids({ numbers: [{ field: 'Points', ...rule }] } as ListTaskFilter);
  const everyoneBut = (...out: number[]) =>
    Array.from({ length: 15 }, (_, i) => i + 1).filter((id) => !out.includes(id));

  it.each<[string, Record<string, unknown>, number[]]>([
    ['=', { op: 'eq', value: 8 }, [7]],
    ['≠ (no value counts as different)', { op: 'ne', value: 8 }, everyoneBut(7)],
    ['<', { op: 'lt', value: 13 }, [7]],
    ['≤', { op: 'le', value: 13 }, [7, 8]],
    ['>', { op: 'gt', value: 8 }, [8]],
    ['≥', { op: 'ge', value: 8 }, [7, 8]],
    ['between, any order', { op: 'between', from: 13, to: 9 }, [8]],
    ['is empty', { op: 'empty' }, everyoneBut(7, 8)],
  ])('number field %s', (_, rule, expected) => {
    expect(points(rule)).toEqual(expected);
  });

  it('a number rule ignores DATE fields; Done % is a number column', () => {
    expect(ids({ numbers: [{ field: 'Deadline', op: 'gt', value: 0 }] })).toEqual([]);
    expect(ids({ numbers: [{ column: 'completion', op: 'gt', value: 0 }] })).toEqual([
      2, 3, 4, 6, 12,
    ]);
    expect(ids({ numbers: [{ column: 'completion', op: 'between', from: 10, to: 40 }] })).toEqual([
      2, 4,
    ]);
  });
});

describe('a filter saved before ranges', () => {
  // Written by the previous version: a same-UTC-day due date and the spec's date conditions.
  const old = {
    id: 'v1',
    name: 'Old view',
    scope: { kind: 'my' },
    filter: {
      dueDate: at('06-15'),
      customFields: [{ field: 'Deadline', condition: 'before', value: [at('06-16')] }],
    },
    sort: [{ property: 'dueDate', direction: 'asc' }],
  };

  it('still parses, normalised as before', () => {
    const view = savedView.parse(JSON.parse(JSON.stringify(old)));
    expect(view.filter).toEqual({
      dueDate: at('06-15'),
      customFields: [{ field: 'Deadline', condition: 'BEFORE', value: [at('06-16')] }],
    });
  });

  it('means the same: UTC days and instants, whatever the zone of the reader', () => {
    const { filter } = savedView.parse(old);
    expect(ids({ dueDate: filter.dueDate })).toEqual([5, 9, 10, 13]);
    expect(ids({ dueDate: filter.dueDate, timeZone: LA }, MONDAY_3AM)).toEqual([5, 9, 10, 13]);
    expect(ids({ customFields: filter.customFields })).toEqual([2]);
    // The spec's TODAY is the UTC day, so on Monday 03:00 UTC it is no longer June 15.
    const today = [{ field: 'Deadline', condition: 'TODAY' as const, value: [] as [] }];
    expect(ids({ customFields: today })).toEqual([2]);
    expect(ids({ customFields: today, timeZone: LA }, MONDAY_3AM)).toEqual([]);
  });
});
