/**
 * Writing queued edits' effects again, in mutation order: after a pull replaced rows (the
 * rebase) and after a rollback restored them. Which rows: those of the entities named, those
 * that reference one, and, transitively, those that depend on a row taken (a checklist item
 * on a subtask of a task created offline).
 */
import type { Sqlite } from '../db/open';
import { allMutations, parseEntityKey, type QueuedMutation } from '../outbox';
import { applyEffect } from './effects';

/** Rows `filter` keeps that `hits` names (entity or reference), with their dependents. */
export const rowsToReapply = (
  db: Sqlite,
  hits: (key: string) => boolean,
  filter: (r: QueuedMutation) => boolean,
): QueuedMutation[] => {
  const taken = new Set<string>();
  const out: QueuedMutation[] = [];
  for (const r of allMutations(db)) {
    if (!filter(r)) continue;
    const hit =
      hits(r.entity) || taken.has(r.entity) || r.dependsOn.some((d) => hits(d) || taken.has(d));
    if (!hit) continue;
    out.push(r);
    taken.add(r.entity);
  }
  return out;
};

/** One row's effect, in a savepoint: a row that no longer fits the replica is skipped. */
export const reapplyRow = (db: Sqlite, r: QueuedMutation, now: number): boolean => {
  try {
    return db.transaction(() =>
      applyEffect(
        db,
        {
          kind: r.kind,
          operationId: r.operationId,
          path: r.path,
          body: r.body,
          entityId: parseEntityKey(r.entity).id,
        },
        now,
      ),
    )();
  } catch {
    // The replica leaves no place for the effect (a parent gone, a rule the row now breaks):
    // the row stays queued and the server's answer to it decides.
    return false;
  }
};

/** Re-applies the rows of (and depending on) `entities`; how many took effect. */
export const reapplyRows = (
  db: Sqlite,
  filter: (r: QueuedMutation) => boolean,
  entities: ReadonlySet<string>,
  now: number,
): number => {
  let n = 0;
  for (const r of rowsToReapply(db, (k) => entities.has(k), filter))
    if (reapplyRow(db, r, now)) n++;
  return n;
};
