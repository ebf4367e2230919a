/**
 * `depends_on`: the entity keys an outbox row names. A local (negative) key blocks the row
 * until it is mapped; a delete is not sent while an earlier row names the entity it deletes.
 */
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { canonicalKey, referencedIds } from './local-ids';
import {
  type EntityKey,
  isLocalId,
  type Json,
  kindSpec,
  type MutationKind,
  type OperationSpec,
  parseEntityKey,
} from './types';

/**
 * The task a timer edit's timer is on. Its requests name the timer only, but the task's delete
 * takes the timer with it on the server: the delete must wait for the edits queued before it.
 */
const taskOfTimer = (db: Sqlite, trackId: number): EntityKey | null => {
  const row = stmt(db, 'SELECT task_id FROM timers WHERE track_id = ?').get(trackId) as
    | { task_id: number }
    | undefined;
  return row ? canonicalKey(db, 'task', row.task_id) : null;
};

/**
 * The entity keys a request references (and its own, while local): see `depends_on`. A
 * delete is not sent while an earlier row names the entity it deletes.
 */
export const dependsOnOf = (
  db: Sqlite,
  kind: MutationKind,
  spec: OperationSpec,
  path: Readonly<Record<string, number>>,
  body: Json,
  entity: EntityKey,
): EntityKey[] => {
  const keys = new Set<EntityKey>();
  for (const { kind: k, id } of referencedIds(spec, path, body)) keys.add(canonicalKey(db, k, id));
  const self = parseEntityKey(entity);
  if (kindSpec(kind).effect !== 'create' && isLocalId(self.id)) keys.add(entity);
  if (self.kind === 'timer' && spec.self !== undefined) {
    const task = taskOfTimer(db, self.id);
    if (task) keys.add(task);
  }
  return [...keys];
};
