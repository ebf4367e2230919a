import { first, qb, run } from '../kysely';
import type { Sqlite } from '../open';
import type { SyncPhase } from '../types';

export type Stream = 'tasks' | 'projects' | 'spaces' | 'notifications' | 'timers';

export interface StreamState {
  stream: Stream;
  phase: SyncPhase;
  cursor: string | null;
  /** modifiedSince of the pull in progress (null during a bootstrap). */
  pullSince: number | null;
  /** serverTime of the last complete pull: the next pull's modifiedSince. */
  serverTime: number | null;
  itemsDone: number;
}

export const readStreamState = (db: Sqlite, stream: Stream): StreamState | null => {
  const row = first(
    db,
    qb
      .selectFrom('sync_state')
      .select(['stream', 'phase', 'cursor', 'pull_since', 'server_time', 'items_done'])
      .where('stream', '=', stream),
  );
  if (!row) return null;
  return {
    stream,
    phase: row.phase,
    cursor: row.cursor,
    pullSince: row.pull_since,
    serverTime: row.server_time,
    itemsDone: row.items_done,
  };
};

/** Written in the same transaction as the page it follows: a page and its cursor land together. */
export const writeStreamState = (db: Sqlite, s: StreamState, now: number): void => {
  run(
    db,
    qb
      .insertInto('sync_state')
      .values({
        stream: s.stream,
        phase: s.phase,
        cursor: s.cursor,
        pull_since: s.pullSince,
        server_time: s.serverTime,
        items_done: s.itemsDone,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.column('stream').doUpdateSet({
          phase: s.phase,
          cursor: s.cursor,
          pull_since: s.pullSince,
          server_time: s.serverTime,
          items_done: s.itemsDone,
          updated_at: now,
        }),
      ),
  );
};
