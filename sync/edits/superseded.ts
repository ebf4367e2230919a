/**
 * Whether the user deleted a queued row's entity after it: a delete of the entity itself, or
 * of what it lives in (an item's or a file's task, a subtask's parent), queued behind it. Such
 * an entity being gone, here or on the server, is what the user wants: the row is moot, never
 * a conflict.
 */
import type { Sqlite } from '../db/open';
import { kindSpec, type QueuedMutation } from '../outbox';
import { select } from '../outbox/rows';
import { isEditBase } from './base';
import { entitiesOf } from './snapshot';

export const deletedAfter = (db: Sqlite, row: QueuedMutation): boolean =>
  select(db, "state IN ('pending', 'inflight') AND mutation_id > ?", row.mutationId).some(
    (m) =>
      kindSpec(m.kind).effect === 'delete' &&
      (m.entity === row.entity ||
        (isEditBase(m.base) && entitiesOf(m.base.rows).includes(row.entity))),
  );
