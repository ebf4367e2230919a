import type { Router } from '../http/route';
import { deleteNotification, listNotifications, markRead } from '../store/notifications';

/** Notifications and Mentions: always the calling user's, in the org of `X-Org-Id`. */
export const registerNotificationRoutes = (r: Router) => {
  const { db } = r.deps;
  r.op('getNotifications', ({ query, ctx }) => listNotifications(db, ctx, query));
  r.op('markNotificationAsRead', ({ params, ctx }) => markRead(db, ctx, params.notificationId));
  r.op('deleteNotification', ({ params, ctx }) => {
    deleteNotification(db, ctx, params.notificationId);
    return {};
  });
};
