import type { SyncChanges } from '../../shared/bridge';
import { toast } from '../ui/toast';
import { useApp } from './app-store';
import { bridge } from './bridge';
import { editErrorWords } from './edit-error';
import { patchAll, refreshAll } from './query';

/**
 * "Changes from sync": both the list's methods answer the list as it is now, which goes into
 * the cached `sync.changes` at once, and the unseen count into the sync status the sidebar's
 * badge reads, so neither waits for the next status event.
 */
function show(answer: SyncChanges) {
  patchAll((method, data) => (method === 'sync.changes' ? answer : data));
  const sync = useApp.getState().sync;
  if (sync && sync.changesUnseen !== answer.unseen)
    useApp.setState({ sync: { ...sync, changesUnseen: answer.unseen } });
}

/** The user is looking at the list: the badge goes. */
export async function seeChanges(): Promise<void> {
  try {
    show(await bridge().invoke('sync.changesSeen', {}));
  } catch {
    // The badge stays until the next look; nothing the user did is lost.
  }
}

/** Keep theirs or restore mine; the views re-read, as restoring is an edit of the replica. */
export async function resolveChange(
  changeId: number,
  choice: 'keepTheirs' | 'restoreMine',
): Promise<void> {
  try {
    show(await bridge().invoke('sync.resolveChange', { changeId, choice }));
  } catch (error) {
    const what =
      choice === 'restoreMine' ? 'Could not restore your value' : 'Could not keep theirs';
    toast(`${what}: ${editErrorWords(error)}`, 'error');
  }
  refreshAll();
}
