import type { Notification, NotificationReadResponse } from '../../shared/api';
import { type Page, pageOf, pageWindow } from '../../shared/filters/paging';
import type { Db } from '../db/open';
import { notFound } from '../http/errors';
import { iso } from './time';

/**
 * The caller's notifications in one org. Rows are written by the task routes (assignment,
 * @mention); here they are only read, marked read and deleted. Another user's notification is
 * a 404, exactly like one that does not exist.
 */
interface NotificationRow {
  notification_id: number;
  type: string;
  title: string;
  body: string;
  task_id: number | null;
  project_id: number | null;
  read: number;
  created_time: number;
}
const columns = 'notification_id, type, title, body, task_id, project_id, read, created_time';

export interface Recipient {
  userId: number;
  orgId: number;
}

const dto = (r: NotificationRow): Notification => ({
  notificationId: r.notification_id,
  type: r.type,
  title: r.title,
  body: r.body,
  taskId: r.task_id,
  projectId: r.project_id,
  read: r.read === 1,
  createdTime: iso(r.created_time) as string,
});

/** Newest first; ties broken by id so that paging never repeats or skips one. */
export const listNotifications = (
  db: Db,
  who: Recipient,
  q: { page: number; size: number; unreadOnly?: boolean },
): Page<Notification> & Record<string, unknown> => {
  const where = `org_id = ? AND user_id = ?${q.unreadOnly ? ' AND read = 0' : ''}`;
  const { total } = db
    .prepare(`SELECT COUNT(*) AS total FROM notifications WHERE ${where}`)
    .get(who.orgId, who.userId) as { total: number };
  const { limit, offset } = pageWindow(q.page, q.size);
  const rows = db
    .prepare(
      `SELECT ${columns} FROM notifications WHERE ${where} ORDER BY created_time DESC, notification_id DESC LIMIT ? OFFSET ?`,
    )
    .all(who.orgId, who.userId, limit, offset) as NotificationRow[];
  // Spread: the contract's page type is an open object, the interface is not.
  return { ...pageOf(rows.map(dto), total, q.page, q.size) };
};

const ownRow = (db: Db, who: Recipient, notificationId: number): void => {
  const row = db
    .prepare('SELECT 1 FROM notifications WHERE notification_id = ? AND org_id = ? AND user_id = ?')
    .get(notificationId, who.orgId, who.userId);
  if (!row) throw notFound(`notification ${notificationId}`);
};

/** Idempotent: marking a read notification read again answers the same. */
export const markRead = (
  db: Db,
  who: Recipient,
  notificationId: number,
): NotificationReadResponse => {
  ownRow(db, who, notificationId);
  db.prepare('UPDATE notifications SET read = 1 WHERE notification_id = ?').run(notificationId);
  const { unread } = db
    .prepare(
      'SELECT COUNT(*) AS unread FROM notifications WHERE org_id = ? AND user_id = ? AND read = 0',
    )
    .get(who.orgId, who.userId) as { unread: number };
  return { notificationId, read: true, unreadCount: unread };
};

export const deleteNotification = (db: Db, who: Recipient, notificationId: number): void => {
  ownRow(db, who, notificationId);
  db.prepare('DELETE FROM notifications WHERE notification_id = ?').run(notificationId);
};
