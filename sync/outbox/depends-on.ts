/**
 * `depends_on`: the entity keys an outbox row names. A local (negative) key blocks the row
 * until it is mapped; a delete is not sent while an earlier row names the entity it deletes.
 */
import { containersOf, holdersOf as rowHolders } from '../db/entity-rows';
import type { Sqlite } from '../db/open';
import { canonicalKey, referencedIds } from './local-ids';
import {
  type EntityKey,
  type EntityKind,
  entitySpecs,
  isLocalId,
  type Json,
  kindSpec,
  type MutationKind,
  type OperationSpec,
  parseEntityKey,
} from './types';

/**
 * What the entity hangs on, when its requests name it alone (`EntitySpec.holderUnnamed`: a
 * timer's task): the holder's delete takes it along on the server, so must wait for the edits
 * queued before it.
 */
const unnamedHolders = (db: Sqlite, kind: EntityKind, id: number): EntityKey[] => {
  const row = rowHolders(db, kind, id);
  if (!row) return [];
  return (['task', 'project', 'space'] as const).flatMap((k) => {
    const h = row[k];
    return h == null ? [] : [canonicalKey(db, k, h)];
  });
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
  if (entitySpecs[self.kind].holderUnnamed && spec.self !== undefined)
    for (const holder of unnamedHolders(db, self.kind, self.id)) keys.add(holder);
  for (const key of [...keys]) for (const holder of holdersOf(db, key)) keys.add(holder);
  return [...keys];
};
