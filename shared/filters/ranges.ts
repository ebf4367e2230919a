/**
 * Range conditions of the app's lists, beyond the spec's query filters: dates by calendar day
 * (on, before, after, between, and relative days such as "this week" that keep their meaning
 * when a saved view is opened later) and number comparisons. They travel as JSON in the
 * bridge's task filter and in saved views; the server's query string never carries them.
 *
 * Days
 * - A rule names calendar days ("2026-11-27"), never instants, so it means the same day
 *   wherever it is read. Relative rules are resolved when the list is read, against "now" in
 *   the user's time zone (`timeZone`), weeks starting on `weekStartsOn` (0 Sunday … 6 Saturday).
 * - A calendar-day column (due date, start date, a DATE custom field) holds its day as a UTC
 *   date, as the UI writes and shows it; a moment column (created, modified) is an instant,
 *   whose day is the user's local day. The resolver turns a rule into [from, to) epoch ms for
 *   either kind, so the SQL stays a plain range test.
 */
import { z } from 'zod';
import { DAY_MS } from './sql-fragment';

export const dateColumns = ['dueDate', 'startDate', 'createdTime', 'modifiedTime'] as const;
export type DateColumn = (typeof dateColumns)[number];
/** Columns that hold an instant: their day depends on the user's time zone. */
export const momentColumns: readonly DateColumn[] = ['createdTime', 'modifiedTime'];

export const relativeDays = ['today', 'tomorrow', 'thisWeek', 'nextWeek', 'overdue'] as const;
export type RelativeDay = (typeof relativeDays)[number];

/** A day, "2026-11-27"; the day must exist (no February 30). */
const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day such as 2026-11-27')
  .refine((d) => {
    // Runs after a failed regex too: an unparsable text must answer, not throw.
    const ms = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(d);
  }, 'no such day');

export type DateRule =
  | { op: 'on' | 'before' | 'after'; date: string }
  | { op: 'between'; from: string; to: string }
  | { op: RelativeDay }
  /** No date at all. */
  | { op: 'none' };

export const numberColumns = ['completion'] as const;
export type NumberColumn = (typeof numberColumns)[number];
export const numberComparisons = ['eq', 'ne', 'lt', 'le', 'gt', 'ge'] as const;
export type NumberComparison = (typeof numberComparisons)[number];

export type NumberRule =
  | { op: NumberComparison; value: number }
  | { op: 'between'; from: number; to: number }
  | { op: 'empty' };

/** What a condition tests: a built-in column, or every custom field with that name. */
type Target<C> = { column: C; field?: undefined } | { field: string; column?: undefined };
export type DateCondition = Target<DateColumn> & DateRule;
export type NumberCondition = Target<NumberColumn> & NumberRule;

/** The range part of a list filter, and how to read "today" for it. */
export interface RangeFilter {
  dates?: DateCondition[];
  numbers?: NumberCondition[];
  /** IANA zone whose "today" relative days mean; the process's zone when absent. */
  timeZone?: string;
  /** First day of a week, 0 Sunday … 6 Saturday; Monday when absent. */
  weekStartsOn?: number;
}

const fieldName = z.string().trim().min(1).max(200);
const targetOf = <C extends readonly [string, ...string[]]>(columns: C) => ({
  column: z.enum(columns).optional(),
  field: fieldName.optional(),
});
const oneTarget = (c: { column?: unknown; field?: unknown }) =>
  (c.column === undefined) !== (c.field === undefined);
const targetMessage = 'name either a column or a custom field';

const dateTarget = targetOf(dateColumns);
const dateCondition = z
  .discriminatedUnion('op', [
    z.strictObject({ ...dateTarget, op: z.enum(['on', 'before', 'after']), date: isoDay }),
    z.strictObject({ ...dateTarget, op: z.literal('between'), from: isoDay, to: isoDay }),
    z.strictObject({ ...dateTarget, op: z.enum([...relativeDays, 'none'] as const) }),
  ])
  .refine(oneTarget, targetMessage);

const finite = z.number().finite();
const numberTarget = targetOf(numberColumns);
const numberCondition = z
  .discriminatedUnion('op', [
    z.strictObject({ ...numberTarget, op: z.enum(numberComparisons), value: finite }),
    z.strictObject({ ...numberTarget, op: z.literal('between'), from: finite, to: finite }),
    z.strictObject({ ...numberTarget, op: z.literal('empty') }),
  ])
  .refine(oneTarget, targetMessage);

const knownZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** The zod shape of `RangeFilter`, to spread into a filter object schema. */
export const rangeFilterShape = {
  dates: z
    .array(dateCondition)
    .max(20)
    .optional()
    .transform((c) => c as DateCondition[] | undefined),
  numbers: z
    .array(numberCondition)
    .max(20)
    .optional()
    .transform((c) => c as NumberCondition[] | undefined),
  timeZone: z.string().max(100).refine(knownZone, 'unknown time zone').optional(),
  weekStartsOn: z.number().int().min(0).max(6).optional(),
};

// ---- resolving days -------------------------------------------------------------------------

/** Epoch ms of UTC midnight of a "YYYY-MM-DD" day. */
export const dayMs = (day: string): number => Date.parse(`${day}T00:00:00.000Z`);

/** The "YYYY-MM-DD" of a UTC midnight (or of any instant, by its UTC date). */
export const dayText = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const zoneFormats = new Map<string, Intl.DateTimeFormat>();
const zoneFormat = (timeZone: string) => {
  let f = zoneFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    zoneFormats.set(timeZone, f);
  }
  return f;
};

/** The wall clock of `ms` in `timeZone`, read as if it were UTC (so minus `ms` is the offset). */
function wallClock(ms: number, timeZone: string): number {
  const parts = zoneFormat(timeZone).formatToParts(ms);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
}

/** UTC midnight of the calendar day `ms` falls on in `timeZone`. */
export const localDay = (ms: number, timeZone: string): number =>
  Math.floor(wallClock(ms, timeZone) / DAY_MS) * DAY_MS;

/**
 * The instant a day (its UTC midnight) begins in `timeZone`. The offset is read twice, the
 * second time at the first guess, so a day that starts on the other side of a DST change
 * still lands on its midnight.
 */
export function zoneMidnight(day: number, timeZone: string): number {
  const guess = day - (wallClock(day, timeZone) - day);
  return day - (wallClock(guess, timeZone) - guess);
}

/** The process's zone, for callers that give none. */
export const defaultTimeZone = (): string => new Intl.DateTimeFormat().resolvedOptions().timeZone;

export interface DayClock {
  nowMs: number;
  timeZone: string;
  /** 0 Sunday … 6 Saturday. */
  weekStartsOn: number;
}

export const dayClockOf = (filter: RangeFilter, nowMs: number): DayClock => ({
  nowMs,
  timeZone: filter.timeZone ?? defaultTimeZone(),
  weekStartsOn: filter.weekStartsOn ?? 1,
});

/** Days as [from, to) UTC midnights; an open end is null. */
export interface DaySpan {
  from: number | null;
  to: number | null;
}

/** The days a rule covers (every rule but `none`, which is about the absence of a date). */
export function daySpan(rule: Exclude<DateRule, { op: 'none' }>, clock: DayClock): DaySpan {
  const today = localDay(clock.nowMs, clock.timeZone);
  const weekday = new Date(today).getUTCDay();
  const weekStart = today - ((weekday - clock.weekStartsOn + 7) % 7) * DAY_MS;
  switch (rule.op) {
    case 'on':
      return { from: dayMs(rule.date), to: dayMs(rule.date) + DAY_MS };
    case 'before':
      return { from: null, to: dayMs(rule.date) };
    case 'after':
      return { from: dayMs(rule.date) + DAY_MS, to: null };
    case 'between': {
      // Both days included, given in either order.
      const [a, b] = [dayMs(rule.from), dayMs(rule.to)];
      return { from: Math.min(a, b), to: Math.max(a, b) + DAY_MS };
    }
    case 'today':
      return { from: today, to: today + DAY_MS };
    case 'tomorrow':
      return { from: today + DAY_MS, to: today + 2 * DAY_MS };
    case 'thisWeek':
      return { from: weekStart, to: weekStart + 7 * DAY_MS };
    case 'nextWeek':
      return { from: weekStart + 7 * DAY_MS, to: weekStart + 14 * DAY_MS };
    case 'overdue':
      return { from: null, to: today };
  }
}

/** A span as epoch ms bounds of a column: UTC days for calendar days, local days for moments. */
export function spanBounds(span: DaySpan, moment: boolean, timeZone: string): DaySpan {
  const at = (day: number | null) =>
    day === null ? null : moment ? zoneMidnight(day, timeZone) : day;
  return { from: at(span.from), to: at(span.to) };
}
