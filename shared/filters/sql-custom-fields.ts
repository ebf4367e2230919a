/**
 * SQL for one `customFields` condition of the task filter (semantics: header of ./sql.ts).
 *
 * Every condition is built from one positive test, "the task has a value row, for a field
 * definition with this name, that satisfies P", i.e. an EXISTS over value rows joined to their
 * definitions. Negative conditions (ISNOT, NOTCONTAINS, ISEMPTY) are NOT EXISTS of the positive
 * one. That is "no value or not matching" when one definition carries the name, and it stays
 * right when several definitions share it (one per project, say): a task has no row for the
 * other projects' fields, and a per-definition "no value" would make it match every time.
 */
import type { CustomFieldCondition } from './custom-fields';
import {
  type AliasPool,
  and,
  columnRef,
  DAY_MS,
  frag,
  inRange,
  likeText,
  not,
  or,
  type SqlFragment,
  sameUtcDay,
  tableRef,
  utcDayStart,
} from './sql-fragment';

export interface CustomFieldsSqlShape {
  /** Definitions; `type` e.g. 'DATE', 'TEXT', 'NUMBER', 'DROPDOWN' (compared case-insensitively). */
  customFields: { table: string; id: string; name: string; type: string };
  /**
   * One row per (task, field): `text` is the searchable text (a dropdown's option name, a date's
   * ms as text), `num` the number form (epoch ms for DATE, the number for NUMBER, else NULL).
   */
  customValues: { table: string; taskId: string; fieldId: string; text: string; num: string };
}

export interface ValueRefs {
  text: string;
  num: string;
  /** Boolean SQL, never NULL: the definition is of type DATE. */
  isDate: string;
}

const INTEGER = /^-?\d+$/;

/** EXISTS a value row of `taskIdRef` for a field named `field` whose value satisfies `pred`. */
export function existsValue(
  shape: CustomFieldsSqlShape,
  taskIdRef: string,
  aliases: AliasPool,
  field: string,
  pred: (refs: ValueRefs) => SqlFragment,
): SqlFragment {
  const v = aliases.take();
  const f = aliases.take();
  const cv = shape.customValues;
  const cf = shape.customFields;
  const refs: ValueRefs = {
    text: columnRef(v, cv.text),
    num: columnRef(v, cv.num),
    isDate: `upper(COALESCE(${columnRef(f, cf.type)}, '')) = 'DATE'`,
  };
  const p = pred(refs);
  return {
    sql:
      `EXISTS (SELECT 1 FROM ${tableRef(cv.table)} AS ${v}` +
      ` JOIN ${tableRef(cf.table)} AS ${f} ON ${columnRef(f, cf.id)} = ${columnRef(v, cv.fieldId)}` +
      ` WHERE ${columnRef(v, cv.taskId)} = ${taskIdRef}` +
      ` AND lower(${columnRef(f, cf.name)}) = lower(?) AND (${p.sql}))`,
    params: [field, ...p.params],
  };
}

/** IS: same UTC day on DATE fields, case-insensitive text equality on the others. */
function isPredicate(value: string): (r: ValueRefs) => SqlFragment {
  return (r) => {
    const text = and([frag(`NOT (${r.isDate})`), frag(`lower(${r.text}) = lower(?)`, value)]);
    // A value that is not epoch ms cannot name a day: the DATE branch then matches nothing.
    if (!INTEGER.test(value)) return text;
    return or([and([frag(r.isDate), sameUtcDay(r.num, Number(value))]), text]);
  };
}

/** A value row that holds something: non-empty text, or a number. */
const nonEmpty = (r: ValueRefs): SqlFragment =>
  frag(`COALESCE(${r.text}, '') <> '' OR ${r.num} IS NOT NULL`);

const dateOnly =
  (inner: (num: string) => SqlFragment) =>
  (r: ValueRefs): SqlFragment =>
    and([frag(r.isDate), inner(r.num)]);

export function compileCustomFieldCondition(
  cond: CustomFieldCondition,
  shape: CustomFieldsSqlShape,
  taskIdRef: string,
  aliases: AliasPool,
  nowMs: number,
): SqlFragment {
  const exists = (pred: (r: ValueRefs) => SqlFragment) =>
    existsValue(shape, taskIdRef, aliases, cond.field, pred);
  const today = utcDayStart(nowMs);
  switch (cond.condition) {
    case 'IS':
      return exists(isPredicate(cond.value[0]));
    case 'ISNOT':
      return not(exists(isPredicate(cond.value[0])));
    case 'CONTAINS':
      return exists((r) => likeText(r.text, cond.value[0], 'contains'));
    case 'NOTCONTAINS':
      return not(exists((r) => likeText(r.text, cond.value[0], 'contains')));
    case 'STARTSWITH':
      return exists((r) => likeText(r.text, cond.value[0], 'startsWith'));
    case 'ENDSWITH':
      return exists((r) => likeText(r.text, cond.value[0], 'endsWith'));
    case 'ISEMPTY':
      return not(exists(nonEmpty));
    case 'ISNOTEMPTY':
      return exists(nonEmpty);
    case 'BEFORE':
      return exists(dateOnly((num) => frag(`${num} < ?`, cond.value[0])));
    case 'AFTER':
      return exists(dateOnly((num) => frag(`${num} > ?`, cond.value[0])));
    case 'BETWEEN':
    case 'NOTBETWEEN': {
      // The pair may come in either order.
      const lo = Math.min(...cond.value);
      const hi = Math.max(...cond.value);
      return cond.condition === 'BETWEEN'
        ? exists(dateOnly((num) => frag(`${num} >= ? AND ${num} <= ?`, lo, hi)))
        : exists(
            dateOnly((num) => frag(`${num} IS NOT NULL AND (${num} < ? OR ${num} > ?)`, lo, hi)),
          );
    }
    case 'TODAY':
      return exists(dateOnly((num) => inRange(num, today, today + DAY_MS)));
    case 'TOMORROW':
      return exists(dateOnly((num) => inRange(num, today + DAY_MS, today + 2 * DAY_MS)));
  }
}
