import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { attachmentFile } from '../../shared/bridge/activity';
import type { BridgeResponse } from '../../shared/bridge/define';
import { replicaFolderOf } from '../../sync/db/replica-name';
import type { BridgeEndpoint } from '../bridge/endpoint';

export interface AttachmentOpenerDeps {
  /** Electron's `shell.openPath`: '' when the system opened the file, else why not. */
  openPath(path: string): Promise<string>;
  /**
   * Where the engines keep their replicas (main/services/data-layout.ts): a copy handed to the
   * system's apps goes under the folder of the replica its file came from (`opened/<id>/`), so
   * one account's or org's copies never mix with another's.
   */
  replicasDir: string;
}

const OPENED_DIR = 'opened';

const RESERVED = /[<>:"/\\|?*]/g;
const isControl = (ch: string) => {
  const code = ch.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
};

/**
 * A file name safe to create on every platform, from an attachment's name (a user's text): no
 * separators or reserved characters, no trailing dots or spaces (Windows drops them), no `..`.
 */
export const safeFileName = (name: string): string => {
  const cleaned = [...name]
    .map((ch) => (isControl(ch) ? '_' : ch))
    .join('')
    .replace(RESERVED, '_')
    .replace(/[. ]+$/, '')
    .slice(0, 200)
    .trim();
  return cleaned === '' || /^\.+$/.test(cleaned) ? 'attachment' : cleaned;
};

const refused = (message: string): BridgeResponse => ({
  ok: false,
  error: { code: 'rejected', message },
});

/**
 * In Electron the page cannot open a file (file:// and new windows are blocked by the
 * hardening), so the main process opens it: `attachments.open` answers are intercepted, the
 * file is copied under its own name (the cache and the outbox keep bytes under ids, without
 * the extension the system picks an app by, and an app editing the copy must not change them)
 * and handed to the system, and the answer says `openedByHost`. Every other call passes as is.
 */
export const hostOpensAttachments = (
  endpoint: BridgeEndpoint,
  deps: AttachmentOpenerDeps,
): BridgeEndpoint => ({
  subscribe: (listener) => endpoint.subscribe(listener),
  async call(method, input) {
    const answer = await endpoint.call(method, input);
    if (method !== 'attachments.open' || !answer.ok) return answer;
    const parsed = attachmentFile.safeParse(answer.value);
    if (!parsed.success) return refused('the host answered attachments.open in an unknown shape');
    const file = parsed.data;
    const id = (input as { attachmentId: number }).attachmentId;
    // The answer's path (the cached content or the staged upload) names the replica.
    const replica = replicaFolderOf(deps.replicasDir, file.path);
    if (!replica) return refused(`${file.fileName} is not a file of any replica`);
    const dir = join(replica, OPENED_DIR, String(id));
    const target = join(dir, safeFileName(file.fileName));
    try {
      await mkdir(dir, { recursive: true });
      await copyFile(file.path, target);
    } catch (e) {
      return refused(`${file.fileName} could not be prepared for opening: ${(e as Error).message}`);
    }
    const why = await deps.openPath(target);
    if (why !== '') return refused(`the system could not open ${file.fileName}: ${why}`);
    return { ok: true, value: { ...file, path: target, openedByHost: true } };
  },
});
