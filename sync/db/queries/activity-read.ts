/**
 * Notifications, timers and comments read back as the server's DTOs, and the small views the
 * app polls often (unread badge, the running timer). All served by 0001/0002 indexes.
 */

import { sql } from 'kysely';
import type { Comment, Notification, TimerRecord } from '../../../shared/api';
import { type Page, pageOf, pageWindow } from '../../../shared/filters';
import { all, first, qb } from '../kysely';
import type { Sqlite } from '../open';
import type { CommentsTable, NotificationsTable, TimersTable } from '../types';
import { parseExtra, toIso } from './convert';
import { loadUserRefs, refOf } from './tasks-read';

// ---- timers --------------------------------------------------------------------------------

const TIMER_COLUMNS = [
  'track_id',
  'task_id',
  'project_id',
  'user_id',
  'state',
  'start_time',
  'end_time',
  'duration_seconds',
  'billing_status',
  'notes',
  'created_time',
  'modified_time',
  'observed_at',
  'extra',
] as const satisfies readonly (keyof TimersTable)[];

/**
 * The server's record, with a RUNNING timer's duration grown by the whole seconds since the
 * copy was taken (`observed_at`): the clock keeps ticking offline. A clock that went back
 * never shrinks it.
 */
export const timerDto = (r: TimersTable, nowMs: number): TimerRecord => {
  const grown = r.state === 'RUNNING' ? Math.max(0, Math.floor((nowMs - r.observed_at) / 1000)) : 0;
  return {
    ...parseExtra(r.extra),
    trackId: r.track_id,
    taskId: r.task_id,
    projectId: r.project_id,
    userId: r.user_id,
    state: r.state as TimerRecord['state'],
    startTime: r.start_time,
    endTime: r.end_time,
    durationSeconds: r.duration_seconds + grown,
    billingStatus: r.billing_status as TimerRecord['billingStatus'],
    notes: r.notes,
    createdTime: r.created_time,
    modifiedTime: r.modified_time,
  };
};

/** Timers of a task (the replica holds the signed-in user's), oldest first like the server. */
export const timersOfTask = (db: Sqlite, taskId: number, nowMs: number): TimerRecord[] =>
  all(
    db,
    qb
      .selectFrom('timers')
      .select(TIMER_COLUMNS)
      .where('task_id', '=', taskId)
      .orderBy('start_time')
      .orderBy('track_id'),
  ).map((r) => timerDto(r, nowMs));

/** The user's running or paused timer (the server allows one), or null. */
export const activeTimer = (db: Sqlite, userId: number, nowMs: number): TimerRecord | null => {
  const row = first(
    db,
    qb
      .selectFrom('timers')
      .select(TIMER_COLUMNS)
      .where('user_id', '=', userId)
      // A literal, not a bound value: only then can the planner use the partial index
      // timers_active (WHERE state <> 'STOPPED') instead of walking timers by start time.
      .where(sql<boolean>`state <> 'STOPPED'`)
      .orderBy('start_time', 'desc')
      .orderBy('track_id', 'desc')
      .limit(1),
  );
  return row ? timerDto(row, nowMs) : null;
};

/** A task timed lately: its line in the tray's and the timer's picker. */
export interface RecentlyTimed {
  taskId: number;
  taskTitle: string;
  projectId: number | null;
  lastTimedAt: number;
}

/** The `limit` tasks the user timed most recently that are still in the replica. */
export const recentlyTimedTasks = (db: Sqlite, userId: number, limit: number): RecentlyTimed[] =>
  all(
    db,
    qb
      .selectFrom('timers as tm')
      .innerJoin('tasks as t', 't.task_id', 'tm.task_id')
      .select([
        't.task_id as taskId',
        't.title as taskTitle',
        't.project_id as projectId',
        (eb) => eb.fn.max('tm.start_time').as('lastTimedAt'),
      ])
      .where('tm.user_id', '=', userId)
      .groupBy('t.task_id')
      .orderBy('lastTimedAt', 'desc')
      .orderBy('t.task_id', 'desc')
      .limit(limit),
  );

export const readTimer = (db: Sqlite, trackId: number, nowMs: number): TimerRecord | null => {
  const row = first(
    db,
    qb.selectFrom('timers').select(TIMER_COLUMNS).where('track_id', '=', trackId),
  );
  return row ? timerDto(row, nowMs) : null;
};

// ---- notifications -------------------------------------------------------------------------

const NOTIFICATION_COLUMNS = [
  'notification_id',
  'type',
  'title',
  'body',
  'task_id',
  'project_id',
  'read',
  'created_time',
  'extra',
] as const satisfies readonly (keyof NotificationsTable)[];

export const notificationDto = (r: NotificationsTable): Notification => ({
  ...parseExtra(r.extra),
  notificationId: r.notification_id,
  type: r.type,
  title: r.title,
  body: r.body,
  taskId: r.task_id,
  projectId: r.project_id,
  read: r.read === 1,
  createdTime: toIso(r.created_time) ?? new Date(0).toISOString(),
});

/** Newest first, id as the tie-breaker: the server's order (index notifications_unread). */
export const unreadNotifications = (db: Sqlite, opts: { limit?: number } = {}): Notification[] =>
  all(
    db,
    qb
      .selectFrom('notifications')
      .select(NOTIFICATION_COLUMNS)
      .where('read', '=', 0)
      .orderBy('created_time', 'desc')
      .orderBy('notification_id', 'desc')
      .limit(opts.limit ?? 50),
  ).map(notificationDto);

export const unreadCount = (db: Sqlite): number =>
  first(
    db,
    qb
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('read', '=', 0),
  )?.n ?? 0;

/** A window of the notifications, newest first, optionally unread only, and their total. */
export const notificationsWindow = (
  db: Sqlite,
  query: { unreadOnly?: boolean; limit: number; offset: number },
): { items: Notification[]; total: number } => {
  const base = qb.selectFrom('notifications');
  const scoped = query.unreadOnly ? base.where('read', '=', 0) : base;
  const total =
    first(
      db,
      scoped.select((eb) => eb.fn.countAll<number>().as('n')),
    )?.n ?? 0;
  const rows = all(
    db,
    scoped
      .select(NOTIFICATION_COLUMNS)
      .orderBy('created_time', 'desc')
      .orderBy('notification_id', 'desc')
      .limit(query.limit)
      .offset(query.offset),
  );
  return { items: rows.map(notificationDto), total };
};

/** GET /v1/notifications offline: a page, newest first, optionally unread only. */
export const listNotifications = (
  db: Sqlite,
  query: { page: number; size: number; unreadOnly?: boolean },
): Page<Notification> => {
  const window = pageWindow(query.page, query.size);
  const { items, total } = notificationsWindow(db, { unreadOnly: query.unreadOnly, ...window });
  return pageOf(items, total, query.page, query.size);
};

// ---- comments (lazy data: lazy-cache.ts stores them) ---------------------------------------

const COMMENT_COLUMNS = [
  'comment_id',
  'task_id',
  'content',
  'created_by',
  'created_time',
  'modified_time',
  'extra',
] as const satisfies readonly (keyof CommentsTable)[];

/**
 * Comments of a task as the server lists them: oldest first, id as the tie-breaker. The
 * author is a ref from `users` (server data: after a wipe, until the next pull, a bare
 * `{userId}`).
 */
export const commentsOfTask = (db: Sqlite, taskId: number): Comment[] => {
  const rows = all(
    db,
    qb
      .selectFrom('comments')
      .select(COMMENT_COLUMNS)
      .where('task_id', '=', taskId)
      .orderBy('created_time')
      .orderBy('comment_id'),
  );
  const users = loadUserRefs(
    db,
    rows.map((r) => r.created_by),
  );
  return rows.map(
    (r): Comment => ({
      ...parseExtra(r.extra),
      commentId: r.comment_id,
      taskId: r.task_id,
      content: r.content,
      createdBy: refOf(users, r.created_by),
      createdTime: toIso(r.created_time) ?? new Date(0).toISOString(),
      modifiedTime: toIso(r.modified_time),
    }),
  );
};
