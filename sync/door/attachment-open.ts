import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BridgeError } from '../../shared/bridge/define';
import { attachmentFileName } from '../db/queries/views';
import { serverIdOf } from '../outbox/local-ids';
import { stagedUploadOf } from '../outbox/staged-upload';
import type { Views } from './context';

export const attachmentViews = {
  /**
   * Where an attachment's bytes are: the staged copy of an upload still queued, or the cached
   * (else fetched) content; with the URL the UI can fetch it at, where it has one.
   */
  'attachments.open': async (ctx, input) => {
    // A local id whose upload finished names the server's attachment now (a view that has not
    // followed the rekey yet still asks by the local id).
    const id =
      input.attachmentId < 0
        ? (serverIdOf(ctx.db, 'attachment', input.attachmentId) ?? input.attachmentId)
        : input.attachmentId;
    const fileName = attachmentFileName(ctx.db, id);
    if (fileName === null)
      throw new BridgeError({
        code: 'not-found',
        message: `attachment ${input.attachmentId} is not in this org's data`,
      });
    const answer = { url: ctx.attachmentUrl?.(input.attachmentId) ?? null, fileName };
    if (id < 0) {
      const staged = stagedUploadOf(ctx.db, id);
      const path = staged ? join(ctx.filesDir, staged.path) : null;
      if (!staged || !path || !existsSync(path))
        throw new BridgeError({
          code: 'not-found',
          message: `${fileName} is no longer queued for upload, and its copy is gone`,
        });
      return {
        ...answer,
        path,
        contentType: staged.contentType,
        size: staged.size,
        source: 'outbox',
        openedByHost: false,
      };
    }
    const file = await ctx.engine.lazy.attachmentContent(id);
    return {
      ...answer,
      path: file.path,
      contentType: file.contentType,
      size: file.size,
      source: file.source,
      openedByHost: false,
    };
  },
} satisfies Partial<Views>;
