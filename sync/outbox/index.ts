/**
 * The outbox: local edits queued for the server, in one SQLite file with the replica.
 * queue.ts (rows and their life), coalesce.ts (merging edits), local-ids.ts (temporary ids),
 * backoff.ts (failure classes and retry delays), files.ts (upload bytes), status.ts (what the
 * UI shows), types.ts (rows and errors; the kind table is shared/edits/kinds.ts).
 */

export type { BackoffOptions } from './backoff';
export { classifyFailure, defaultBackoff, nextAttemptDelay, outboxError } from './backoff';
export type { CoalescePlan, CoalesceRule, RowRewrite } from './coalesce';
export { coalesce, foldBody, mayHaveReachedServer } from './coalesce';
export type { StagedFile } from './files';
export {
  OUTBOX_FILES_DIR,
  removeStagedFiles,
  stagedFiles,
  stageUploadFiles,
  sweepOrphanFiles,
  uploadFilesOf,
} from './files';
export type { Rewritten } from './local-ids';
export {
  allocateLocalId,
  canonicalKey,
  LocalIdError,
  mapLocalId,
  rewriteIds,
  serverIdOf,
} from './local-ids';
export type { Applied } from './push-outcome';
export type { Dropped, EnqueueResult } from './queue';
export {
  allMutations,
  discard,
  enqueue,
  failPermanently,
  getMutation,
  markConflict,
  markInflight,
  mutationsOfEntity,
  OutboxStateError,
  readyMutations,
  resetInflight,
  retryFailed,
  retryLater,
  settle,
} from './queue';
export type { FailedEdit, OutboxStatus, RetryingEdit } from './status';
export { outboxStatus } from './status';
export * from './types';
