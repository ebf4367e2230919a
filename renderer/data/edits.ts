import type { EditCommand, EditResult } from '../../shared/edits/commands';
import { toast } from '../ui/toast';
import { bridge } from './bridge';
import { editErrorWords } from './edit-error';
import { offerUndo } from './history';
import { optimisticPatch } from './optimistic';
import { holdPatch, refreshAll } from './query';

/**
 * The one way the UI changes anything: patch the cached views now (optimistic), hand the edit
 * to the host (`edits.apply`: replica + outbox in one transaction), then re-read. A refused
 * edit re-reads too, which puts the views back, and says why.
 */
export async function applyEdit(
  cmd: EditCommand,
  options: { undoToast?: string } = {},
): Promise<EditResult | null> {
  const patch = optimisticPatch(cmd);
  const release = patch
    ? holdPatch((method, data) => (patch.methods.includes(method) ? patch.apply(data) : data))
    : () => {};
  try {
    const result = await bridge().invoke('edits.apply', cmd);
    release();
    refreshAll();
    if (options.undoToast) offerUndo(options.undoToast);
    return result;
  } catch (error) {
    release();
    refreshAll();
    toast(`Could not save: ${editErrorWords(error)}`, 'error');
    return null;
  }
}

/**
 * Several edits as one step (all or none), undone together: a bulk action. The views re-read
 * once the host answers; a refusal changes nothing and says why.
 */
export async function applyEdits(cmds: EditCommand[], undoToast: string): Promise<number | null> {
  try {
    const { count } = await bridge().invoke('edits.applyAll', { commands: cmds });
    refreshAll();
    offerUndo(undoToast);
    return count;
  } catch (error) {
    refreshAll();
    toast(`Could not save: ${editErrorWords(error)}`, 'error');
    return null;
  }
}
