/**
 * The optimistic edit layer between a user's edit and the outbox: `applyEdit` (apply locally
 * and queue, one transaction), `reapplyPending` / `installRebase` (pending edits survive a
 * pull), `rollBack` (a refused or discarded edit gives the server's rows back), `recreate`
 * (an edit of something deleted on the server becomes a create), and timer truth.
 */
export type { EditContext } from './apply';
export { applyEdit } from './apply';
export type { EditBase } from './commit';
export type { RebaseReport } from './rebase';
export { installRebase, mergeFields, reapplyPending, touches } from './rebase';
export { recreate } from './recreate';
export { rollBack } from './rollback';
export { EditError } from './state';
export type { TimerTruth } from './timers';
export { forgetTimerTruth, timerTruth } from './timers';
