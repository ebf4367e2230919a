/**
 * Builds a filter's query-string schema and its inverse from one table of field kinds, so the
 * parser (server) and the encoder (HTTP client) cannot drift apart: adding a filter means
 * adding one line to that table.
 */
import { z } from 'zod';
import {
  type CustomFieldCondition,
  formatCustomFields,
  parseCustomFieldsParam,
} from './custom-fields';
import {
  formatDateTime,
  type Parsed,
  parseBoolean,
  parseDateTime,
  parseIntList,
  parseStringList,
  parseText,
  queryParam,
  type RawQuery,
} from './query-values';

export type FieldKind = 'text' | 'strings' | 'ints' | 'dateTime' | 'boolean' | 'customFields';

/** The only kind that fits a value type, so a wrong entry in a kinds table fails to compile. */
type KindOf<V> = V extends string
  ? 'text'
  : V extends boolean
    ? 'boolean'
    : V extends number
      ? 'dateTime'
      : V extends string[]
        ? 'strings'
        : V extends number[]
          ? 'ints'
          : V extends CustomFieldCondition[]
            ? 'customFields'
            : never;

/** Maps each key of a filter type to how it travels in a query string. */
export type FieldKinds<F> = { readonly [K in keyof F]-?: KindOf<NonNullable<F[K]>> };

const parsers: Record<FieldKind, (value: unknown) => Parsed<unknown>> = {
  text: parseText,
  strings: parseStringList,
  ints: parseIntList,
  dateTime: parseDateTime,
  boolean: parseBoolean,
  customFields: parseCustomFieldsParam,
};

/**
 * A zod schema from a raw query record to the filter `F`. Unknown keys (page, size, sort, or a
 * parameter of a newer client) are ignored; absent and blank parameters leave no key behind.
 */
export function makeFilterQuerySchema<F extends object>(kinds: FieldKinds<F>) {
  const shape: Record<string, ReturnType<typeof queryParam<unknown>>> = {};
  for (const [key, kind] of Object.entries(kinds) as [string, FieldKind][]) {
    shape[key] = queryParam(parsers[kind]);
  }
  return z.object(shape).transform((parsed): F => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(parsed)) if (value !== undefined) out[key] = value;
    return out as F;
  }) as unknown as z.ZodType<F, RawQuery>;
}

/** The inverse of the schema: lists as repeated parameters, dates as ISO text, JSON for customFields. */
export function filterToQuery<F extends object>(
  kinds: FieldKinds<F>,
  filter: F,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const values = filter as Record<string, unknown>;
  for (const [key, kind] of Object.entries(kinds) as [string, FieldKind][]) {
    const value = values[key];
    if (value === undefined || value === null) continue;
    switch (kind) {
      case 'text':
        if (String(value).trim()) out[key] = String(value);
        break;
      case 'strings':
      case 'ints':
        if (Array.isArray(value) && value.length) out[key] = value.map(String);
        break;
      case 'dateTime':
        out[key] = formatDateTime(value as number);
        break;
      case 'boolean':
        out[key] = value ? 'true' : 'false';
        break;
      case 'customFields':
        if (Array.isArray(value) && value.length) out[key] = formatCustomFields(value);
        break;
    }
  }
  return out;
}
