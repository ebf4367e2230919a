import type { HistoryStep } from '../../shared/bridge';
import { toast } from '../ui/toast';
import { bridge } from './bridge';
import { editErrorWords } from './edit-error';
import { refreshAll } from './query';

/**
 * Undo and redo: the history lives in the engine (one for the window, the tray and every
 * surface); the window asks for a step and re-reads. The engine also announces what changed,
 * which re-reads the views on its own; the re-read here covers a step that changed nothing.
 */
async function walk(method: 'history.undo' | 'history.redo'): Promise<HistoryStep | null> {
  const undoing = method === 'history.undo';
  try {
    const step = await bridge().invoke(method, {});
    refreshAll();
    if (!step) toast(undoing ? 'Nothing to undo' : 'Nothing to redo');
    else if (undoing) toast(`Undone: ${step.label}`, 'info', { label: 'Redo', run: redoLast });
    else toast(`Redone: ${step.label}`, 'info', { label: 'Undo', run: undoLast });
    return step;
  } catch (error) {
    refreshAll();
    toast(`Could not ${undoing ? 'undo' : 'redo'}: ${editErrorWords(error)}`, 'error');
    return null;
  }
}

export const undoLast = (): void => void walk('history.undo');
export const redoLast = (): void => void walk('history.redo');

/** After an edit the user may regret at once (complete, delete, a move, a bulk edit). */
export const offerUndo = (message: string): void => {
  toast(message, 'success', { label: 'Undo', run: undoLast });
};
