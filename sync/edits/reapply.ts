/**
 * Writing queued edits' effects again, in mutation order: after a pull replaced rows (the
 * rebase) and after a rollback restored them. Which rows: those of the entities named, those
 * that reference one, and, transitively, those that depend on a row taken (a checklist item
 * on a subtask of a task created offline).
 */
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { parseEntityKey, type QueuedMutation } from '../outbox';
import { select } from '../outbox/rows';
import { applyEffect } from './effects';

/** A quoted string of a JSON array of keys (keys hold no quote). */
const QUOTED = /"([^"]*)"/g;

/**
 * Live rows (pending, in flight) that `keys` names: their entity or one they reference, by
 * key or by kind (`task:*`). The hook runs after every server write and a long outbox must not
 * be parsed whole each time: the live rows' keys are read (cheap columns), matched here in
 * sets (a page of 500 keys against thousands of rows: no key compared with every row), and
 * only the rows that match are read whole. depends_on is a JSON array of keys.
 */
const liveRowsNaming = (db: Sqlite, keys: readonly string[]): QueuedMutation[] => {
  const exact = new Set(keys.filter((k) => !k.endsWith(':*')));
  const kinds = keys.filter((k) => k.endsWith(':*')).map((k) => k.slice(0, -1));
  const named = (key: string) => exact.has(key) || kinds.some((k) => key.startsWith(k));
  const names = (r: { entity: string; depends_on: string }) => {
    if (named(r.entity)) return true;
    for (const m of r.depends_on.matchAll(QUOTED)) if (named(m[1] ?? '')) return true;
    return false;
  };
  const ids = (
    stmt(
      db,
      "SELECT mutation_id, entity, depends_on FROM outbox WHERE state IN ('pending', 'inflight')",
    ).all() as { mutation_id: number; entity: string; depends_on: string }[]
  )
    .filter(names)
    .map((r) => r.mutation_id);
  return ids.length === 0
    ? []
    : select(db, 'mutation_id IN (SELECT value FROM json_each(?))', JSON.stringify(ids));
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
