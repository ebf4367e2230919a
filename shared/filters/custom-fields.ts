/**
 * The `customFields` task filter: a query parameter holding JSON text, an array of
 * `{field, condition, value}` (spec part 4). Parsing normalises every condition so the SQL
 * compiler can trust it:
 * - `condition` is upper-cased ("is" is accepted as IS);
 * - text conditions carry exactly one value, kept as a string (a number becomes its text);
 * - date conditions (BEFORE, AFTER, BETWEEN, NOTBETWEEN) carry epoch-ms integers (numbers or
 *   numeric strings), two for the BETWEEN pair, one otherwise, in the order given;
 * - TODAY, TOMORROW, ISEMPTY, ISNOTEMPTY carry none (an empty, null or missing `value`).
 * Errors stay at the parameter's path (["customFields"]) and name the offending entry, because
 * the error body's FieldError has a single `field` name.
 */
import { type Parsed, parseIntegerText, showValue } from './query-values';

/** Conditions on a field's text; they carry one value. */
export const textConditionNames = [
  'IS',
  'ISNOT',
  'CONTAINS',
  'NOTCONTAINS',
  'STARTSWITH',
  'ENDSWITH',
] as const;
/** Conditions on a field's emptiness, any type; they carry no value. */
export const emptyConditionNames = ['ISEMPTY', 'ISNOTEMPTY'] as const;
/** Conditions comparing a date field with epoch-ms values (two for the BETWEEN pair). */
export const dateConditionNames = ['BEFORE', 'AFTER', 'BETWEEN', 'NOTBETWEEN'] as const;
/** Conditions matching a date field's day; they carry no value. */
export const dayConditionNames = ['TODAY', 'TOMORROW'] as const;

export const customFieldConditionNames = [
  ...textConditionNames,
  ...emptyConditionNames,
  ...dateConditionNames,
  ...dayConditionNames,
] as const;
export type CustomFieldConditionName = (typeof customFieldConditionNames)[number];

export type TextConditionName = (typeof textConditionNames)[number];
export type NoValueConditionName =
  | (typeof emptyConditionNames)[number]
  | (typeof dayConditionNames)[number];

/** One normalised condition; the union ties each condition to the kind of value it carries. */
export type CustomFieldCondition =
  | { field: string; condition: TextConditionName; value: [string] }
  | { field: string; condition: 'BEFORE' | 'AFTER'; value: [number] }
  | { field: string; condition: 'BETWEEN' | 'NOTBETWEEN'; value: [number, number] }
  | { field: string; condition: NoValueConditionName; value: [] };

/** Guards the size of the SQL one request can produce. */
export const MAX_CUSTOM_FIELD_CONDITIONS = 50;

const textConditions: readonly string[] = textConditionNames;
const noValueConditions: readonly string[] = [...emptyConditionNames, ...dayConditionNames];

/** How many values a condition carries (a name that is none of them: one). */
export const conditionArity = (name: string): 0 | 1 | 2 =>
  name === 'BETWEEN' || name === 'NOTBETWEEN' ? 2 : noValueConditions.includes(name) ? 0 : 1;

function isConditionName(name: string): name is CustomFieldConditionName {
  return (customFieldConditionNames as readonly string[]).includes(name);
}

function epochMs(raw: unknown): Parsed<number> {
  if (typeof raw === 'number') {
    return Number.isSafeInteger(raw)
      ? { ok: true, value: raw }
      : { ok: false, message: `${raw} is not an epoch-millisecond integer` };
  }
  if (typeof raw === 'string') {
    const n = parseIntegerText(raw);
    return n.ok ? n : { ok: false, message: `${showValue(raw)} is not epoch milliseconds` };
  }
  return {
    ok: false,
    message: 'date values must be epoch milliseconds (number or numeric string)',
  };
}

function parseOne(entry: unknown, at: string): Parsed<CustomFieldCondition> {
  const fail = (message: string): Parsed<CustomFieldCondition> => ({
    ok: false,
    message: `customFields[${at}]: ${message}`,
  });
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return fail('expected an object {field, condition, value}');
  }
  const { field, condition, value } = entry as Record<string, unknown>;
  if (typeof field !== 'string' || field.trim() === '') {
    return fail('"field" must be a non-empty string (the custom field name)');
  }
  const name = typeof condition === 'string' ? condition.trim().toUpperCase() : '';
  if (!isConditionName(name)) {
    return fail(
      `"condition" must be one of ${customFieldConditionNames.join(', ')}, got ${
        typeof condition === 'string' ? showValue(condition) : String(condition)
      }`,
    );
  }
  if (value !== undefined && value !== null && !Array.isArray(value)) {
    return fail('"value" must be an array');
  }
  const values: unknown[] = value ?? [];
  const fieldName = field.trim();
  if (noValueConditions.includes(name)) {
    if (values.length !== 0) return fail(`${name} takes no value, got ${values.length}`);
    return {
      ok: true,
      value: { field: fieldName, condition: name as NoValueConditionName, value: [] },
    };
  }
  const expected = conditionArity(name);
  if (values.length !== expected) {
    return fail(
      `${name} takes exactly ${expected} value${expected === 2 ? 's' : ''}, got ${values.length}`,
    );
  }
  if (textConditions.includes(name)) {
    const [v] = values;
    if (typeof v !== 'string' && typeof v !== 'number')
      return fail(`${name} value must be a string`);
    return {
      ok: true,
      value: { field: fieldName, condition: name as TextConditionName, value: [String(v)] },
    };
  }
  const ms: number[] = [];
  for (const v of values) {
    const n = epochMs(v);
    if (!n.ok) return fail(`${name}: ${n.message}`);
    ms.push(n.value);
  }
  const [a = 0, b = 0] = ms;
  if (name === 'BETWEEN' || name === 'NOTBETWEEN') {
    return { ok: true, value: { field: fieldName, condition: name, value: [a, b] } };
  }
  return {
    ok: true,
    value: { field: fieldName, condition: name as 'BEFORE' | 'AFTER', value: [a] },
  };
}

/** Parses the JSON text of the parameter; blank text or `[]` means "no condition". */
export function parseCustomFieldsJson(text: string): Parsed<CustomFieldCondition[] | undefined> {
  if (text.trim() === '') return { ok: true, value: undefined };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? `: ${error.message}` : '';
    return { ok: false, message: `customFields is not valid JSON${detail}` };
  }
  if (!Array.isArray(json)) {
    return { ok: false, message: 'customFields must be a JSON array of {field, condition, value}' };
  }
  if (json.length > MAX_CUSTOM_FIELD_CONDITIONS) {
    return { ok: false, message: `at most ${MAX_CUSTOM_FIELD_CONDITIONS} customFields conditions` };
  }
  const out: CustomFieldCondition[] = [];
  for (const [i, entry] of json.entries()) {
    const one = parseOne(entry, String(i));
    if (!one.ok) return one;
    out.push(one.value);
  }
  return { ok: true, value: out.length ? out : undefined };
}

/** The query parameter: first value wins, like every scalar parameter. */
export function parseCustomFieldsParam(value: unknown): Parsed<CustomFieldCondition[] | undefined> {
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === null) return { ok: true, value: undefined };
  if (typeof first !== 'string') return { ok: false, message: 'customFields must be JSON text' };
  return parseCustomFieldsJson(first);
}

/** JSON text for a request; the inverse of `parseCustomFieldsJson`. */
export function formatCustomFields(conditions: readonly CustomFieldCondition[]): string {
  return JSON.stringify(
    conditions.map(({ field, condition, value }) => ({ field, condition, value })),
  );
}
