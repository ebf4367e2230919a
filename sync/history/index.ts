/**
 * Undo and redo, in the engine: `editRecorded` applies edits as one step and records their
 * inverses (same transaction); `undo` / `redo` walk the steps, applying edits through the
 * same path as the user's. The steps live in the replica (`history_steps`): they survive a
 * restart; the last `HISTORY_LIMIT` are kept.
 */
export type { HistoryIo, UndoOutcome } from './history';
export { editRecorded, redo, undo } from './history';
export { HISTORY_LIMIT } from './store';
export type { StepOutcome } from './types';
