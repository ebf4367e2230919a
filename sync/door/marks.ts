import type { SyncMark } from '../../shared/bridge/common';
import type { Sqlite } from '../db/open';
import { syncMarks } from '../outbox/marks';
import type { EntityKind } from '../outbox/types';

/** Rows with their `sync` mark: where each stands against the server. */
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
