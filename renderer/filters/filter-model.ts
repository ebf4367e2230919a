import type { CustomField } from '../../shared/api/custom-fields';
import type { BridgeTaskFilter } from '../../shared/bridge';
import {
  type CustomFieldConditionName,
  conditionArity,
  dateConditionNames,
  dayConditionNames,
  emptyConditionNames,
  textConditionNames,
} from '../../shared/filters/custom-fields';
import { numericFieldTypes } from '../../shared/filters/custom-value-columns';
import {
  type DateInput,
  dateComplete,
  dayContext,
  type NumberInput,
  numberComplete,
  withDateOp,
  withNumberOp,
} from './range-model';

export type FilterValue = BridgeTaskFilter;
export type ConditionInput = NonNullable<FilterValue['customFields']>[number];

/** The conditions of a date field's row, in the order the builder lists them. */
export const dateConditions: readonly CustomFieldConditionName[] = [
  ...dateConditionNames,
  ...dayConditionNames,
  ...emptyConditionNames,
];
export const textConditions: readonly CustomFieldConditionName[] = [
  ...textConditionNames,
  ...emptyConditionNames,
];

export const conditionLabels: Record<CustomFieldConditionName, string> = {
  IS: 'is',
  ISNOT: 'is not',
  CONTAINS: 'contains',
  NOTCONTAINS: 'does not contain',
  STARTSWITH: 'starts with',
  ENDSWITH: 'ends with',
  ISEMPTY: 'is empty',
  ISNOTEMPTY: 'is not empty',
  BEFORE: 'is before',
  AFTER: 'is after',
  BETWEEN: 'is between',
  NOTBETWEEN: 'is not between',
  TODAY: 'is today',
  TOMORROW: 'is tomorrow',
};

export const isDateField = (f: Pick<CustomField, 'fieldType'> | undefined) =>
  f?.fieldType.toUpperCase() === 'DATE';

export const isNumberField = (f: Pick<CustomField, 'fieldType'> | undefined) =>
  f !== undefined && numericFieldTypes.includes(f.fieldType.toUpperCase());

/** The conditions a field of this type offers. */
export const conditionsFor = (f: Pick<CustomField, 'fieldType'> | undefined) =>
  isDateField(f) ? dateConditions : textConditions;

/**
 * Which list of the filter holds a custom-field row: text conditions (the spec's customFields,
 * also date conditions saved before day rules), day rules, or number comparisons.
 */
export type FieldRowKind = 'text' | 'date' | 'number';
export interface FieldRow {
  kind: FieldRowKind;
  /** Position in that list. */
  index: number;
}

export const fieldRowKind = (f: Pick<CustomField, 'fieldType'> | undefined): FieldRowKind =>
  isDateField(f) ? 'date' : isNumberField(f) ? 'number' : 'text';

/** The custom-field rows of a filter, in the order the panel shows them. */
export function fieldRows(f: FilterValue): FieldRow[] {
  const rows: FieldRow[] = (f.customFields ?? []).map((_, index) => ({ kind: 'text', index }));
  (f.dates ?? []).forEach((d, index) => {
    if (d.field !== undefined) rows.push({ kind: 'date', index });
  });
  (f.numbers ?? []).forEach((n, index) => {
    if (n.field !== undefined) rows.push({ kind: 'number', index });
  });
  return rows;
}

const listOf = { text: 'customFields', date: 'dates', number: 'numbers' } as const;

/** A new row for `field`, of the kind its type calls for, with its first comparison. */
export function addFieldRow(f: FilterValue, field: CustomField): FilterValue {
  const name = field.fieldName;
  switch (fieldRowKind(field)) {
    case 'date':
      return { ...f, dates: [...(f.dates ?? []), withDateOp({ field: name }, 'thisWeek')] };
    case 'number':
      return { ...f, numbers: [...(f.numbers ?? []), withNumberOp({ field: name }, 'gt')] };
    case 'text': {
      const first = conditionsFor(field)[0] ?? 'IS';
      const c = withCondition({ field: name, condition: first, value: [] }, first);
      return { ...f, customFields: [...(f.customFields ?? []), c] };
    }
  }
}

export function removeFieldRow(f: FilterValue, row: FieldRow): FilterValue {
  const key = listOf[row.kind];
  const list = (f[key] ?? []) as unknown[];
  return { ...f, [key]: list.filter((_, i) => i !== row.index) };
}

/** The row with its `i`-th entry replaced. */
export function setFieldRow(
  f: FilterValue,
  row: FieldRow,
  next: ConditionInput | DateInput | NumberInput,
): FilterValue {
  const key = listOf[row.kind];
  const list = (f[key] ?? []) as unknown[];
  return { ...f, [key]: list.map((x, i) => (i === row.index ? next : x)) };
}

/**
 * The row pointed at another field: a field of the same kind keeps the comparison (and its
 * values where they fit); another kind starts over with that kind's first comparison.
 */
export function changeRowField(f: FilterValue, row: FieldRow, field: CustomField): FilterValue {
  const name = field.fieldName;
  const kind = fieldRowKind(field);
  if (kind === row.kind && kind !== 'text') {
    const list = (row.kind === 'date' ? f.dates : f.numbers) ?? [];
    const current = list[row.index];
    if (current) return setFieldRow(f, row, { ...current, field: name } as DateInput);
  }
  if (kind === 'text' && row.kind === 'text') {
    const current = f.customFields?.[row.index];
    if (current) {
      const allowed = conditionsFor(field);
      const keep =
        allowed.includes(current.condition.toUpperCase() as CustomFieldConditionName) &&
        !isDateField(field);
      const renamed = { ...current, field: name };
      return setFieldRow(
        f,
        row,
        keep ? renamed : withCondition({ ...renamed, value: [] }, allowed[0] ?? 'IS'),
      );
    }
  }
  const without = removeFieldRow(f, row);
  return addFieldRow(without, field);
}

/**
 * A condition moved to a new condition name: values kept where they still fit, so changing
 * BEFORE into BETWEEN keeps the first date.
 */
export function withCondition(c: ConditionInput, condition: string): ConditionInput {
  const n = conditionArity(condition);
  const old = c.value ?? [];
  const value = n === 0 ? [] : n === 1 ? old.slice(0, 1) : [old[0] ?? '', old[1] ?? ''];
  return { ...c, condition, value };
}

/**
 * Only complete conditions reach the bridge: a row the user is still filling in (no date yet)
 * must not turn the list into an error.
 */
export function completeConditions(conditions: readonly ConditionInput[]): ConditionInput[] {
  return conditions.filter((c) => {
    const n = conditionArity(c.condition);
    const v = c.value ?? [];
    return v.length === n && v.every((x) => x !== '' && x !== null && x !== undefined);
  });
}

/** Not conditions: how to read "today" for the day rules, filled in by `cleanFilter`. */
const contextKeys: readonly string[] = ['timeZone', 'weekStartsOn'];

/**
 * The filter as `tasks.list` takes it: empty parts and rows still being filled in dropped, and
 * the user's zone and week start attached when day rules need them.
 */
export function cleanFilter(f: FilterValue): FilterValue {
  const out: FilterValue = {};
  for (const [k, v] of Object.entries(f) as [keyof FilterValue, unknown][]) {
    if (contextKeys.includes(k)) continue;
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    (out as Record<string, unknown>)[k] = v;
  }
  if (out.customFields) {
    const done = completeConditions(out.customFields);
    if (done.length) out.customFields = done;
    else delete out.customFields;
  }
  const dates = out.dates?.filter(dateComplete);
  if (dates?.length) Object.assign(out, { dates }, dayContext());
  else delete out.dates;
  const numbers = out.numbers?.filter(numberComplete);
  if (numbers?.length) out.numbers = numbers;
  else delete out.numbers;
  if (out.title !== undefined && out.title.trim() === '') delete out.title;
  return out;
}

/** How many conditions are on: each day rule and comparison counts, the zone does not. */
export const activeFilterCount = (f: FilterValue) => {
  const clean = cleanFilter(f);
  const keys = Object.keys(clean).filter(
    (k) => !contextKeys.includes(k) && k !== 'dates' && k !== 'numbers',
  );
  return keys.length + (clean.dates?.length ?? 0) + (clean.numbers?.length ?? 0);
};
