/**
 * Parsers for single query-string values (`?a=1&a=2` arrives as `string | string[]`).
 *
 * Each parser returns a `Parsed<T>` instead of throwing so that the same code serves the zod
 * schemas (which turn a failure into an issue at the parameter's path) and any caller that
 * reads URL state without zod. `queryParam` adapts a parser into a zod schema.
 *
 * Conventions shared by every parameter (they follow Spring's binding, which the service uses):
 * - a scalar parameter given more than once uses its first value;
 * - list parameters accept repeated values and comma-separated values alike, so a value that
 *   itself contains a comma cannot be expressed (Spring has the same limit);
 * - surrounding whitespace is trimmed; an empty list element is dropped.
 */
import { z } from 'zod';

export type QueryValue = string | string[] | undefined;
/** The parsed query string as an HTTP framework hands it over. */
export type RawQuery = Record<string, QueryValue>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Caps list filters: nobody picks a thousand statuses by hand, and the cap keeps a compiled
 * filter far below SQLite's limit on bound parameters (32,766).
 */
export const MAX_LIST_VALUES = 1000;

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(message: string): Parsed<T> => ({ ok: false, message });

/** Quotes a user value for an error message, shortened so a huge value cannot bloat the reply. */
export function showValue(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
}

/** Flattens a raw value into strings; numbers and booleans are accepted for programmatic callers. */
function toStrings(value: unknown): Parsed<string[]> {
  if (value === undefined || value === null) return ok([]);
  const items = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const item of items) {
    if (typeof item === 'string') out.push(item);
    else if (typeof item === 'number' || typeof item === 'boolean') out.push(String(item));
    else return fail('expected a string');
  }
  return ok(out);
}

/** The first value of a scalar parameter, untrimmed; undefined when the parameter is absent. */
export function firstValue(value: unknown): Parsed<string | undefined> {
  const all = toStrings(value);
  return all.ok ? ok(all.value[0]) : all;
}

/** Free text (the `title` filter): trimmed; blank means "no filter". */
export function parseText(value: unknown): Parsed<string | undefined> {
  const first = firstValue(value);
  if (!first.ok) return first;
  const text = first.value?.trim();
  return ok(text ? text : undefined);
}

/** A string list: repeated and comma-separated values, trimmed, empties and duplicates dropped. */
export function parseStringList(value: unknown): Parsed<string[] | undefined> {
  const all = toStrings(value);
  if (!all.ok) return all;
  const out: string[] = [];
  for (const raw of all.value) {
    for (const part of raw.split(',')) {
      const item = part.trim();
      if (item && !out.includes(item)) out.push(item);
    }
  }
  if (out.length > MAX_LIST_VALUES) return fail(`at most ${MAX_LIST_VALUES} values are allowed`);
  return ok(out.length ? out : undefined);
}

const INTEGER = /^[+-]?\d+$/;

/** Parses one integer; ids beyond 2^53 cannot be represented in JS and are refused, not rounded. */
export function parseIntegerText(text: string): Parsed<number> {
  const trimmed = text.trim();
  if (!INTEGER.test(trimmed)) return fail(`${showValue(text)} is not an integer`);
  const n = Number(trimmed);
  if (!Number.isSafeInteger(n)) return fail(`${showValue(text)} is out of range`);
  return ok(n === 0 ? 0 : n); // normalises -0
}

/** An int64 list (`creators`, `owners`, `members`). */
export function parseIntList(value: unknown): Parsed<number[] | undefined> {
  const list = parseStringList(value);
  if (!list.ok || list.value === undefined) return list as Parsed<undefined>;
  const out: number[] = [];
  for (const item of list.value) {
    const n = parseIntegerText(item);
    if (!n.ok) return n;
    if (!out.includes(n.value)) out.push(n.value);
  }
  return ok(out);
}

/** Only "true" / "false" (any case): "1", "yes" or "" are refused rather than guessed. */
export function parseBoolean(value: unknown): Parsed<boolean | undefined> {
  const first = firstValue(value);
  if (!first.ok || first.value === undefined) return first as Parsed<undefined>;
  const text = first.value.trim().toLowerCase();
  if (text === 'true') return ok(true);
  if (text === 'false') return ok(false);
  return fail(`expected true or false, got ${showValue(first.value)}`);
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * ISO 8601 date-time or calendar date to epoch ms. A date-time without an offset and a bare date
 * are read as UTC: the filters compare UTC calendar days, so any other zone would shift the day.
 * Parsed by hand because `Date.parse` silently rolls "2024-02-30" over to March 1st and reads
 * offset-less date-times in the machine's local zone.
 */
export function parseDateTimeText(text: string): Parsed<number> {
  const m = DATE_TIME.exec(text.trim());
  const bad = fail<number>(
    `${showValue(text)} is not an ISO 8601 date-time (e.g. 2025-06-15T12:00:00Z) or date (2025-06-15)`,
  );
  if (!m) return bad;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone = 'Z'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return bad;
  if (hour > 23 || minute > 59 || second > 59) return bad;
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return bad;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0..99 to 1900..1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number(frac.padEnd(3, '0').slice(0, 3)));
  return ok(date.getTime() - offsetMinutes * 60_000);
}

/** A date-time filter value (first value wins); empty text is refused like any other bad date. */
export function parseDateTime(value: unknown): Parsed<number | undefined> {
  const first = firstValue(value);
  if (!first.ok || first.value === undefined) return first as Parsed<undefined>;
  return parseDateTimeText(first.value);
}

/** Epoch ms back to the ISO text the parser accepts (used when building a request). */
export function formatDateTime(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Adapts a parser into a zod schema for one key of a query object. `.optional()` because an
 * absent key must reach the parser (which supplies the default) instead of failing as missing.
 */
export function queryParam<T>(parse: (value: unknown) => Parsed<T>) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): T => {
      const result = parse(value);
      if (result.ok) return result.value;
      ctx.addIssue({ code: 'custom', message: result.message, input: value });
      return z.NEVER;
    });
}
