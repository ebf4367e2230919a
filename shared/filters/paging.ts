/**
 * Paging and sorting of list operations, Spring Data style (spec part 4, contract "Lists").
 *
 * - `page` is zero-based, default 0, at least 0; `size` defaults to 20, at least 1, and a size
 *   over 100 is clamped to 100 rather than refused (the contract says "clamped").
 * - `sort=property,direction` may repeat; the direction is optional (ascending) and
 *   case-insensitive. Spring's `sort=a,b,desc` form (several properties, one direction) is
 *   accepted too, so a client written against the real service is not refused here.
 * - An unknown sort property is a 400, never silently ignored: a list the user believes sorted
 *   must not come back in another order.
 */
import { z } from 'zod';
import { firstValue, type Parsed, parseIntegerText, queryParam, showValue } from './query-values';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Spring binds `page` to a Java int; the same bound keeps `page * size` a safe integer. */
export const MAX_PAGE = 2_147_483_647;

export type SortDirection = 'asc' | 'desc';
export interface SortKey {
  property: string;
  direction: SortDirection;
}

function parsePagingInt(
  value: unknown,
  opts: { fallback: number; min: number; max: number; clamp: boolean },
): Parsed<number> {
  const first = firstValue(value);
  if (!first.ok) return first;
  if (first.value === undefined) return { ok: true, value: opts.fallback };
  const text = first.value.trim();
  // A size of 10^30 is still "over 100": clamp it instead of calling it out of range.
  if (opts.clamp && /^\+?\d+$/.test(text) && Number(text) > opts.max) {
    return { ok: true, value: opts.max };
  }
  const n = parseIntegerText(text);
  if (!n.ok) {
    // "" and "1.5" land here too; say what is expected, not only what was wrong.
    return { ok: false, message: `${n.message}: expected a whole number >= ${opts.min}` };
  }
  if (n.value < opts.min) {
    return { ok: false, message: `must be at least ${opts.min}, got ${n.value}` };
  }
  // Over the maximum with clamping was handled above, from the text.
  if (n.value > opts.max)
    return { ok: false, message: `must be at most ${opts.max}, got ${n.value}` };
  return n;
}

export const pageParamSchema = queryParam((v) =>
  parsePagingInt(v, { fallback: 0, min: 0, max: MAX_PAGE, clamp: false }),
);

export const sizeParamSchema = queryParam((v) =>
  parsePagingInt(v, {
    fallback: DEFAULT_PAGE_SIZE,
    min: 1,
    max: MAX_PAGE_SIZE,
    clamp: true,
  }),
);

/** Raw sort strings (single value or repeated param), blanks dropped; not yet validated. */
function parseSortStrings(value: unknown): Parsed<string[]> {
  if (value === undefined || value === null) return { ok: true, value: [] };
  const items = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') return { ok: false, message: 'expected a string' };
    if (item.trim()) out.push(item.trim());
  }
  return { ok: true, value: out };
}

/** Paging with sort left as raw strings; use `makePagingQuerySchema` to validate the sort too. */
export const pagingQuerySchema = z.object({
  page: pageParamSchema,
  size: sizeParamSchema,
  sort: queryParam(parseSortStrings),
});

function isDirection(token: string): boolean {
  const t = token.toLowerCase();
  return t === 'asc' || t === 'desc';
}

/** Parses sort strings against the allowed properties; every problem found is reported. */
export function parseSort(
  value: unknown,
  allowed: readonly string[],
): { keys: SortKey[]; errors: string[] } {
  const keys: SortKey[] = [];
  const errors: string[] = [];
  const raw = parseSortStrings(value);
  if (!raw.ok) return { keys, errors: [raw.message] };
  const allowedText = allowed.join(', ');
  for (const item of raw.value) {
    const tokens = item
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '');
    let direction: SortDirection = 'asc';
    let properties = tokens;
    const last = tokens[tokens.length - 1];
    if (tokens.length >= 2 && last !== undefined) {
      if (isDirection(last)) {
        direction = last.toLowerCase() as SortDirection;
        properties = tokens.slice(0, -1);
      } else if (!allowed.includes(last)) {
        errors.push(
          `invalid sort direction ${showValue(last)} in ${showValue(item)}: expected asc or desc`,
        );
        continue;
      }
    }
    for (const property of properties) {
      if (!allowed.includes(property)) {
        errors.push(`unknown sort property ${showValue(property)}; allowed: ${allowedText}`);
      } else if (!keys.some((k) => k.property === property)) {
        // A repeated property cannot change the order any more; the first mention decides.
        keys.push({ property, direction });
      }
    }
  }
  return { keys, errors };
}

/** Schema for the `sort` parameter alone; put it under the key `sort` so issues sit at ["sort"]. */
export function makeSortSchema(allowed: readonly string[]) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): SortKey[] => {
      const { keys, errors } = parseSort(value, allowed);
      for (const message of errors) ctx.addIssue({ code: 'custom', message, input: value });
      return errors.length ? z.NEVER : keys;
    });
}

/** page + size + validated sort, for one list operation. */
export function makePagingQuerySchema(allowedSort: readonly string[]) {
  return z.object({
    page: pageParamSchema,
    size: sizeParamSchema,
    sort: makeSortSchema(allowedSort),
  });
}
export interface PagingRequest {
  page: number;
  size: number;
  sort: SortKey[];
}

/** The serialized Spring `Page` (contract "Lists"). */
export type Page<T> = {
  content: T[];
  totalElements: number;
  totalPages: number;
  size: number;
  number: number;
  first: boolean;
  last: boolean;
  numberOfElements: number;
  empty: boolean;
};

/** Builds the page object exactly as Spring's PageImpl reports it, also for pages past the end. */
export function pageOf<T>(items: readonly T[], total: number, page: number, size: number): Page<T> {
  const totalPages = size > 0 ? Math.ceil(total / size) : 1;
  return {
    content: [...items],
    totalElements: total,
    totalPages,
    size,
    number: page,
    first: page === 0,
    last: page + 1 >= totalPages,
    numberOfElements: items.length,
    empty: items.length === 0,
  };
}

/** LIMIT / OFFSET for a page (bind them as `LIMIT ? OFFSET ?`). */
export function pageWindow(page: number, size: number): { limit: number; offset: number } {
  return { limit: size, offset: page * size };
}
