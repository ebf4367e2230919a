/**
 * Resolving a conflict as "recreate": the user edited something the server has deleted since,
 * and wants it back with their changes. The entity's queued rows give way to one create with
 * the latest full state under a new local id; rows of other entities that referenced the
 * deleted one (a checklist item created on it offline) now reference the new one and wait
 * for its server id; such a create the server already refused (its task was gone) goes again.
 */
import type { EditResult } from '../../shared/edits/commands';
import { settleChangesOf } from '../changes/store';
import { entityExists } from '../db/entity-rows';
import type { Sqlite } from '../db/open';
import { writeTx } from '../db/write-tx';
import {
  allMutations,
  allocateLocalId,
  discard,
  type EntityKey,
  entityKey,
  getMutation,
  kindSpec,
  type MutationKind,
  mutationsOfEntity,
  operationSpec,
  parseEntityKey,
  type QueuedMutation,
  retryFailed,
} from '../outbox';
import { commitEdit } from './commit';
import { applyDeleteEffect } from './effects';
import type { CreatePlan, EntityModules } from './kinds/types';
import { reapplyRows } from './reapply';
import { EditError } from './state';

/** The create that brings back what `row` (the entity's latest full state) describes. */
const createFor = (
  modules: EntityModules,
  row: QueuedMutation,
  conflict: QueuedMutation,
): CreatePlan => {
  const { entity } = kindSpec(row.kind);
  const recreate = modules[entity].recreate;
  if (!recreate || kindSpec(row.kind).effect !== 'update')
    throw new EditError(
      `a ${entity} deleted on the server cannot be recreated from an edit (${row.kind}): discard the edit`,
    );
  return recreate(row, conflict);
};

/**
 * Rows of other entities that name `from` now name `to` (path parameters, depends_on).
 * Answers the creates among them the server refused because `from` was gone (a checklist
 * item added offline to the task): they go again, on `to`.
 */
const retarget = (db: Sqlite, from: EntityKey, to: EntityKey): QueuedMutation[] => {
  const { kind, id: fromId } = parseEntityKey(from);
  const { id: toId } = parseEntityKey(to);
  const orphans: QueuedMutation[] = [];
  for (const r of allMutations(db)) {
    if (!r.dependsOn.includes(from) || r.entity === from) continue;
    const refs = operationSpec(r.kind, r.operationId).refs ?? {};
    const path = { ...r.path };
    for (const [param, k] of Object.entries(refs))
      if (k === kind && path[param] === fromId) path[param] = toId;
    const dependsOn = r.dependsOn.map((d) => (d === from ? to : d));
    db.prepare('UPDATE outbox SET path = ?, depends_on = ? WHERE mutation_id = ?').run(
      JSON.stringify(path),
      JSON.stringify(dependsOn),
      r.mutationId,
    );
    if (
      r.state === 'failed' &&
      kindSpec(r.kind).effect === 'create' &&
      r.lastError?.kind === 'not-found'
    )
      orphans.push(r);
  }
  return orphans;
};

/**
 * Turns the conflicting edit `mutationId` (an update of an entity deleted on the server) into
 * a create of the entity with its latest state. Returns the new entity.
 */
export const recreate = (
  modules: EntityModules,
  db: Sqlite,
  mutationId: number,
  now: number,
): EditResult => {
  const run = (): EditResult => {
    const conflict = getMutation(db, mutationId);
    if (!conflict) throw new EditError(`no queued edit ${mutationId}`);
    if (conflict.state !== 'conflict')
      throw new EditError(`edit ${mutationId} is ${conflict.state}, not in conflict`);
    const rows = mutationsOfEntity(db, conflict.entity).filter((r) => r.state !== 'inflight');
    if (rows.some((r) => kindSpec(r.kind).effect === 'delete'))
      throw new EditError('the entity was deleted here too: discard the edit');
    const latest = [...rows].reverse().find((r) => kindSpec(r.kind).effect === 'update');
    const plan = createFor(modules, latest ?? conflict, conflict);
    for (const r of rows) discard(db, r.mutationId);
    const { kind: entity, id: oldId } = parseEntityKey(conflict.entity);
    // The server deleted it: whatever the replica still shows of it goes (a pull would).
    applyDeleteEffect(modules, db, entity, oldId, now);
    const id = allocateLocalId(db);
    const applied = commitEdit(
      modules,
      db,
      {
        kind: plan.kind,
        operationId: plan.operationId,
        path: plan.path,
        body: plan.body,
        entityId: id,
        localId: id,
      },
      now,
    );
    if (!entityExists(db, entity, id))
      throw new EditError(`the ${entity} cannot be recreated where it was: its parent is gone too`);
    if (plan.followUp) {
      const self = operationSpec(
        `${entity}.update` as MutationKind,
        plan.followUp.operationId,
      ).self;
      commitEdit(
        modules,
        db,
        {
          kind: `${entity}.update` as MutationKind,
          operationId: plan.followUp.operationId,
          path: { ...plan.path, ...(self ? { [self]: id } : {}) },
          body: plan.followUp.body,
          entityId: id,
        },
        now,
      );
    }
    const to = entityKey(entity, id);
    const orphans = retarget(db, conflict.entity, to);
    for (const r of orphans) {
      retryFailed(db, r.mutationId, now);
      settleChangesOf(db, r.mutationId);
    }
    reapplyRows(modules, db, new Set([to, ...orphans.map((r) => r.entity)]), now);
    return { entityKind: entity, id, ids: [id], mutationId: applied.mutationId };
  };
  return db.inTransaction ? run() : writeTx(db, run);
};
