import { copyFile, mkdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { attachmentFile } from '../../shared/bridge/activity';
import type { BridgeResponse } from '../../shared/bridge/define';
import { replicaFolderOf } from '../../sync/door/paths';
import type { BridgeEndpoint } from '../bridge/endpoint';
import { type MainSideTable, withMainSide } from '../bridge/main-side';
import { opensDirectly, safeFileName } from './attachment-names';

export interface AttachmentOpenerDeps {
  /** Electron's `shell.openPath`: '' when the system opened the file, else why not. */
  openPath(path: string): Promise<string>;
  /** Electron's `shell.showItemInFolder`: the file selected in the system's file manager. */
  showItemInFolder(path: string): void;
  /** Marks a copy as downloaded from the internet (download-mark.ts); rejects when it could not. */
  markDownloaded(path: string): Promise<void>;
  /**
   * Where the engines keep their replicas (main/services/data-layout.ts): a copy handed to the
   * system's apps goes under the folder of the replica its file came from (`opened/<id>/`), so
   * one account's or org's copies never mix with another's.
   */
  replicasDir: string;
}

const OPENED_DIR = 'opened';

const refused = (message: string): BridgeResponse => ({
  ok: false,
  error: { code: 'rejected', message },
});

/**
 * In Electron the page cannot open a file (file:// and new windows are blocked by the
 * hardening), so the main process opens it: `attachments.open` answers are intercepted, the
 * file is copied under its own name made safe (the cache and the outbox keep bytes under ids,
 * without the extension the system picks an app by, and an app editing the copy must not
 * change them), marked as downloaded, and handed to the system: opened with its app when it is
 * a document type on the list (attachment-names.ts), else shown in its folder, since the name
 * is anyone's text and the system may run what it opens. The answer says `openedByHost` and
 * which (`shownInFolder`).
 */
export const attachmentMethods = (deps: AttachmentOpenerDeps): MainSideTable => ({
  'attachments.open': async (value, input) => {
    const parsed = attachmentFile.safeParse(value);
    if (!parsed.success) return refused('the host answered attachments.open in an unknown shape');
    const file = parsed.data;
    const id = (input as { attachmentId: number }).attachmentId;
    // The answer's path (the cached content or the staged upload) names the replica.
    const replica = replicaFolderOf(deps.replicasDir, file.path);
    if (!replica) return refused(`${file.fileName} is not a file of any replica`);
    const dir = join(replica, OPENED_DIR, String(id));
    const name = safeFileName(file.fileName);
    const target = join(dir, name);
    // safeFileName makes one plain component; checked again where a slip would write elsewhere.
    if (dirname(target) !== dir || basename(target) !== name)
      return refused(`${file.fileName} cannot be named safely`);
    try {
      await mkdir(dir, { recursive: true });
      await copyFile(file.path, target);
    } catch (e) {
      return refused(`${file.fileName} could not be prepared for opening: ${(e as Error).message}`);
    }
    try {
      await deps.markDownloaded(target);
    } catch (e) {
      // Never hand the system a copy without the mark that makes it careful.
      await rm(target, { force: true });
      return refused(`${file.fileName} could not be marked as downloaded: ${(e as Error).message}`);
    }
    const opened = { ...file, path: target, openedByHost: true };
    if (!opensDirectly(name)) {
      deps.showItemInFolder(target);
      return { ok: true, value: { ...opened, shownInFolder: true } };
    }
    const why = await deps.openPath(target);
    if (why !== '') return refused(`the system could not open ${file.fileName}: ${why}`);
    return { ok: true, value: { ...opened, shownInFolder: false } };
  },
});

/** The endpoint with `attachments.open` opening the file; every other call passes as is. */
export const hostOpensAttachments = (
  endpoint: BridgeEndpoint,
  deps: AttachmentOpenerDeps,
): BridgeEndpoint => withMainSide(endpoint, attachmentMethods(deps));
