import type { SyncStatus } from '../../shared/bridge';
import type { EngineStatus } from '../engine/engine-api';

/** EngineStatus as the bridge's `syncStatus` (the same fields; kinds and keys as text). */
export const statusView = (s: EngineStatus): SyncStatus => ({
  ...s,
  failed: s.failed.map((f) => ({ ...f, error: f.error ? { ...f.error } : null })),
  pendingByKind: { ...s.pendingByKind } as Record<string, number>,
  notices: s.notices.map((n) => ({ ...n })),
});
