import { z } from 'zod';
import { method, noInput } from './define';

/** One stream's progress in a pull (sync/engine/progress.ts PullProgress). */
export const pullProgress = z.object({
  stream: z.enum(['tasks', 'projects', 'spaces', 'notifications', 'timers']),
  mode: z.enum(['bootstrap', 'delta']),
  itemsDone: z.number().int().min(0),
  total: z.number().int().min(0).nullable(),
  bytes: z.number().int().min(0),
  done: z.boolean(),
});

/** The server's (or this side's) words on why an edit failed. */
export const outboxError = z.object({
  kind: z.string(),
  failure: z.enum(['retry', 'rate-limited', 'auth', 'permanent', 'conflict']),
  status: z.number().int().optional(),
  message: z.string(),
  fieldErrors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

export const failedEdit = z.object({
  mutationId: z.number().int(),
  /** The mutation kind (task, checklist, timer, …). */
  kind: z.string(),
  /** `task:12`, `checklist:-3`. */
  entity: z.string(),
  state: z.enum(['failed', 'conflict']),
  error: outboxError.nullable(),
  attempts: z.number().int().min(0),
  updatedAt: z.number().int(),
});
export type BridgeFailedEdit = z.infer<typeof failedEdit>;

/** sync/outbox/notices.ts SyncNotice: what the user must know about an edit already sent. */
export const syncNotice = z.object({
  noticeId: z.number().int(),
  entity: z.string(),
  message: z.string(),
  createdAt: z.number().int(),
});

/** sync/engine/engine-api.ts EngineStatus. */
export const syncStatus = z.object({
  online: z.boolean(),
  activity: z.enum(['idle', 'pulling', 'pushing']),
  paused: z.boolean(),
  needsSignIn: z.boolean(),
  pending: z.number().int().min(0),
  pendingByKind: z.record(z.string(), z.number().int().min(0)),
  failed: z.array(failedEdit),
  nextRetryAt: z.number().int().nullable(),
  lastSyncAt: z.number().int().nullable(),
  lastError: z.string().nullable(),
  bootstrap: pullProgress.nullable(),
  notices: z.array(syncNotice),
  /** "Changes from sync" not seen yet (the Sync entry's badge). */
  changesUnseen: z.number().int().min(0),
});
export type SyncStatus = z.infer<typeof syncStatus>;

const mutationId = z.number().int().min(1);

/** Control methods answer the status after the change; all need a signed-in session. */
export const syncMethods = {
  /** Null while signed out. */
  'sync.status': method(noInput, syncStatus.nullable()),
  /** Pull, then push what is ready; resolves when that sync is over. */
  'sync.now': method(noInput, syncStatus),
  'sync.pause': method(noInput, syncStatus),
  'sync.resume': method(noInput, syncStatus),
  /** A failed or conflicting edit again, optionally with a corrected request body. */
  'sync.retry': method(z.strictObject({ mutationId, body: z.json().optional() }), syncStatus),
  /** Gives a failed edit up: the replica returns to the server's state. */
  'sync.discard': method(z.strictObject({ mutationId }), syncStatus),
  'sync.resolveConflict': method(
    z.strictObject({ mutationId, choice: z.enum(['recreate', 'discard']) }),
    syncStatus,
  ),
  /** The user has read a notice about an edit already sent. */
  'sync.dismissNotice': method(z.strictObject({ noticeId: z.number().int().min(1) }), syncStatus),
  /**
   * Stops a running first fill and pauses sync (what was written stays; `sync.resume`
   * continues where it stopped).
   */
  'sync.cancelBootstrap': method(noInput, syncStatus),
};
