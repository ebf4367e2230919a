/**
 * Small building blocks for the filter compilers: SQL text with its positional `?` params kept
 * side by side, so params can never get out of order with the placeholders that use them.
 *
 * Identifiers come from a shape (trusted code, not user input) but are still checked and quoted:
 * a typo must fail loudly at compile time, and a column called "order" must still work.
 */

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

export const DAY_MS = 86_400_000;

export const sqlTrue: SqlFragment = { sql: '1', params: [] };
const sqlFalse: SqlFragment = { sql: '0', params: [] };

export function frag(sql: string, ...params: unknown[]): SqlFragment {
  return { sql, params };
}

/** ANDs the parts; no part means "no restriction". Each part is parenthesised. */
export function and(parts: readonly SqlFragment[]): SqlFragment {
  if (parts.length === 0) return sqlTrue;
  if (parts.length === 1 && parts[0]) return parts[0];
  return {
    sql: parts.map((p) => `(${p.sql})`).join(' AND '),
    params: parts.flatMap((p) => p.params),
  };
}

/** ORs the parts; no part means "matches nothing". */
export function or(parts: readonly SqlFragment[]): SqlFragment {
  if (parts.length === 0) return sqlFalse;
  if (parts.length === 1 && parts[0]) return parts[0];
  return {
    sql: parts.map((p) => `(${p.sql})`).join(' OR '),
    params: parts.flatMap((p) => p.params),
  };
}

/**
 * Negation. Callers only negate expressions that never evaluate to NULL (they guard with
 * IS NOT NULL / COALESCE / EXISTS), because NOT NULL is NULL and would drop the row.
 */
export function not(part: SqlFragment): SqlFragment {
  return { sql: `NOT (${part.sql})`, params: part.params };
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]*$/;

export function quoteIdent(name: string): string {
  if (!IDENTIFIER.test(name))
    throw new Error(`filter shape: invalid SQL identifier ${JSON.stringify(name)}`);
  return `"${name}"`;
}

/** A table name, optionally schema-qualified ("main.tasks"). */
export function tableRef(name: string): string {
  return name.split('.').map(quoteIdent).join('.');
}

/**
 * A column of the row aliased `alias`. A shape may give a parenthesised SQL expression instead
 * of a column name (e.g. `(t.status = 'Done')` for `completed` in a store without such a
 * column); it is used verbatim.
 */
export function columnRef(alias: string, column: string): string {
  if (column.startsWith('(') && column.endsWith(')')) return column;
  return `${quoteIdent(alias)}.${quoteIdent(column)}`;
}

/** Placeholders for a list: `?, ?, ?`. */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/** Case-insensitive membership of a name column (status, priority, tag...). */
export function nameIn(column: string, names: readonly string[]): SqlFragment {
  return frag(`lower(${column}) IN (${names.map(() => 'lower(?)').join(', ')})`, ...names);
}

/** Integer membership (ids). */
export function intIn(column: string, ids: readonly number[]): SqlFragment {
  return frag(`${column} IN (${placeholders(ids.length)})`, ...ids);
}

/** Escapes LIKE wildcards so user text matches literally (paired with `ESCAPE '\'`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export type LikeMode = 'contains' | 'startsWith' | 'endsWith';

/**
 * Case-insensitive LIKE. lower() on both sides, rather than relying on LIKE's own folding,
 * keeps the result the same if a connection turns on PRAGMA case_sensitive_like.
 */
export function likeText(column: string, text: string, mode: LikeMode): SqlFragment {
  const escaped = escapeLike(text);
  const pattern =
    mode === 'contains' ? `%${escaped}%` : mode === 'startsWith' ? `${escaped}%` : `%${escaped}`;
  return frag(`lower(${column}) LIKE lower(?) ESCAPE '\\'`, pattern);
}

/** Start of the UTC calendar day holding `ms` (floor, so it also holds before 1970). */
export function utcDayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** `column` (epoch ms) within [from, to); NULL never matches. */
export function inRange(column: string, from: number, to: number): SqlFragment {
  return frag(`${column} >= ? AND ${column} < ?`, from, to);
}

/** `column` falls on the same UTC calendar day as `ms`. */
export function sameUtcDay(column: string, ms: number): SqlFragment {
  const start = utcDayStart(ms);
  return inRange(column, start, start + DAY_MS);
}

/** Hands out subquery aliases unique within one compiled filter. */
export class AliasPool {
  private next = 0;
  constructor(private readonly taken: string) {}
  take(): string {
    let alias: string;
    do alias = `_f${++this.next}`;
    while (alias.toLowerCase() === this.taken.toLowerCase());
    return alias;
  }
}
