import { z } from 'zod';
import { taskFilter, taskScope, taskSort } from './common';
import { method, noInput } from './define';
import { isLoopbackHost } from './session';

/** A list the user named and kept: scope, filter and sort as `tasks.list` takes them. */
export const savedView = z.strictObject({
  id: z.string().min(1).max(64),
  name: z.string().trim().min(1).max(100),
  scope: taskScope,
  filter: taskFilter,
  sort: taskSort,
  /** The list's columns, in order (ids of the renderer's table); absent: fitted to the width. */
  columns: z.array(z.string().min(1).max(64)).max(64).optional(),
});
export type SavedView = z.infer<typeof savedView>;

/** An Electron accelerator such as `CommandOrControl+Alt+T`. */
const accelerator = z
  .string()
  .max(100)
  .regex(/^[A-Za-z0-9]+(\+[A-Za-z0-9]+)*$/, 'must look like CommandOrControl+Alt+T');

const feedMessage = 'must be an https:// address (plain http:// only to this machine)';

/**
 * Where the desktop app looks for updates: a generic feed (the folder holding electron-builder's
 * latest*.yml and installers). An update is code the app will run, so https only; plain http
 * only to this machine (a feed served for testing).
 */
export const updateFeedUrl = z
  .string()
  .max(2_000)
  .refine((text) => {
    const url = URL.parse(text);
    if (!url) return false;
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  }, feedMessage);

/** The whole settings record: what the host keeps (as JSON in its data dir) and answers. */
export const settings = z.strictObject({
  theme: z.enum(['system', 'light', 'dark']),
  /** Minutes without input before a running timer asks about the idle time. */
  idleMinutes: z.number().int().min(1).max(240),
  /** Starts/stops the last task's timer; null: no global shortcut. */
  globalShortcut: accelerator.nullable(),
  nativeNotifications: z.boolean(),
  savedViews: z.array(savedView).max(100),
  /** The update feed; null: updates are off (no check runs). */
  updateFeedUrl: updateFeedUrl.nullable(),
});
export type Settings = z.infer<typeof settings>;

export const defaultSettings: Settings = {
  theme: 'system',
  idleMinutes: 5,
  globalShortcut: 'CommandOrControl+Alt+T',
  nativeNotifications: true,
  savedViews: [],
  updateFeedUrl: null,
};

/** `settings.set` changes the keys it is given and answers the whole record. */
export const settingsPatch = settings.partial();

export const settingsMethods = {
  'settings.get': method(noInput, settings),
  'settings.set': method(settingsPatch, settings),
};
