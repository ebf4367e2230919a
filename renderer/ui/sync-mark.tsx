/** The per-row sync state the bridge's list and detail outputs carry. */
export type RowSync = 'synced' | 'pending' | 'failed' | 'conflict';

const words: Record<RowSync, string> = {
  synced: 'Synced',
  pending: 'Not yet synced',
  failed: 'Sync failed: open the sync panel',
  conflict: 'Conflict: open the sync panel',
};

/** Nothing when synced; a quiet dot when pending; a loud badge when it needs the user. */
export function SyncMark({ sync }: { sync: RowSync | null | undefined }) {
  if (!sync || sync === 'synced') return null;
  return (
    <span
      className={`sync-mark sync-${sync}`}
      title={words[sync]}
      role="img"
      aria-label={words[sync]}
    >
      {sync === 'pending' ? '' : '!'}
    </span>
  );
}
