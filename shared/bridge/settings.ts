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

/**
 * How often, in seconds, the engine asks the server for changes when nothing else prompts it
 * (an edit is sent at once whatever this says). Under 10 s asks a busy server for little news;
 * past an hour a second device's work shows up too late to be worth calling "synced".
 */
export const syncIntervalSeconds = z
  .number()
  .int('must be a whole number of seconds')
  .min(10, 'must be at least 10 seconds')
  .max(3_600, 'must be at most an hour (3600 seconds)');

/** The notification kinds of the service (api-contract.md, Notifications). */
export const notificationKinds = ['MENTION', 'ASSIGNED', 'COMMENT', 'DUE', 'STATUS'] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** The kinds that raise a desktop notification, each at most once. */
export const notifyKinds = z
  .array(z.enum(notificationKinds))
  .max(notificationKinds.length)
  .refine((kinds) => new Set(kinds).size === kinds.length, 'must not name a kind twice');

/** The whole settings record: what the host keeps (as JSON in its data dir) and answers. */
export const settings = z.strictObject({
  theme: z.enum(['system', 'light', 'dark']),
  /** Minutes without input before a running timer asks about the idle time. */
  idleMinutes: z.number().int().min(1).max(240),
  /** Starts/stops the last task's timer; null: no global shortcut. */
  globalShortcut: accelerator.nullable(),
  nativeNotifications: z.boolean(),
  /** Which new notifications a desktop notification announces (with `nativeNotifications`). */
  notifyKinds,
  syncIntervalSeconds,
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
  notifyKinds: ['MENTION', 'ASSIGNED'],
  syncIntervalSeconds: 30,
  savedViews: [],
  updateFeedUrl: null,
};

/** `settings.set` changes the keys it is given and answers the whole record. */
export const settingsPatch = settings.partial();

export const settingsMethods = {
  'settings.get': method(noInput, settings),
  'settings.set': method(settingsPatch, settings),
};
