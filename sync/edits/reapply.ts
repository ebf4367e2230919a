/**
 * Writing queued edits' effects again, in mutation order: after a pull replaced rows (the
 * rebase) and after a rollback restored them. Which rows: those of the entities named, those
 * that reference one, and, transitively, those that depend on a row taken (a checklist item
 * on a subtask of a task created offline).
 */
import type { Sqlite } from '../db/open';
import { parseEntityKey, type QueuedMutation } from '../outbox';
import { select } from '../outbox/rows';
import { applyEffect } from './effects';

const LIVE = "o.state IN ('pending', 'inflight')";
const KIND = (col: string) => `substr(${col}, 1, instr(${col}, ':') - 1)`;

/**
 * Live rows (pending, in flight) that `keys` names: their entity or one they reference, by
 * key or by kind (`task:*`). Filtered in SQL: the hook runs after every server write, and a
 * long outbox must not be parsed whole each time.
 */
const liveRowsNaming = (db: Sqlite, keys: readonly string[]): QueuedMutation[] => {
  const exact = JSON.stringify(keys.filter((k) => !k.endsWith(':*')));
  const kinds = JSON.stringify(keys.filter((k) => k.endsWith(':*')).map((k) => k.slice(0, -2)));
  // depends_on is a JSON array of quoted keys: a quoted key, or a quoted kind prefix, found
  // in its text is a reference (cheaper than unpacking every row's array).
  return select(
    db,
    `mutation_id IN (SELECT o.mutation_id FROM outbox o WHERE ${LIVE} AND (
       o.entity IN (SELECT value FROM json_each(@exact))
       OR ${KIND('o.entity')} IN (SELECT value FROM json_each(@kinds))
       OR EXISTS (SELECT 1 FROM json_each(@exact) k
         WHERE instr(o.depends_on, '"' || k.value || '"') > 0)
       OR EXISTS (SELECT 1 FROM json_each(@kinds) k
         WHERE instr(o.depends_on, '"' || k.value || ':') > 0)))`,
    { exact, kinds },
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

/** Re-applies the live rows of (and depending on) `entities`, except `skip`; how many took. */
export const reapplyRows = (
  db: Sqlite,
  entities: ReadonlySet<string>,
  now: number,
  skip: ReadonlySet<number> = new Set(),
): number => {
  let n = 0;
  for (const r of rowsToReapply(db, entities))
    if (!skip.has(r.mutationId) && reapplyRow(db, r, now)) n++;
  return n;
};

/**
 * Re-applies the live rows of one entity only: after a server answer that rewrote that
 * entity's own row and nothing under it (an update's answer), the rows depending on it are
 * still as they were and need nothing.
 */
export const reapplyOwnRows = (db: Sqlite, key: string, now: number): number => {
  let n = 0;
  for (const r of select(db, "state IN ('pending', 'inflight') AND entity = ?", key))
    if (reapplyRow(db, r, now)) n++;
  return n;
};
