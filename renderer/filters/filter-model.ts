import type { CustomField } from '../../shared/api/custom-fields';
import type { BridgeTaskFilter } from '../../shared/bridge';
import type { CustomFieldConditionName } from '../../shared/filters/custom-fields';

export type FilterValue = BridgeTaskFilter;
export type ConditionInput = NonNullable<FilterValue['customFields']>[number];

export const dateConditions: readonly CustomFieldConditionName[] = [
  'BEFORE',
  'AFTER',
  'BETWEEN',
  'NOTBETWEEN',
  'TODAY',
  'TOMORROW',
  'ISEMPTY',
  'ISNOTEMPTY',
];
export const textConditions: readonly CustomFieldConditionName[] = [
  'IS',
  'ISNOT',
  'CONTAINS',
  'NOTCONTAINS',
  'STARTSWITH',
  'ENDSWITH',
  'ISEMPTY',
  'ISNOTEMPTY',
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

/** How many values a condition takes: the builder shows that many inputs. */
export const arity = (c: string): 0 | 1 | 2 =>
  c === 'BETWEEN' || c === 'NOTBETWEEN'
    ? 2
    : ['ISEMPTY', 'ISNOTEMPTY', 'TODAY', 'TOMORROW'].includes(c)
      ? 0
      : 1;

export const isDateField = (f: Pick<CustomField, 'fieldType'> | undefined) =>
  f?.fieldType.toUpperCase() === 'DATE';

/** The conditions a field of this type offers. */
export const conditionsFor = (f: Pick<CustomField, 'fieldType'> | undefined) =>
  isDateField(f) ? dateConditions : textConditions;

/**
 * A condition moved to a new condition name: values kept where they still fit, so changing
 * BEFORE into BETWEEN keeps the first date.
 */
export function withCondition(c: ConditionInput, condition: string): ConditionInput {
  const n = arity(condition);
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
    const n = arity(c.condition);
    const v = c.value ?? [];
    return v.length === n && v.every((x) => x !== '' && x !== null && x !== undefined);
  });
}

/** The filter as `tasks.list` takes it: empty parts dropped. */
export function cleanFilter(f: FilterValue): FilterValue {
  const out: FilterValue = {};
  for (const [k, v] of Object.entries(f) as [keyof FilterValue, unknown][]) {
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    (out as Record<string, unknown>)[k] = v;
  }
  if (out.customFields) {
    const done = completeConditions(out.customFields);
    if (done.length) out.customFields = done;
    else delete out.customFields;
  }
  if (out.title !== undefined && out.title.trim() === '') delete out.title;
  return out;
}

export const activeFilterCount = (f: FilterValue) => Object.keys(cleanFilter(f)).length;
