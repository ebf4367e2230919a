/**
 * Raw replica rows as JSON (`RowSet`: table → rows): the pieces the entity modules build their
 * snapshots from. An edit's `base` keeps such rows so that a failed or discarded edit can put
 * the server's rows back exactly (see snapshot.ts).
 */
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import type { JsonObject } from '../outbox';

/** Table → rows (column → value). */
export type RowSet = Record<string, JsonObject[]>;

export const IN = '(SELECT value FROM json_each(?))';

/** Adds the rows of `tables` whose `column` is one of `ids`. */
export const addRowsOf = (
  db: Sqlite,
  into: RowSet,
  column: string,
  tables: readonly string[],
  ids: readonly number[],
): void => {
  for (const table of tables) {
    const rows = stmt(db, `SELECT * FROM ${table} WHERE ${column} IN ${IN}`).all(
      JSON.stringify(ids),
    ) as JsonObject[];
    if (rows.length > 0) into[table] = [...(into[table] ?? []), ...rows];
  }
};

/** Ids of one column, as numbers. */
export const idsWhere = (db: Sqlite, sql: string, ...params: unknown[]): number[] =>
  (stmt(db, sql).all(...params) as { id: number }[]).map((r) => r.id);
