import type { SyncMark } from '../../shared/bridge/common';
import { stmt } from '../../sync/db/kysely';
import type { Sqlite } from '../../sync/db/open';
import type { EntityKind } from '../../sync/outbox/types';

const rank: Record<string, number> = { pending: 1, inflight: 1, failed: 2, conflict: 3 };
const markOfRank: SyncMark[] = ['synced', 'pending', 'failed', 'conflict'];

/**
 * Per entity, where it stands against the server: an entity with outbox rows is pending, or
 * failed / in conflict when one of its rows waits for the user (the worst row wins).
 */
export const syncMarks = (
  db: Sqlite,
  kind: EntityKind,
  ids: readonly number[],
): Map<number, SyncMark> => {
  const out = new Map<number, SyncMark>();
  if (ids.length === 0) return out;
  const rows = stmt(
    db,
    `SELECT entity, state FROM outbox WHERE entity IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(ids.map((id) => `${kind}:${id}`))) as { entity: string; state: string }[];
  const worst = new Map<number, number>();
  for (const r of rows) {
    const id = Number(r.entity.slice(kind.length + 1));
    worst.set(id, Math.max(worst.get(id) ?? 0, rank[r.state] ?? 0));
  }
  for (const [id, r] of worst) out.set(id, markOfRank[r] ?? 'synced');
  return out;
};

/** Rows with their `sync` mark. */
export const withMarks = <T>(
  db: Sqlite,
  kind: EntityKind,
  rows: readonly T[],
  idOf: (row: T) => number,
): (T & { sync: SyncMark })[] => {
  const marks = syncMarks(db, kind, rows.map(idOf));
  return rows.map((r) => ({ ...r, sync: marks.get(idOf(r)) ?? 'synced' }));
};

export const withMark = <T>(db: Sqlite, kind: EntityKind, row: T, id: number) => ({
  ...row,
  sync: syncMarks(db, kind, [id]).get(id) ?? ('synced' as SyncMark),
});
