import { z } from 'zod';
import { editCommand } from '../edits/commands';
import { method, noInput } from './define';

/**
 * Undo and redo of the user's edits. The history lives in the engine (it survives a restart)
 * and is one for every surface: the window's keys and toasts, the tray, the tests.
 */

/** One undoable step: one edit, or a batch applied together (a bulk edit). */
export const historyStep = z.object({
  /** What the step did, in the user's words: `Completed “Write the spec”`. */
  label: z.string(),
  /** The edit kind of the step's first edit (`task.update`, …). */
  kind: z.string(),
  /** Entities the step changed, as the replica names them now: `task:12`. */
  entities: z.array(z.string()),
});
export type HistoryStep = z.infer<typeof historyStep>;

export const historyMethods = {
  /** Undoes the latest step not undone yet; answers it, or null when there is none. */
  'history.undo': method(noInput, historyStep.nullable()),
  /** Redoes the latest undone step (until a new edit is made); answers it, or null. */
  'history.redo': method(noInput, historyStep.nullable()),
  /** Several edits applied as one step (all or none), undone and redone together. */
  'edits.applyAll': method(
    z.object({ commands: z.array(editCommand).min(1).max(500) }),
    z.object({ count: z.number().int().min(0) }),
  ),
};
