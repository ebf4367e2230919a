/**
 * Any entity in the replica, by kind: whether it is there, its editable state, its server
 * modifiedTime. Each reads its entity module's rows and state (kinds/).
 */
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import type { EntityKind, JsonObject } from '../outbox';
import { entityModule } from './kinds';

/** The editable state of any entity, or null when the replica does not hold it. */
export const entityState = (db: Sqlite, kind: EntityKind, id: number): JsonObject | null =>
  entityModule(kind).state(db, id);

/** The server's modifiedTime of an entity's row (epoch ms), where the replica keeps one. */
export const modifiedTimeOf = (db: Sqlite, kind: EntityKind, id: number): number | null => {
  const { column, tables, modifiedTime } = entityModule(kind).rows;
  if (!modifiedTime) return null;
  const r = stmt(db, `SELECT modified_time AS m FROM ${tables[0]} WHERE ${column} = ?`).get(id) as
    | { m: number | null }
    | undefined;
  return r?.m ?? null;
};

/** Whether the replica holds the entity's row (one primary-key lookup). */
export const entityExists = (db: Sqlite, kind: EntityKind, id: number): boolean => {
  const { column, tables } = entityModule(kind).rows;
  return stmt(db, `SELECT 1 FROM ${tables[0]} WHERE ${column} = ?`).get(id) !== undefined;
};
