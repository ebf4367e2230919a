/**
 * Which notifications are new since the engine last looked: those a pull brought, unread,
 * announced once (a first fill's are the past, not news).
 */
import type { Sqlite } from '../db/open';

const maxNotificationId = (db: Sqlite): number =>
  (
    db.prepare('SELECT max(notification_id) AS n FROM notifications').get() as {
      n: number | null;
    }
  ).n ?? 0;

export class NotificationWatch {
  private seen: number;

  constructor(private readonly db: Sqlite) {
    this.seen = maxNotificationId(db);
  }

  /** The ids of new unread notifications since the last call (none after a first fill). */
  arrived(firstFill: boolean): number[] {
    const rows = this.db
      .prepare(
        'SELECT notification_id AS id FROM notifications WHERE notification_id > ? AND read = 0 ORDER BY notification_id',
      )
      .all(this.seen) as { id: number }[];
    this.seen = Math.max(this.seen, maxNotificationId(this.db));
    return firstFill ? [] : rows.map((r) => r.id);
  }
}
