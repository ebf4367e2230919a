/** The activity views: notifications, comments, the timesheet and the timers. */
import type { TimerRecord } from '../../shared/api/timers';
import {
  activeTimer,
  notificationsWindow,
  recentlyTimedTasks,
  unreadCount,
} from '../db/queries/activity-read';
import { projectNames } from '../db/queries/projects-read';
import { taskPlace } from '../db/queries/tasks-read';
import type { Views } from './context';
import { withMark, withMarks } from './marks';

const DAY_MS = 86_400_000;
const RECENT_TASKS = 5;

const seconds = (t: TimerRecord) => t.durationSeconds;

/** Notifications, comments, the timesheet and the timers, under their bridge names. */
export const activityViews = {
  'notifications.list': (ctx, input) => {
    const { items, total } = notificationsWindow(ctx.db, input);
    return { items: withMarks(ctx.db, 'notification', items, (x) => x.notificationId), total };
  },

  'notifications.unreadCount': (ctx) => ({
    count: unreadCount(ctx.db),
  }),

  /** A task created offline has no comments on the server yet. */
  'comments.list': async (ctx, { taskId }) => {
    if (taskId < 0) return { items: [], source: 'cache' as const, fetchedAt: ctx.now };
    const lazy = await ctx.engine.lazy.comments(taskId);
    return {
      items: lazy.value,
      source: lazy.source,
      fetchedAt: lazy.fetchedAt,
      ...(lazy.offlineReason ? { offlineReason: lazy.offlineReason } : {}),
    };
  },

  /** A week view's figures: every UTC day of the range and each project, from the entries. */
  'timesheet.range': async (ctx, { from, to }) => {
    const lazy = await ctx.engine.lazy.timesheet({ kind: 'timesheet', from, to });
    const entries = withMarks(ctx.db, 'timer', lazy.value.entries, (t) => t.trackId);
    const days = new Map<number, number>();
    for (let day = Math.floor(from / DAY_MS) * DAY_MS; day < to; day += DAY_MS) days.set(day, 0);
    const perProject = new Map<number | null, number>();
    for (const e of entries) {
      const day = Math.floor(e.startTime / DAY_MS) * DAY_MS;
      days.set(day, (days.get(day) ?? 0) + seconds(e));
      const p = e.projectId ?? null;
      perProject.set(p, (perProject.get(p) ?? 0) + seconds(e));
    }
    const names = projectNames(
      ctx.db,
      [...perProject.keys()].filter((p): p is number => p !== null),
    );
    return {
      from,
      to,
      totalSeconds: entries.reduce((n, e) => n + seconds(e), 0),
      entries,
      days: [...days].sort(([a], [b]) => a - b).map(([day, s]) => ({ day, seconds: s })),
      projects: [...perProject]
        .map(([projectId, s]) => ({
          projectId,
          projectName: projectId === null ? null : (names.get(projectId) ?? null),
          seconds: s,
        }))
        .sort((a, b) => b.seconds - a.seconds),
      source: lazy.source,
      fetchedAt: lazy.fetchedAt,
      ...(lazy.offlineReason ? { offlineReason: lazy.offlineReason } : {}),
    };
  },

  'timers.active': (ctx) => {
    const timer = activeTimer(ctx.db, ctx.userId, ctx.now);
    if (!timer) return { active: null };
    const place = taskPlace(ctx.db, timer.taskId);
    return {
      active: {
        timer: withMark(ctx.db, 'timer', timer, timer.trackId),
        taskTitle: place?.title ?? null,
        projectId: place?.projectId ?? timer.projectId ?? null,
      },
    };
  },

  /** The tasks most recently timed that are still in the replica. */
  'timers.recentTasks': (ctx) => ({
    tasks: recentlyTimedTasks(ctx.db, ctx.userId, RECENT_TASKS),
  }),
} satisfies Partial<Views>;
