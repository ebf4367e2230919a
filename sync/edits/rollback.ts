/**
 * Undoing edits in the replica. `rollBack`, after the server refused edits for good or the
 * user discarded them: each entity's rows go back to its base (the server's copy before the
 * first of those edits; a create's local rows are removed), then the edits still queued for it
 * and for what depends on it are applied again on top. An entity whose edit was in conflict is
 * gone on the server: it goes here too (its base would show it again, and the pull that
 * deleted it is past).
 */

import { countedTasks } from '../db/entity-rows';
import type { Sqlite } from '../db/open';
import { writeTx } from '../db/write-tx';
import {
  type EntityKey,
  type EntityKind,
  kindSpec,
  mutationsOfEntity,
  parseEntityKey,
  type QueuedMutation,
} from '../outbox';
import { isEditBase } from './base';
import { applyDeleteEffect } from './effects';
import type { EntityModules } from './kinds/types';
import { reapplyRows } from './reapply';
import { entitiesOf, restoreRows } from './snapshot';
import { currentId } from './state';
import { refreshCounts } from './write-tasks';

/**
 * An entity gone from the replica: its delete's effect, and whatever its module keeps beside
 * the rows told (nothing of it is queued any more).
 */
const removeGone = (
  modules: EntityModules,
  db: Sqlite,
  kind: EntityKind,
  id: number,
  now: number,
) => {
  applyDeleteEffect(modules, db, kind, id, now);
  modules[kind].rolledBack?.(db, id, [], now);
};

/** Removes what a create put in the replica (an upload: every file it made). */
const removeCreated = (modules: EntityModules, db: Sqlite, row: QueuedMutation, now: number) => {
  const { kind, id } = parseEntityKey(row.entity);
  const ids = modules[kind].made?.(row) ?? [id];
  for (const one of ids) removeGone(modules, db, kind, currentId(db, kind, one), now);
};

const live = (r: QueuedMutation) => r.state === 'pending' || r.state === 'inflight';

/**
 * Restores the replica for edits that left the queue or failed (`discard`'s or
 * `failPermanently`'s rows), in one transaction (the caller's, when there is one).
 */
export const rollBack = (
  modules: EntityModules,
  db: Sqlite,
  mutations: readonly QueuedMutation[],
  now: number = Date.now(),
): void => {
  const run = () => {
    const byEntity = new Map<EntityKey, QueuedMutation[]>();
    for (const m of [...mutations].sort((a, b) => a.mutationId - b.mutationId)) {
      const list = byEntity.get(m.entity) ?? [];
      list.push(m);
      byEntity.set(m.entity, list);
    }
    const touched = new Set<string>();
    const rolledBack = new Set(mutations.map((m) => m.mutationId));
    for (const [entity, rows] of byEntity) {
      const { kind, id } = parseEntityKey(entity);
      const created = rows.find((r) => kindSpec(r.kind).effect === 'create');
      if (created) {
        removeCreated(modules, db, created, now);
        continue;
      }
      if (rows.some((r) => r.state === 'conflict')) {
        removeGone(modules, db, kind, currentId(db, kind, id), now);
        continue;
      }
      const first = rows[0];
      if (first && isEditBase(first.base)) {
        restoreRows(db, first.base.rows);
        refreshCounts(db, countedTasks(first.base.rows));
        // Rows restored with it (a deleted task's checklist, a deleted item's siblings) get
        // their own queued edits back on top.
        for (const key of entitiesOf(first.base.rows)) touched.add(key);
      }
      const rest = mutationsOfEntity(db, entity).filter(
        (r) => live(r) && !rolledBack.has(r.mutationId),
      );
      modules[kind].rolledBack?.(db, currentId(db, kind, id), rest, now);
      touched.add(entity);
    }
    // The edits that remain go on top again: the entity's own and those that depend on it.
    reapplyRows(modules, db, touched, now, rolledBack);
  };
  if (db.inTransaction) run();
  else writeTx(db, run);
};
