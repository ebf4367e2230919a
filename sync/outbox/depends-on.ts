/**
 * `depends_on`: the entity keys an outbox row names. A local (negative) key blocks the row
 * until it is mapped; a delete is not sent while an earlier row names the entity it deletes.
 */
import { containersOf } from '../db/entity-rows';
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
 * What holds a task (its project and space) or a project (its space): their deletes take it
 * with them on the server, so they must wait for the edits queued on it before them too. A
 * file or checklist item made on a project's task names the task only: without this, the
 * project's delete could get there first and the create would fail on a task gone.
 */
const holdersOf = (db: Sqlite, key: EntityKey): EntityKey[] => {
  const { kind, id } = parseEntityKey(key);
  const row = containersOf(db, kind, id);
  if (!row) return [];
  return [
    ...(row.project === null ? [] : [canonicalKey(db, 'project', row.project)]),
    ...(row.space === null ? [] : [canonicalKey(db, 'space', row.space)]),
  ];
};

/**
 * The entity keys a request references (and its own, while local), and what holds them: see
 * `depends_on`. A delete is not sent while an earlier row names the entity it deletes.
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
  for (const key of [...keys]) for (const holder of holdersOf(db, key)) keys.add(holder);
  return [...keys];
};
