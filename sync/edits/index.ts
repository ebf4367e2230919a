/**
 * The optimistic edit layer between a user's edit and the outbox:
 * - `applyEdit`: the edit applied to the replica and queued, in one transaction;
 * - `reapplyPending` / `installRebase`: queued edits go back on top of every server write
 *   (per-field last writer wins, conflict when the server deleted the entity); call
 *   `reapplyPending(db, new Set([row.entity]), { now })` after `retryFailed` to show the edit again;
 * - `applyAnswer`: the server's answer to a sent edit, written (the pusher's);
 * - `rollBack`: a refused or discarded edit gives the server's rows back;
 * - `recreate`: an edit of something deleted on the server becomes a create;
 * - `timerTruth` / `forgetTimerTruth`: what the user saw of a timer, for `updateTimer`.
 *
 * What the rows it queues hold, beyond the request:
 * - `base` (`EditBase`): `{ state, modifiedTime, rows }`, the server's editable state, its
 *   modifiedTime, and the raw replica rows (a delete's with what it removed);
 * - an upload's body: `{ localIds, files: [{ fileName, size, contentType }] }` (multipart:
 *   never sent), one local attachment id per file in order;
 * - pause, resume, stop: `{ at }`, when the user pressed (the API client sends only the
 *   schema's fields: nothing for pause and resume, `{}` for stop).
 */

import { createEdits } from './create';
import { entityModules } from './kinds';

export type { EditBase } from './base';
export { createEdits, type Edits } from './create';
export type { EditContext } from './kinds';
export { mergeFields } from './merge';
export type { RebaseReport } from './rebase';
export { touches } from './rebase';
export { EditError } from './state';

/** The machinery built from the app's entity modules (kinds/index.ts). */
export const edits = createEdits(entityModules);
export const {
  applyEdit,
  applyAnswer,
  reapplyPending,
  rebaseOwnRows,
  installRebase,
  rollBack,
  recreate,
} = edits;
export type { TimerTruth } from './timers';
export { forgetTimerTruth, timerTruth } from './timers';
