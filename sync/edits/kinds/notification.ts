/** Notifications: mark read, delete. Never made here, so never local. */
import type { NotificationReadResponse } from '../../../shared/api';
import type { EditOf, EditResult } from '../../../shared/edits/commands';
import { stmt } from '../../db/kysely';
import type { Sqlite } from '../../db/open';
import { editExisting } from '../commit';
import { entityExists } from '../entities';
import { notInReplica, notificationState } from '../state';
import { deleteNotification, markNotificationRead } from '../write-groups';
import type { EditContext, EntityModule } from './types';

const edit = (
  db: Sqlite,
  c: EditOf<'notification.read' | 'notification.delete'>,
  ctx: EditContext,
): EditResult => {
  const id = c.notificationId;
  if (!entityExists(db, 'notification', id)) throw notInReplica(`notification ${id}`);
  const read = c.kind === 'notification.read';
  return editExisting(
    db,
    {
      kind: c.kind,
      entity: 'notification',
      id,
      operationId: read ? 'markNotificationAsRead' : 'deleteNotification',
      path: { notificationId: id },
      deep: !read,
    },
    ctx.now,
  );
};

export const notification: EntityModule<'notification'> = {
  kinds: {
    'notification.read': {
      apply: edit,
      effect: (db, { id }) => {
        markNotificationRead(db, id);
        return true;
      },
    },
    'notification.delete': {
      apply: edit,
      effect: (db, { id }) => {
        deleteNotification(db, id);
        return true;
      },
    },
  },
  rows: { column: 'notification_id', tables: ['notifications'], modifiedTime: false },
  state: notificationState,
  answer: {
    idField: 'notificationId',
    write: (db, item) => {
      const n = item as NotificationReadResponse;
      stmt(db, 'UPDATE notifications SET read = 1 WHERE notification_id = ?').run(n.notificationId);
    },
  },
  remove: (db, id) => {
    stmt(db, 'DELETE FROM notifications WHERE notification_id = ?').run(id);
  },
};
