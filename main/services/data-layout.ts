import { join } from 'node:path';

/**
 * Where the engines keep their replicas under the app's data dir: a file and a folder of files
 * per (server, user, org) (sync/db/replica-name.ts). Apart from session.ts so that the Electron
 * main process, which opens attachments from those folders, need not load the session's code.
 */
export const replicasDir = (dataDir: string): string => join(dataDir, 'replicas');

/**
 * Each mode's token store, never one shared: the desktop's holds tokens sealed by the OS key
 * store (safeStorage), browser mode's is plain JSON (0600). A shared file would let a token
 * the desktop sealed be rewritten in clear by browser mode, or either mode resume the other's
 * session (and rotate its refresh token away from under it).
 */
export const desktopSessionFile = (dataDir: string): string => join(dataDir, 'session.bin');
export const browserSessionFile = (dataDir: string): string => join(dataDir, 'session.json');
