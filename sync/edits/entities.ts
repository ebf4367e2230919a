/**
 * Any entity in the replica, by kind: whether it is there, its editable state, its server
 * modifiedTime. Each reads its entity module's rows and state (kinds/).
 */
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import type { EntityKind, JsonObject } from '../outbox';
import { entityModule } from './kinds';
import { currentId } from './state';

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

/** What a row of each kind hangs on: a file's or item's or entry's task, a subtask's parent… */
const holdersOf: Partial<Record<EntityKind, string>> = {
  task: 'SELECT parent_task_id AS task, project_id AS project FROM tasks WHERE task_id = ?',
  checklist: 'SELECT task_id AS task FROM checklist_items WHERE checklist_id = ?',
  attachment:
    'SELECT task_id AS task, project_id AS project FROM attachments WHERE attachment_id = ?',
  timer: 'SELECT task_id AS task FROM timers WHERE track_id = ?',
  project: 'SELECT space_id AS space FROM projects WHERE project_id = ?',
};

/**
 * Whether the replica holds the entity and what it hangs on, up to its space. A row whose
 * holder is gone went with it on the server: an answer that came after the user deleted the
 * holder (or a pull before that delete was sent) wrote it here, and a later pull takes it away.
 */
export const entityHeld = (db: Sqlite, kind: EntityKind, id: number): boolean => {
  const sql = holdersOf[kind];
  if (!sql) return entityExists(db, kind, id);
  const row = stmt(db, sql).get(id) as
    | { task?: number | null; project?: number | null; space?: number | null }
    | undefined;
  if (!row) return false;
  // A row made here may still name its holder by the local id the holder had.
  const held = (k: EntityKind, h: number | null | undefined) =>
    h == null || entityHeld(db, k, currentId(db, k, h));
  return held('task', row.task) && held('project', row.project) && held('space', row.space);
};
