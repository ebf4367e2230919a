/**
 * Where the engine's files are: its worker entry points beside the bundle, and each replica's
 * folder. The door's light entry: it loads neither SQLite nor the HTTP pool, so the Electron
 * main process (which only spawns the host worker and opens files) imports this, not index.ts.
 */
export { replicaFilesDir, replicaFolderName, replicaFolderOf } from '../db/replica-name';
export { spawnEntryWorker } from '../engine/worker-thread';
