import { emptyObject } from '../common';
import { page } from '../envelope';
import { notificationListQuery } from '../list-queries';
import { notification, notificationReadResponse } from '../notifications';
import { endpoint } from './define';

/** Notifications and Mentions: Notifications of the calling user. */
export const notificationEndpoints = {
  getNotifications: endpoint({
    tag: 'Notifications and Mentions',
    method: 'GET',
    path: '/v1/notifications',
    source: 'contract',
    summary: 'List notifications of the user, newest first',
    query: notificationListQuery,
    data: page(notification),
  }),
  markNotificationAsRead: endpoint({
    tag: 'Notifications and Mentions',
    method: 'PUT',
    path: '/v1/notifications/read/{notificationId}',
    source: 'spec',
    summary: 'Mark a notification read',
    data: notificationReadResponse,
  }),
  deleteNotification: endpoint({
    tag: 'Notifications and Mentions',
    method: 'DELETE',
    path: '/v1/notifications/{notificationId}',
    source: 'contract',
    summary: 'Delete a notification',
    data: emptyObject,
  }),
} as const;
