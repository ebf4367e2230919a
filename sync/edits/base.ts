/** What an edit keeps of the server's copy before it, for the rebase and a rollback. */
import type { RowSet } from '../db/entity-rows';
import type { Json, JsonObject } from '../outbox';

/**
 * An edit's `base`: the server's copy of the entity before its first pending edit. `state` is
 * its editable state in request-body shape (what the rebase compares field by field),
 * `modifiedTime` the server's, `rows` the raw replica rows (what a rollback writes back; for
 * a delete, with everything the delete removed).
 */
export interface EditBase {
  state: JsonObject | null;
  modifiedTime: number | null;
  rows: RowSet;
}

export const isEditBase = (v: Json): v is EditBase & JsonObject =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && 'rows' in v && 'state' in v;
