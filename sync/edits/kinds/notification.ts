/** Notifications: mark read, delete. Never made here, so never local. */
import type { NotificationReadResponse } from '../../../shared/api';
import type { EditOf, EditResult } from '../../../shared/edits/commands';
import { entityExists } from '../../db/entity-rows';
import { stmt } from '../../db/kysely';
import { notInReplica } from '../state';
import { deleteNotification, markNotificationRead } from '../write-groups';
import type { EditTx, EntityModule } from './types';

const edit = (tx: EditTx, c: EditOf<'notification.read' | 'notification.delete'>): EditResult => {
  const id = c.notificationId;
  if (!entityExists(tx.db, 'notification', id)) throw notInReplica(`notification ${id}`);
  const read = c.kind === 'notification.read';
  return tx.existing({
    kind: c.kind,
    entity: 'notification',
    id,
    operationId: read ? 'markNotificationAsRead' : 'deleteNotification',
    path: { notificationId: id },
    deep: !read,
  });
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
  traits: { listedPartly: true },
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
