import type { Notification, TimerRecord } from '../../../shared/api';
import { stmt } from '../kysely';
import type { Sqlite } from '../open';
import { bit, extraOf, toMs } from './convert';

const notificationKeys = new Set([
  'notificationId',
  'type',
  'title',
  'body',
  'taskId',
  'projectId',
  'read',
  'createdTime',
]);
const timerKeys = new Set([
  'trackId',
  'taskId',
  'projectId',
  'userId',
  'state',
  'startTime',
  'endTime',
  'durationSeconds',
  'billingStatus',
  'notes',
  'createdTime',
  'modifiedTime',
]);

export const writeNotification = (db: Sqlite, n: Notification): void => {
  stmt(
    db,
    `INSERT OR REPLACE INTO notifications (notification_id, type, title, body, task_id, project_id, read, created_time, extra)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    n.notificationId,
    n.type,
    n.title,
    n.body ?? null,
    n.taskId ?? null,
    n.projectId ?? null,
    bit(n.read),
    toMs(n.createdTime) ?? 0,
    extraOf(n, notificationKeys),
  );
};

/** The notification list is the whole truth for the ids it covers: others are gone. */
export const replaceNotifications = (db: Sqlite, items: readonly Notification[]): void => {
  stmt(
    db,
    'DELETE FROM notifications WHERE notification_id NOT IN (SELECT value FROM json_each(?))',
  ).run(JSON.stringify(items.map((n) => n.notificationId)));
  for (const n of items) writeNotification(db, n);
};

/** `observedAt`: when the server's copy was taken, so a running timer can keep counting locally. */
export const writeTimer = (db: Sqlite, t: TimerRecord, observedAt: number): void => {
  stmt(
    db,
    `INSERT OR REPLACE INTO timers (track_id, task_id, project_id, user_id, state, start_time, end_time, duration_seconds,
       billing_status, notes, created_time, modified_time, observed_at, extra)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    t.trackId,
    t.taskId,
    t.projectId ?? null,
    t.userId,
    t.state,
    t.startTime,
    t.endTime ?? null,
    t.durationSeconds,
    t.billingStatus ?? null,
    t.notes ?? null,
    t.createdTime ?? null,
    t.modifiedTime ?? null,
    observedAt,
    extraOf(t, timerKeys),
  );
};

/** The active-timers answer is complete for active timers: one no longer listed has stopped. */
export const replaceActiveTimers = (
  db: Sqlite,
  active: readonly TimerRecord[],
  observedAt: number,
): void => {
  stmt(
    db,
    "DELETE FROM timers WHERE state <> 'STOPPED' AND track_id NOT IN (SELECT value FROM json_each(?))",
  ).run(JSON.stringify(active.map((t) => t.trackId)));
  for (const t of active) writeTimer(db, t, observedAt);
};
