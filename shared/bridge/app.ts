import { z } from 'zod';
import { method, noInput } from './define';

/**
 * What a user copies into a bug report: versions, where the data is, how big the replicas are,
 * what waits in the outbox and the last errors. Never a token: the host builds it from sizes,
 * counts and redacted messages only.
 */
export const diagnostics = z.object({
  versions: z.object({
    app: z.string(),
    node: z.string(),
    electron: z.string().nullable(),
    platform: z.string(),
    arch: z.string(),
  }),
  dataDir: z.string(),
  logsDir: z.string(),
  /** Each replica file or folder under the data folder's `replicas/`, with its size on disk. */
  replicas: z.array(z.object({ name: z.string(), bytes: z.number().int().min(0) })),
  signedIn: z.boolean(),
  /** The signed-in account's outbox; null while signed out. */
  outbox: z
    .object({
      pending: z.number().int().min(0),
      failed: z.number().int().min(0),
      pendingByKind: z.record(z.string(), z.number().int().min(0)),
    })
    .nullable(),
  /** The engine's last error and the failed edits' messages, newest first. */
  lastErrors: z.array(z.string()),
});
export type Diagnostics = z.infer<typeof diagnostics>;

/** A folder the desktop opened in the file manager, or (browser mode) only named. */
const openedFolder = z.object({ path: z.string(), opened: z.boolean() });

export const appMethods = {
  'app.diagnostics': method(noInput, diagnostics),
  /**
   * The logs folder (created if missing). The desktop opens it in the file manager and answers
   * `opened: true`; browser mode cannot, and the page shows the path instead.
   */
  'app.openLogsFolder': method(noInput, openedFolder),
  /** The data folder (settings, replicas and their files), opened or named the same way. */
  'app.openDataFolder': method(noInput, openedFolder),
};
