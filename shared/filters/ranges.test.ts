import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { taskFilter } from '../bridge/common';
import {
  type DayClock,
  daySpan,
  dayText,
  localDay,
  rangeFilterShape,
  spanBounds,
  zoneMidnight,
} from './ranges';

const days = (span: { from: number | null; to: number | null }) => [
  span.from === null ? null : dayText(span.from),
  span.to === null ? null : dayText(span.to),
];
// Sunday 2025-11-30 22:30 in New York is Monday 03:30 UTC.
const clock = (timeZone: string, weekStartsOn = 1): DayClock => ({
  nowMs: Date.parse('2025-12-01T03:30:00Z'),
  timeZone,
  weekStartsOn,
});

describe('relative days', () => {
  it('today is the day of the zone, not of UTC', () => {
    expect(days(daySpan({ op: 'today' }, clock('America/New_York')))).toEqual([
      '2025-11-30',
      '2025-12-01',
    ]);
    expect(days(daySpan({ op: 'today' }, clock('UTC')))).toEqual(['2025-12-01', '2025-12-02']);
    expect(days(daySpan({ op: 'tomorrow' }, clock('Asia/Tokyo')))).toEqual([
      '2025-12-02',
      '2025-12-03',
    ]);
  });

  it('weeks start on the given day, across a month end', () => {
    expect(days(daySpan({ op: 'thisWeek' }, clock('America/New_York')))).toEqual([
      '2025-11-24',
      '2025-12-01',
    ]);
    expect(days(daySpan({ op: 'thisWeek' }, clock('America/New_York', 0)))).toEqual([
      '2025-11-30',
      '2025-12-07',
    ]);
    expect(days(daySpan({ op: 'nextWeek' }, clock('UTC')))).toEqual(['2025-12-08', '2025-12-15']);
    expect(days(daySpan({ op: 'overdue' }, clock('UTC')))).toEqual([null, '2025-12-01']);
  });

  it('absolute days: on, before, after, between in either order', () => {
    const c = clock('UTC');
    expect(days(daySpan({ op: 'on', date: '2026-02-28' }, c))).toEqual([
      '2026-02-28',
      '2026-03-01',
    ]);
    expect(days(daySpan({ op: 'before', date: '2026-01-01' }, c))).toEqual([null, '2026-01-01']);
    expect(days(daySpan({ op: 'after', date: '2026-01-01' }, c))).toEqual(['2026-01-02', null]);
    expect(days(daySpan({ op: 'between', from: '2026-01-09', to: '2026-01-03' }, c))).toEqual([
      '2026-01-03',
      '2026-01-10',
    ]);
  });
});

describe('zone arithmetic', () => {
  it('a local day begins at the zone midnight, also on DST days', () => {
    const day = (d: string) => Date.parse(`${d}T00:00:00Z`);
    expect(new Date(zoneMidnight(day('2025-06-15'), 'America/Los_Angeles')).toISOString()).toBe(
      '2025-06-15T07:00:00.000Z',
    );
    // New York leaves DST on 2025-11-02 at 02:00: that day starts at UTC-4, the next at UTC-5.
    expect(new Date(zoneMidnight(day('2025-11-02'), 'America/New_York')).toISOString()).toBe(
      '2025-11-02T04:00:00.000Z',
    );
    expect(new Date(zoneMidnight(day('2025-11-03'), 'America/New_York')).toISOString()).toBe(
      '2025-11-03T05:00:00.000Z',
    );
    expect(dayText(localDay(Date.parse('2025-11-03T04:59:00Z'), 'America/New_York'))).toBe(
      '2025-11-02',
    );
  });

  it('bounds: calendar days stay UTC days, moments move to the zone', () => {
    const span = { from: Date.parse('2025-06-15T00:00:00Z'), to: null };
    expect(spanBounds(span, false, 'Asia/Kolkata').from).toBe(span.from);
    expect(new Date(spanBounds(span, true, 'Asia/Kolkata').from ?? 0).toISOString()).toBe(
      '2025-06-14T18:30:00.000Z',
    );
  });
});

describe('the schema', () => {
  const ranges = z.strictObject(rangeFilterShape);

  it('takes rules on columns and custom fields', () => {
    const ok = ranges.safeParse({
      dates: [
        { column: 'dueDate', op: 'thisWeek' },
        { field: 'Launch', op: 'between', from: '2026-01-01', to: '2026-01-31' },
      ],
      numbers: [
        { field: 'Estimate', op: 'ge', value: 2.5 },
        { column: 'completion', op: 'empty' },
      ],
      timeZone: 'America/Los_Angeles',
      weekStartsOn: 0,
    });
    expect(ok.success).toBe(true);
  });

  it.each([
    ['no such day', { dates: [{ column: 'dueDate', op: 'on', date: '2026-02-30' }] }],
    ['a time, not a day', { dates: [{ column: 'dueDate', op: 'on', date: '2026-02-03T10:00' }] }],
    ['both a column and a field', { dates: [{ column: 'dueDate', field: 'X', op: 'today' }] }],
    ['neither', { numbers: [{ op: 'gt', value: 1 }] }],
    [
      'a value on a relative day',
      { dates: [{ column: 'dueDate', op: 'today', date: '2026-01-01' }] },
    ],
    ['not a number', { numbers: [{ field: 'X', op: 'gt', value: '3' }] }],
    ['an unknown column', { numbers: [{ column: 'title', op: 'gt', value: 3 }] }],
    ['an unknown zone', { timeZone: 'Mars/Olympus' }],
    ['a week day out of range', { weekStartsOn: 7 }],
  ])('refuses %s', (_, input) => {
    expect(ranges.safeParse(input).success).toBe(false);
  });

  it('is part of the bridge task filter, next to the spec filters', () => {
    const parsed = taskFilter.parse({
      status: ['Open'],
      dates: [{ column: 'dueDate', op: 'today' }],
      timeZone: 'UTC',
    });
    expect(parsed).toEqual({
      status: ['Open'],
      dates: [{ column: 'dueDate', op: 'today' }],
      timeZone: 'UTC',
    });
  });
});
