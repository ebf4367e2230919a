import type { SyncStatus } from '../../shared/bridge';
import type { TrayItem } from './tray-menu';

/**
 * What the tray says about sync, beside the timer: the engine status cut to what a user reads
 * at a glance. Null while signed out (there is no engine then).
 */
export interface TraySync {
  online: boolean;
  paused: boolean;
  needsSignIn: boolean;
  /** Unsent edits (queued or in flight). */
  pending: number;
  /** Edits the server refused or that conflict: the user must act in the Sync view. */
  failed: number;
}

export const traySyncFrom = (status: SyncStatus | null): TraySync | null =>
  status
    ? {
        online: status.online,
        paused: status.paused,
        needsSignIn: status.needsSignIn,
        pending: status.pending,
        failed: status.failed.length,
      }
    : null;

const edits = (n: number) => `${n} edit${n === 1 ? '' : 's'}`;

/** The one status line: why edits wait, how many, or that nothing does. */
export const syncStatusLine = (sync: TraySync): string | null => {
  const waiting = sync.pending > 0 ? `${edits(sync.pending)} waiting` : '';
  const withWaiting = (state: string) => (waiting ? `${state} — ${waiting}` : state);
  if (sync.needsSignIn) return withWaiting('Sign in again to sync');
  if (!sync.online) return withWaiting('Offline');
  if (sync.paused) return withWaiting('Sync paused');
  if (waiting) return waiting;
  // With failed edits and nothing else waiting, the failed item says it all.
  return sync.failed > 0 ? null : 'All synced';
};

/** The sync items of the menu: a status label, and an item opening Sync when edits failed. */
export const syncItems = (sync: TraySync | null): TrayItem[] => {
  if (!sync) return [];
  const line = syncStatusLine(sync);
  const items: TrayItem[] = line ? [{ type: 'label', label: line }] : [];
  if (sync.failed > 0) {
    items.push({
      type: 'action',
      label: `${edits(sync.failed)} failed — open Sync`,
      action: { kind: 'open-view', view: 'sync' },
    });
  }
  return items;
};
