/**
 * The date and number conditions of the filter panel (shared/filters/ranges): their words,
 * how a condition changes when its kind of comparison changes, and when it is complete enough
 * to reach the list. Rules name days ("2026-11-27"), which is also what `<input type="date">`
 * holds, so a rule never passes through an instant on its way to the replica.
 */
import type { BridgeTaskFilter } from '../../shared/bridge';
import { type DateColumn, relativeDays } from '../../shared/filters/ranges';
import { userTimeZone } from '../lib/dates';

export type DateInput = NonNullable<BridgeTaskFilter['dates']>[number];
export type NumberInput = NonNullable<BridgeTaskFilter['numbers']>[number];
export type DateOp = DateInput['op'];
export type NumberOp = NumberInput['op'];
type Target = { column: DateColumn } | { column: 'completion' } | { field: string };

export const dateOpLabels: Record<DateOp, string> = {
  today: 'Today',
  tomorrow: 'Tomorrow',
  thisWeek: 'This week',
  nextWeek: 'Next week',
  overdue: 'Overdue (before today)',
  none: 'No date',
  on: 'On',
  before: 'Before',
  after: 'After',
  between: 'Between',
};

/** What a due date, a start date or a date field offers. */
export const dayOps: readonly DateOp[] = [
  ...relativeDays,
  'none',
  'on',
  'before',
  'after',
  'between',
];
/** What a moment offers: it is always set and always in the past. */
export const momentOps: readonly DateOp[] = [
  'today',
  'thisWeek',
  'on',
  'before',
  'after',
  'between',
];

export const numberOpLabels: Record<NumberOp, string> = {
  eq: '= equal to',
  ne: '≠ not equal to',
  lt: '< less than',
  le: '≤ at most',
  gt: '> more than',
  ge: '≥ at least',
  between: 'between',
  empty: 'is empty',
};
export const numberOps = Object.keys(numberOpLabels) as NumberOp[];

const targetOf = (r: { column?: string; field?: string }): Target =>
  r.field !== undefined ? { field: r.field } : ({ column: r.column } as Target);

/** How many days or numbers a comparison takes: the panel shows that many inputs. */
export const dateArity = (op: DateOp): 0 | 1 | 2 =>
  op === 'between' ? 2 : op === 'on' || op === 'before' || op === 'after' ? 1 : 0;
export const numberArity = (op: NumberOp): 0 | 1 | 2 =>
  op === 'between' ? 2 : op === 'empty' ? 0 : 1;

/** The days of a rule, in input order; "" for a day not picked yet. */
export const daysOf = (r: DateInput): string[] =>
  'date' in r ? [r.date] : 'from' in r ? [r.from, r.to] : [];

/** The rule with another comparison, keeping the days already picked where they still fit. */
export function withDateOp(r: DateInput | { field: string } | { column: DateColumn }, op: DateOp) {
  const days = 'op' in r ? daysOf(r) : [];
  const t = targetOf(r) as DateInput;
  const n = dateArity(op);
  if (n === 0) return { ...t, op } as DateInput;
  if (n === 1) return { ...t, op, date: days[0] ?? '' } as DateInput;
  return { ...t, op, from: days[0] ?? '', to: days[1] ?? '' } as DateInput;
}

/** The rule with its `i`-th day set. */
export function withDay(r: DateInput, i: number, day: string): DateInput {
  if ('date' in r) return { ...r, date: day };
  if ('from' in r) return i === 0 ? { ...r, from: day } : { ...r, to: day };
  return r;
}

/** Numbers of a rule in input order; NaN for one not typed (or not a number) yet. */
export const numbersOf = (r: NumberInput): number[] =>
  'value' in r ? [r.value] : 'from' in r ? [r.from, r.to] : [];

export function withNumberOp(
  r: NumberInput | { field: string } | { column: 'completion' },
  op: NumberOp,
) {
  const values = 'op' in r ? numbersOf(r) : [];
  const t = targetOf(r) as NumberInput;
  const n = numberArity(op);
  if (n === 0) return { ...t, op } as NumberInput;
  if (n === 1) return { ...t, op, value: values[0] ?? Number.NaN } as NumberInput;
  return { ...t, op, from: values[0] ?? Number.NaN, to: values[1] ?? Number.NaN } as NumberInput;
}

export function withNumber(r: NumberInput, i: number, value: number): NumberInput {
  if ('value' in r) return { ...r, value };
  if ('from' in r) return i === 0 ? { ...r, from: value } : { ...r, to: value };
  return r;
}

export const dateComplete = (r: DateInput) => daysOf(r).every((d) => d !== '');
export const numberComplete = (r: NumberInput) => numbersOf(r).every(Number.isFinite);

/** The "YYYY-MM-DD" of the UTC day `ms` falls on: how a day was saved before rules. */
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The rule of a built-in date column. A filter saved before rules held one UTC day as epoch
 * ms: it shows as "On" that day, and keeps its saved meaning until the row is changed.
 */
export function columnDateRule(f: BridgeTaskFilter, column: DateColumn): DateInput | undefined {
  const own = f.dates?.find((d) => d.column === column);
  if (own) return own;
  const saved = f[column];
  return typeof saved === 'number' ? { column, op: 'on', date: utcDay(saved) } : undefined;
}

export function setColumnDateRule(
  f: BridgeTaskFilter,
  column: DateColumn,
  rule: DateInput | undefined,
): BridgeTaskFilter {
  const { [column]: _replaced, ...rest } = f;
  const dates = (f.dates ?? []).filter((d) => d.column !== column);
  return { ...rest, dates: rule ? [...dates, rule] : dates };
}

export const columnNumberRule = (f: BridgeTaskFilter, column: 'completion') =>
  f.numbers?.find((n) => n.column === column);

export function setColumnNumberRule(
  f: BridgeTaskFilter,
  column: 'completion',
  rule: NumberInput | undefined,
): BridgeTaskFilter {
  const numbers = (f.numbers ?? []).filter((n) => n.column !== column);
  return { ...f, numbers: rule ? [...numbers, rule] : numbers };
}

interface WeekInfo {
  firstDay: number;
}

/**
 * The user's zone and first day of the week, read each time a filter is cleaned, so that
 * "today" and "this week" are the user's wherever a saved view was made.
 */
export function dayContext(locale?: string): { timeZone: string; weekStartsOn: number } {
  const timeZone = userTimeZone();
  let firstDay = 1;
  try {
    const tag = locale ?? (typeof navigator === 'undefined' ? 'en' : navigator.language);
    const l = new Intl.Locale(tag) as Intl.Locale & {
      getWeekInfo?: () => WeekInfo;
      weekInfo?: WeekInfo;
    };
    firstDay = (l.getWeekInfo?.() ?? l.weekInfo)?.firstDay ?? 1;
  } catch {
    // An unknown locale tag: weeks from Monday, as ISO 8601.
  }
  return { timeZone, weekStartsOn: firstDay % 7 };
}
