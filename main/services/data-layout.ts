import { join } from 'node:path';

/**
 * Where the engines keep their replicas under the app's data dir: a file and a folder of files
 * per (server, user, org) (sync/db/replica-name.ts). Apart from session.ts so that the Electron
 * main process, which opens attachments from those folders, need not load the session's code.
 */
export const replicasDir = (dataDir: string): string => join(dataDir, 'replicas');
