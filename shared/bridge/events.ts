import { z } from 'zod';
import { entityId } from '../edits/commands';
import { sessionState } from './session';
import { settings } from './settings';
import { pullProgress, syncStatus } from './sync';

/** `task:12`, `checklist:-3`: an entity kind and its (server or local) id; `task:*`: every task. */
export const entityKey = z
  .string()
  .regex(/^[a-z-]+:(-?\d+|\*)$/, 'must look like task:12 or task:*');

/** The window's views the host can open (the tray, the app menu). */
export const appView = z.enum(['sync', 'settings']);
export type AppView = z.infer<typeof appView>;

/** Event name → payload: what the host pushes to the UI without being asked. */
export const bridgeEvents = {
  'sync.status': syncStatus,
  /** Rows of these entities changed in the replica: views holding them read again. */
  'replica.changed': z.object({
    entities: z.array(entityKey),
    source: z.enum(['edit', 'pull', 'push']),
  }),
  /** An entity created offline got its server id: views holding `from` switch to `to`. */
  'entity.rekeyed': z.object({ from: entityKey, to: entityKey }),
  'upload.progress': z.object({
    mutationId: z.number().int(),
    completedBytes: z.number().int().min(0),
    totalSize: z.number().int().min(0),
  }),
  'pull.progress': pullProgress,
  'session.changed': sessionState,
  /** The whole settings record after a `settings.set`, whoever made it (a window, the tray). */
  'settings.changed': settings,
  /** Notifications new to the replica in a pull (native notifications, badge). */
  'notifications.arrived': z.object({ notificationIds: z.array(z.number().int()) }),
  /** "Changes from sync" grew: a sync changed the user's own work (see `sync.changes`). */
  'sync.changesGrew': z.object({
    unseen: z.number().int().min(0),
    latestChangeId: z.number().int().min(1),
  }),
  /** Open a task (deep link, notification click). */
  'app.navigate': z.object({ taskId: entityId }),
  /** Open one of the window's views (the tray's "edits failed — open Sync", Settings…). */
  'app.openView': z.object({ view: appView }),
};
