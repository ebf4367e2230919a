import { z } from 'zod';
import { comment } from '../api/comments';
import { entityId } from '../edits/commands';
import { lazySource, listWindow, notificationRow, timerRow } from './common';
import { method, noInput } from './define';

export const timesheetView = z.object({
  from: z.number().int(),
  to: z.number().int(),
  totalSeconds: z.number().int().min(0),
  entries: z.array(timerRow),
  /** Seconds per UTC day (day = its midnight, epoch ms), every day of the range. */
  days: z.array(z.object({ day: z.number().int(), seconds: z.number().int().min(0) })),
  /** Seconds per project (null: personal tasks), most first. */
  projects: z.array(
    z.object({
      projectId: entityId.nullable(),
      projectName: z.string().nullable(),
      seconds: z.number().int().min(0),
    }),
  ),
  ...lazySource,
});
export type TimesheetView = z.infer<typeof timesheetView>;

export const activeTimerView = z.object({
  timer: timerRow,
  taskTitle: z.string().nullable(),
  projectId: entityId.nullable(),
});

export const recentTask = z.object({
  taskId: entityId,
  taskTitle: z.string(),
  projectId: entityId.nullable(),
  /** Start of the latest timer on the task, epoch ms. */
  lastTimedAt: z.number().int(),
});

const DAY_MS = 86_400_000;

export const attachmentFile = z.object({
  path: z.string(),
  url: z.string().nullable(),
  fileName: z.string(),
  contentType: z.string().nullable(),
  size: z.number().int().min(0),
  source: z.enum(['network', 'cache', 'outbox']),
  openedByHost: z.boolean(),
  /**
   * Set by the host that opened it: true when it showed the copy in its folder instead of
   * opening it (a type not on its list of documents it opens itself).
   */
  shownInFolder: z.boolean().optional(),
});
export type AttachmentFile = z.infer<typeof attachmentFile>;

export const activityMethods = {
  'notifications.list': method(
    z.strictObject({ unreadOnly: z.boolean().default(false), ...listWindow }),
    z.object({ items: z.array(notificationRow), total: z.number().int().min(0) }),
  ),
  'notifications.unreadCount': method(noInput, z.object({ count: z.number().int().min(0) })),
  /** Fetched when online (and cached), from the cache offline. */
  'comments.list': method(
    z.strictObject({ taskId: entityId }),
    z.object({ items: z.array(comment), ...lazySource }),
  ),
  /** The signed-in user's time entries in [from, to) (epoch ms, at most 62 days). */
  'timesheet.range': method(
    z
      .strictObject({ from: z.number().int(), to: z.number().int() })
      .refine((r) => r.to > r.from, { message: 'must be after from', path: ['to'] })
      .refine((r) => r.to - r.from <= 62 * DAY_MS, {
        message: 'a range spans at most 62 days',
        path: ['to'],
      }),
    timesheetView,
  ),
  /** The running or paused timer of the signed-in user. */
  'timers.active': method(noInput, z.object({ active: activeTimerView.nullable() })),
  /** The five tasks most recently timed (for the tray and quick start). */
  'timers.recentTasks': method(noInput, z.object({ tasks: z.array(recentTask) })),
  /**
   * The attachment's content as a local file (downloaded once, then served from the cache; one
   * still uploading, negative id, from its copy in the outbox). `url` is set where the UI opens
   * it itself (browser mode); `openedByHost`: the host already opened it with the system's app
   * or, for types it does not open, showed it in its folder (Electron), and the UI has nothing
   * more to do than say which.
   */
  'attachments.open': method(z.strictObject({ attachmentId: entityId }), attachmentFile),
};
