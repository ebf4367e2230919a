/**
 * The engine's front door: with the API client the host signs in with (sync/api), the only
 * module of sync/ the host (main/) imports; behind it are the replica's tables, the outbox
 * and the engine. paths.ts is its light entry for the Electron main process.
 * test/layering.test.ts holds main/ to these.
 */

export { openEngine } from '../engine/engine';
// Starting an engine: what the host worker opens for each signed-in org.
export type { EngineEvent, EngineOptions, EngineStatus, SyncEngine } from '../engine/engine-api';
export {
  type DoorMethod,
  type DoorOptions,
  doorCalls,
  type EngineDoor,
  openDoor,
} from './door';
export * from './paths';
export { engineRefusal } from './refusals';
export { statusView } from './status';
