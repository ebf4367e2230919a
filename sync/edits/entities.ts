/**
 * Any entity in the replica, by kind: whether it is there (and what it hangs on), its editable
 * state, its server modifiedTime. The rows are the schema's (sync/db/entity-rows.ts), the
 * state state.ts's: nothing here asks an edit kind's module.
 */
import { entityExists, entityRows, holdersOf } from '../db/entity-rows';
import type { Sqlite } from '../db/open';
import type { EntityKind } from '../outbox';
import { currentId } from './state';

export { entityExists, modifiedTimeOf } from '../db/entity-rows';
export { entityState } from './state';

/**
 * Whether the replica holds the entity and what it hangs on, up to its space. A row whose
 * holder is gone went with it on the server: an answer that came after the user deleted the
 * holder (or a pull before that delete was sent) wrote it here, and a later pull takes it away.
 */
export const entityHeld = (db: Sqlite, kind: EntityKind, id: number): boolean => {
  if (!entityRows[kind].holders) return entityExists(db, kind, id);
  const row = holdersOf(db, kind, id);
  if (!row) return false;
  // A row made here may still name its holder by the local id the holder had.
  const held = (k: EntityKind, h: number | null | undefined) =>
    h == null || entityHeld(db, k, currentId(db, k, h));
  return held('task', row.task) && held('project', row.project) && held('space', row.space);
};
