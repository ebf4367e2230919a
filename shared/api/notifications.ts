import { z } from 'zod';
import { dateTime, id, opt } from './common';

export const notification = z.looseObject({
  notificationId: id,
  // Named by the contract; a type we do not know is kept as a string, not refused.
  type: z.string(),
  title: z.string(),
  body: opt(z.string()),
  taskId: opt(id),
  projectId: opt(id),
  read: z.boolean(),
  createdTime: dateTime,
});
export type Notification = z.infer<typeof notification>;

export const notificationReadResponse = z.looseObject({
  notificationId: id,
  read: z.literal(true),
  unreadCount: z.number().int().min(0),
});
export type NotificationReadResponse = z.infer<typeof notificationReadResponse>;
