/**
 * Raw replica rows of one entity, as JSON: what an edit's `base` keeps so that a failed or
 * discarded edit can put the server's rows back exactly (columns the DTOs do not model, the
 * search index through the triggers on `tasks`, children a delete took with it).
 */
import { addRowsOf, entityRows, IN, type RowSet } from '../db/entity-rows';
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { type EntityKey, type EntityKind, entityKey, type Json } from '../outbox';

export type { RowSet } from '../db/entity-rows';

const allEntityRows = Object.entries(entityRows) as [EntityKind, (typeof entityRows)[EntityKind]][];

/**
 * The rows of an entity. `deep` adds what removing it removes too (a task's subtasks,
 * checklist, files and timers; a project's tasks; a space's projects): a delete's base.
 */
export const snapshotRows = (db: Sqlite, kind: EntityKind, id: number, deep: boolean): RowSet => {
  const out: RowSet = {};
  const rows = entityRows[kind];
  if (deep && rows.deep) rows.deep(db, id, out);
  else addRowsOf(db, out, rows.column, rows.tables, [id]);
  // Rows made offline are not the server's: their own create rows bring them back.
  return deep && id > 0 ? withoutLocalRows(out) : out;
};

const withoutLocalRows = (rows: RowSet): RowSet => {
  const idColumns = allEntityRows.map(([, r]) => r.column);
  const out: RowSet = {};
  for (const [table, list] of Object.entries(rows)) {
    const kept = list.filter((r) =>
      idColumns.every((c) => typeof r[c] !== 'number' || (r[c] as number) > 0),
    );
    if (kept.length) out[table] = kept;
  }
  return out;
};

/** The entities whose rows a snapshot holds (for re-applying their queued edits). */
export const entitiesOf = (rows: RowSet): EntityKey[] =>
  allEntityRows.flatMap(([kind, { column, tables }]) =>
    (rows[tables[0] as string] ?? []).flatMap((r) =>
      typeof r[column] === 'number' ? [entityKey(kind, r[column] as number)] : [],
    ),
  );

/** `rows` with the rows of one entity (its own and wholly its) taken from `from` instead. */
export const withEntityRows = (
  rows: RowSet,
  kind: EntityKind,
  id: number,
  from: RowSet,
): RowSet => {
  const { column, tables } = entityRows[kind];
  const out: RowSet = { ...rows };
  for (const table of tables) {
    const kept = (rows[table] ?? []).filter((r) => r[column] !== id);
    const taken = (from[table] ?? []).filter((r) => r[column] === id);
    if (kept.length + taken.length > 0) out[table] = [...kept, ...taken];
    else delete out[table];
  }
  return out;
};

/**
 * The owners a snapshot holds the rows of, per table: those of its rows, and for the tables of
 * rows wholly an entity's, every entity of it in the snapshot (a task without tags had none:
 * its tags go, or are taken, even when the snapshot lists none).
 */
const ownersIn = (rows: RowSet): Map<string, Set<unknown>> => {
  const { keys, children } = tables();
  const owners = new Map<string, Set<unknown>>();
  const own = (table: string, ids: unknown[]) => {
    const set = owners.get(table) ?? new Set();
    for (const v of ids) set.add(v);
    owners.set(table, set);
  };
  for (const [table, list] of Object.entries(rows)) {
    const col = keys.get(table);
    if (col)
      own(
        table,
        list.map((r) => r[col]),
      );
  }
  for (const {
    column,
    tables: [parent, ...wholly],
  } of children)
    for (const child of wholly)
      own(
        child,
        (rows[parent as string] ?? []).map((r) => r[column]),
      );
  return owners;
};

/**
 * `older` brought up to date with `newer`: the rows of every owner `newer` holds (an entity's
 * own rows, and the rows wholly its, even none: a task without tags has none) come from it;
 * the other owners' rows stay as `older` had them. A deep snapshot taken again after a pull
 * re-sent an entity whose delete waits: what the delete removed here is only in the older.
 */
export const mergeRowSets = (older: RowSet, newer: RowSet): RowSet => {
  const { keys } = tables();
  const owners = ownersIn(newer);
  const out: RowSet = {};
  for (const table of new Set([...Object.keys(older), ...Object.keys(newer)])) {
    const col = keys.get(table);
    const taken = owners.get(table) ?? new Set();
    const kept = (older[table] ?? []).filter((r) => col === undefined || !taken.has(r[col]));
    const rows = [...kept, ...(newer[table] ?? [])];
    if (rows.length > 0) out[table] = rows;
  }
  return out;
};

/**
 * Tables a snapshot may name, each with the column naming its owner; and per entity, its own
 * table and the tables of rows wholly its (a task's tags, a project's members).
 */
const tables = () => ({
  keys: new Map(allEntityRows.flatMap(([, r]) => r.tables.map((t) => [t, r.column] as const))),
  children: allEntityRows.map(([, r]) => r),
});

const isRowSet = (v: Json, keys: ReadonlyMap<string, string>): v is RowSet =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  Object.entries(v).every(([t, rows]) => keys.has(t) && Array.isArray(rows));

/**
 * Writes the snapshot back. The rows of the same owners are removed first (a task's tags as
 * the server had them, not merged with local ones), then the snapshot's rows inserted; the
 * triggers on `tasks` keep the search index in step.
 */
export const restoreRows = (db: Sqlite, rows: Json): void => {
  const { keys } = tables();
  if (!isRowSet(rows, keys)) throw new TypeError('not a row snapshot');
  const owners = ownersIn(rows);
  for (const [table, ids] of owners) {
    const col = keys.get(table);
    if (col) stmt(db, `DELETE FROM ${table} WHERE ${col} IN ${IN}`).run(JSON.stringify([...ids]));
  }
  for (const [table, list] of Object.entries(rows)) {
    for (const row of list) {
      const cols = Object.keys(row);
      if (!cols.every((c) => /^[a-z_]+$/.test(c))) throw new TypeError(`bad column in ${table}`);
      stmt(
        db,
        `INSERT OR REPLACE INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
      ).run(...cols.map((c) => row[c] ?? null));
    }
  }
};
