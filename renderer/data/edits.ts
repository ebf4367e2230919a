import type { EditCommand, EditResult } from '../../shared/edits/commands';
import { toast } from '../ui/toast';
import { bridge } from './bridge';
import { editErrorWords } from './edit-error';
import { optimisticPatch } from './optimistic';
import { holdPatch, refreshAll } from './query';

/**
 * The one way the UI changes anything: patch the cached views now (optimistic), hand the edit
 * to the host (`edits.apply`: replica + outbox in one transaction), then re-read. A refused
 * edit re-reads too, which puts the views back, and says why.
 */
export async function applyEdit(cmd: EditCommand): Promise<EditResult | null> {
  const patch = optimisticPatch(cmd);
  const release = patch
    ? holdPatch((method, data) => (patch.methods.includes(method) ? patch.apply(data) : data))
    : () => {};
  try {
    const result = await bridge().invoke('edits.apply', cmd);
    release();
    refreshAll();
    return result;
  } catch (error) {
    release();
    refreshAll();
    toast(`Could not save: ${editErrorWords(error)}`, 'error');
    return null;
  }
}
