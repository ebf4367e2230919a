import { z } from 'zod';
import { dateTime, id, opt, userRef } from './common';

/** Comment record: fields not shown by the spec; fixed here, read only. */
export const comment = z.looseObject({
  commentId: id,
  taskId: id,
  content: z.string(),
  createdBy: opt(userRef),
  createdTime: dateTime,
  modifiedTime: opt(dateTime),
});
export type Comment = z.infer<typeof comment>;
