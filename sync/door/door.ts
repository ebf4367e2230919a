/**
 * The engine as the host sees it: one object per signed-in org answering every bridge method
 * the engine serves, under the contract's names and in its shapes (shared/bridge), beside the
 * status, the events and the engine's lifecycle. The host spreads those methods into its own
 * and knows nothing of tables or the outbox, like VS Code's storage IPC channel in front of
 * its IStorageMainService.
 */
import type { SyncStatus } from '../../shared/bridge';
import type { EngineEvent, SyncEngine } from '../engine/engine-api';
import { activityViews } from './activity-views';
import { attachmentViews } from './attachment-open';
import { changeViews } from './change-views';
import { type Calls, callsOf, type ViewContext, type Views } from './context';
import { controlViews } from './controls';
import { projectViews } from './project-views';
import { spaceViews } from './space-views';
import { statusView } from './status';
import { taskViews } from './task-views';

const doorViews = {
  ...taskViews,
  ...projectViews,
  ...spaceViews,
  ...activityViews,
  ...attachmentViews,
  ...changeViews,
  ...controlViews,
};

/** The bridge methods the engine answers; the host answers the rest (session, settings, app). */
export type DoorMethod = keyof typeof doorViews;
export const doorMethods = Object.keys(doorViews) as DoorMethod[];
const views: Views<DoorMethod> = doorViews;

/** The door's own members, which no bridge method names. */
export interface DoorControl {
  status(): SyncStatus;
  /** The engine's events (status, changes, rekeys, progress); answers the unsubscribe. */
  on(listener: (event: EngineEvent) => void): () => void;
  start(): void;
  /** Time between two background pulls from now on. */
  setPullInterval(ms: number): void;
  /** Stops the engine and closes the replica (the file stays). */
  close(): Promise<void>;
}

export type EngineDoor = Calls<DoorMethod> & DoorControl;

export interface DoorOptions {
  /** The signed-in user the engine's replica belongs to. */
  userId: number;
  /** The replica's own folder (cached attachments, staged upload copies). */
  filesDir: string;
  /** The clock of the views (overdue, today, running timers). */
  now?: () => number;
  /** Where the UI can fetch an attachment's content (browser mode); absent: it opens the path. */
  attachmentUrl?: ((attachmentId: number) => string) | undefined;
}

/** The front door of one open engine. */
export const openDoor = (engine: SyncEngine, options: DoorOptions): EngineDoor => {
  const now = options.now ?? Date.now;
  const ctx = (): ViewContext => ({
    db: engine.replica.db,
    userId: options.userId,
    now: now(),
    engine,
    filesDir: options.filesDir,
    attachmentUrl: options.attachmentUrl ?? null,
  });
  return {
    ...callsOf(doorMethods, (method, input) => views[method](ctx(), input)),
    status: () => statusView(engine.status()),
    on: (listener) => engine.on(listener),
    start: () => engine.start(),
    setPullInterval: (ms) => engine.setPullInterval(ms),
    close: () => engine.close(),
  };
};

/**
 * The door's methods as the host serves them: each call asks `door` for the current one
 * (which throws when there is none, e.g. not signed in) and passes the call on.
 */
export const doorCalls = (door: () => EngineDoor): Calls<DoorMethod> =>
  callsOf(doorMethods, (method, input) => {
    // As the mapped type alone: indexed through the intersection, TS would see every method.
    const calls: Calls<DoorMethod> = door();
    return calls[method](input);
  });
