/**
 * Where entities stand against the server, from their outbox rows: what the views show beside
 * each row (the bridge's `sync` mark).
 */
import type { SyncMark } from '../../shared/bridge/common';
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import type { EntityKind } from './types';

const rank: Record<string, number> = { pending: 1, inflight: 1, failed: 2, conflict: 3 };
const markOfRank: SyncMark[] = ['synced', 'pending', 'failed', 'conflict'];

/**
 * Per entity with outbox rows: pending, or failed / in conflict when one of its rows waits for
 * the user (the worst row wins). Entities without rows are absent (synced).
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
