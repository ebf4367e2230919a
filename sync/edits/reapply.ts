/**
 * Writing queued edits' effects again, in mutation order: after a pull replaced rows (the
 * rebase) and after a rollback restored them. Which rows: those of the entities named, those
 * that reference one, and, transitively, those that depend on a row taken (a checklist item
 * on a subtask of a task created offline).
 */
import type { Sqlite } from '../db/open';
import { writeTx } from '../db/write-tx';
import { parseEntityKey, type QueuedMutation } from '../outbox';
import { select } from '../outbox/rows';
import { applyEffect } from './effects';
import type { EntityModules } from './kinds/types';

/**
 * Live rows (pending, in flight) that `keys` names: their entity or one they reference, by
 * key or by kind (`task:*`: the keys from `task:` up to `task;`, the character after the
 * colon). The hook runs after every server write: the rows are found through `outbox_refs`
 * (migration 0009), not by reading every live row's keys, which made a replay of n rows
 * O(n^2).
 */
const liveRowsNaming = (db: Sqlite, keys: readonly string[]): QueuedMutation[] => {
  const exact = keys.filter((k) => !k.endsWith(':*'));
  const kinds = keys.filter((k) => k.endsWith(':*')).map((k) => k.slice(0, -1));
  const naming = [
    'SELECT mutation_id FROM outbox_refs WHERE key IN (SELECT value FROM json_each(?))',
    ...kinds.map(() => 'SELECT mutation_id FROM outbox_refs WHERE key >= ? AND key < ?'),
  ].join(' UNION ');
  return select(
    db,
    `state IN ('pending', 'inflight') AND mutation_id IN (${naming})`,
    JSON.stringify(exact),
    ...kinds.flatMap((k) => [k, `${k.slice(0, -1)};`]),
  );
};

/**
 * The live rows that `keys` names (see above) and, transitively, the rows that depend on an
 * entity of a row taken, in mutation order.
 */
export const rowsToReapply = (db: Sqlite, keys: ReadonlySet<string>): QueuedMutation[] => {
  const taken = new Map<number, QueuedMutation>();
  const seen = new Set<string>();
  let next = [...keys];
  while (next.length > 0) {
    for (const k of next) seen.add(k);
    const found = liveRowsNaming(db, next).filter((r) => !taken.has(r.mutationId));
    for (const r of found) taken.set(r.mutationId, r);
    next = [...new Set(found.map((r) => r.entity))].filter((k) => !seen.has(k));
  }
  return [...taken.values()].sort((a, b) => a.mutationId - b.mutationId);
};

/** One row's effect, in a savepoint: a row that no longer fits the replica is skipped. */
export const reapplyRow = (
  modules: EntityModules,
  db: Sqlite,
  r: QueuedMutation,
  now: number,
): boolean => {
  try {
    return writeTx(db, () =>
      applyEffect(
        modules,
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
    );
  } catch {
    // The replica leaves no place for the effect (a parent gone, a rule the row now breaks):
    // the row stays queued and the server's answer to it decides.
    return false;
  }
};

/** Re-applies the live rows of (and depending on) `entities`, except `skip`; how many took. */
export const reapplyRows = (
  modules: EntityModules,
  db: Sqlite,
  entities: ReadonlySet<string>,
  now: number,
  skip: ReadonlySet<number> = new Set(),
): number => {
  let n = 0;
  for (const r of rowsToReapply(db, entities))
    if (!skip.has(r.mutationId) && reapplyRow(modules, db, r, now)) n++;
  return n;
};
