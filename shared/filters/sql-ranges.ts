/**
 * SQL for the range conditions of ./ranges (dates by day, number comparisons), on built-in
 * columns and on custom fields. Semantics:
 * - A date condition holds when the column's value falls in the days the rule covers (see
 *   `daySpan`); `none` when the column is NULL. On a custom field: some value of a DATE field
 *   with that name is in the span; `none` when the task has no such value.
 * - Number comparisons hold for a value that compares so; `ne` and `empty` are the negations of
 *   `eq` and "has a value", so a task without a value matches them (like ISNOT of the spec's
 *   customFields). `between` includes both ends, given in either order. On a custom field only
 *   non-DATE fields count (a date's epoch ms is not a number the user typed).
 */
import {
  type DateCondition,
  type DateRule,
  type DayClock,
  dayClockOf,
  daySpan,
  momentColumns,
  type NumberCondition,
  type NumberRule,
  type RangeFilter,
  spanBounds,
} from './ranges';
import { type CustomFieldsSqlShape, existsValue } from './sql-custom-fields';
import { type AliasPool, and, frag, not, type SqlFragment } from './sql-fragment';

/** Where the range conditions read: built-in columns by name, custom fields if the list has them. */
export interface RangeRefs {
  column: (name: 'startDate' | 'dueDate' | 'createdTime' | 'modifiedTime' | 'completion') => string;
  customFields?: { shape: CustomFieldsSqlShape; itemIdRef: string; aliases: AliasPool };
}

/** `ref` within the rule's days; never true for NULL. */
function inDays(
  ref: string,
  rule: Exclude<DateRule, { op: 'none' }>,
  moment: boolean,
  clock: DayClock,
): SqlFragment {
  const { from, to } = spanBounds(daySpan(rule, clock), moment, clock.timeZone);
  const parts = [frag(`${ref} IS NOT NULL`)];
  if (from !== null) parts.push(frag(`${ref} >= ?`, from));
  if (to !== null) parts.push(frag(`${ref} < ?`, to));
  return and(parts);
}

const comparison = { eq: '=', lt: '<', le: '<=', gt: '>', ge: '>=' } as const;
type PositiveRule =
  | { op: keyof typeof comparison; value: number }
  | Extract<NumberRule, { op: 'between' }>;

/** `ref` satisfies a positive number rule (every rule but `ne` and `empty`); never for NULL. */
function numberHolds(ref: string, rule: PositiveRule) {
  if (rule.op === 'between') {
    const lo = Math.min(rule.from, rule.to);
    const hi = Math.max(rule.from, rule.to);
    return frag(`${ref} IS NOT NULL AND ${ref} >= ? AND ${ref} <= ?`, lo, hi);
  }
  return frag(`${ref} IS NOT NULL AND ${ref} ${comparison[rule.op]} ?`, rule.value);
}

function customOnly(refs: RangeRefs) {
  if (!refs.customFields) throw new Error('custom field conditions on a list without them');
  return refs.customFields;
}

function dateSql(c: DateCondition, refs: RangeRefs, clock: DayClock): SqlFragment {
  if (c.column !== undefined) {
    const ref = refs.column(c.column);
    if (c.op === 'none') return frag(`${ref} IS NULL`);
    return inDays(ref, c, momentColumns.includes(c.column), clock);
  }
  const cf = customOnly(refs);
  const exists = (pred: (num: string) => SqlFragment) =>
    existsValue(cf.shape, cf.itemIdRef, cf.aliases, c.field, (r) =>
      and([frag(r.isDate), pred(r.num)]),
    );
  if (c.op === 'none') return not(exists((num) => frag(`${num} IS NOT NULL`)));
  return exists((num) => inDays(num, c, false, clock));
}

function numberSql(c: NumberCondition, refs: RangeRefs): SqlFragment {
  const positive = (rule: PositiveRule): SqlFragment => {
    if (c.column !== undefined) return numberHolds(refs.column(c.column), rule);
    const cf = customOnly(refs);
    return existsValue(cf.shape, cf.itemIdRef, cf.aliases, c.field, (r) =>
      and([frag(`NOT (${r.isDate})`), numberHolds(r.num, rule)]),
    );
  };
  if (c.op === 'ne') return not(positive({ op: 'eq', value: c.value }));
  if (c.op === 'empty') {
    if (c.column !== undefined) return frag(`${refs.column(c.column)} IS NULL`);
    const cf = customOnly(refs);
    return not(
      existsValue(cf.shape, cf.itemIdRef, cf.aliases, c.field, (r) =>
        frag(`NOT (${r.isDate}) AND ${r.num} IS NOT NULL`),
      ),
    );
  }
  return positive(c.op === 'between' ? c : { op: c.op, value: c.value });
}

/** The range conditions of a filter as WHERE parts, days resolved against `nowMs`. */
export function rangeParts(filter: RangeFilter, refs: RangeRefs, nowMs: number): SqlFragment[] {
  const dates = filter.dates ?? [];
  const numbers = filter.numbers ?? [];
  if (dates.length === 0 && numbers.length === 0) return [];
  // Only now: reading the process's zone costs more than the rest of a plain filter.
  const clock = dayClockOf(filter, nowMs);
  return [...dates.map((c) => dateSql(c, refs, clock)), ...numbers.map((c) => numberSql(c, refs))];
}
