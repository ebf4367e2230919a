/**
 * Undoing edits in the replica. `rollBack`, after the server refused edits for good or the
 * user discarded them: each entity's rows go back to its base (the server's copy before the
 * first of those edits; a create's local rows are removed), then the edits still queued for it
 * and for what depends on it are applied again on top. An entity whose edit was in conflict is
 * gone on the server: it goes here too (its base would show it again, and the pull that
 * deleted it is past).
 */
import type { Sqlite } from '../db/open';
import { writeTx } from '../db/write-tx';
import {
  type EntityKey,
  kindSpec,
  mutationsOfEntity,
  parseEntityKey,
  type QueuedMutation,
} from '../outbox';
import { isEditBase } from './commit';
import { applyDeleteEffect } from './effects';
import type { UploadBody } from './kinds/attachment';
import { foldTimerRow } from './kinds/timer';
import { reapplyRows } from './reapply';
import { entitiesOf, restoreRows } from './snapshot';
import { currentId } from './state';
import * as timers from './timers';
import { refreshCounts } from './write-tasks';

/** Removes what a create put in the replica (an upload: every file it made). */
const removeCreated = (db: Sqlite, row: QueuedMutation, now: number) => {
  const { kind, id } = parseEntityKey(row.entity);
  const body = row.body as unknown as Partial<UploadBody> | null;
  const ids = row.kind === 'attachment.upload' ? (body?.localIds ?? [id]) : [id];
  for (const one of ids) {
    const entityId = currentId(db, kind, one);
    applyDeleteEffect(db, kind, entityId, now);
    if (kind === 'timer') timers.forgetTimerTruth(db, entityId);
  }
};

/**
 * Tasks whose counts the restored rows may change: those they hang on, and the restored tasks
 * themselves (their copied counts may include rows made offline since).
 */
const countedTasks = (rows: Record<string, Record<string, unknown>[]>): unknown[] => [
  ...(rows.checklist_items ?? []).map((r) => r.task_id),
  ...(rows.attachments ?? []).map((r) => r.task_id),
  ...(rows.tasks ?? []).flatMap((r) => [r.parent_task_id, r.task_id]),
];

const live = (r: QueuedMutation) => r.state === 'pending' || r.state === 'inflight';

/**
 * A timer's record after a rollback: its restored row with the edits still queued folded in
 * (their times are in their bodies), or none when nothing is queued any more.
 */
const recomputeTruth = (db: Sqlite, trackId: number, rest: QueuedMutation[], now: number) => {
  timers.forgetTimerTruth(db, trackId);
  if (rest.length === 0) return;
  let t = timers.truthOfRow(db, trackId, now);
  if (!t) return;
  for (const r of rest) {
    try {
      t = foldTimerRow(t, r);
    } catch {
      // A move the restored state does not allow: its request will be refused in turn.
    }
  }
  timers.writeTruth(db, trackId, t);
};

/**
 * Restores the replica for edits that left the queue or failed (`discard`'s or
 * `failPermanently`'s rows), in one transaction (the caller's, when there is one).
 */
export const rollBack = (
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
        removeCreated(db, created, now);
        continue;
      }
      if (rows.some((r) => r.state === 'conflict')) {
        const gone = currentId(db, kind, id);
        applyDeleteEffect(db, kind, gone, now);
        if (kind === 'timer') timers.forgetTimerTruth(db, gone);
        continue;
      }
      const first = rows[0];
      if (first && isEditBase(first.base)) {
        restoreRows(db, first.base.rows);
        refreshCounts(
          db,
          countedTasks(first.base.rows).filter((v): v is number => typeof v === 'number'),
        );
        // Rows restored with it (a deleted task's checklist, a deleted item's siblings) get
        // their own queued edits back on top.
        for (const key of entitiesOf(first.base.rows)) touched.add(key);
      }
      const rest = mutationsOfEntity(db, entity).filter(
        (r) => live(r) && !rolledBack.has(r.mutationId),
      );
      if (kind === 'timer') recomputeTruth(db, currentId(db, 'timer', id), rest, now);
      touched.add(entity);
    }
    // The edits that remain go on top again: the entity's own and those that depend on it.
    reapplyRows(db, touched, now, rolledBack);
  };
  if (db.inTransaction) run();
  else writeTx(db, run);
};
