import { z } from 'zod';
import { dateTime, id, opt } from './common';

export const checklistItem = z.looseObject({
  checklistId: id,
  taskId: opt(id),
  subtaskId: opt(id),
  name: z.string(),
  completed: z.boolean(),
  assigneeId: opt(id),
  position: z.number().int().min(0),
  createdTime: opt(dateTime),
  modifiedTime: opt(dateTime),
});
export type ChecklistItem = z.infer<typeof checklistItem>;

const name = z.string().trim().min(1, 'must not be blank').max(500);

export const checklistCreateRequest = z.object({ name, assigneeId: id.nullish() });
export type ChecklistCreateRequest = z.infer<typeof checklistCreateRequest>;

/** Replaces name, state and assignee: an omitted assigneeId unassigns the item. */
export const checklistUpdateRequest = z.object({
  name,
  completed: z.boolean(),
  assigneeId: id.nullish(),
});
export type ChecklistUpdateRequest = z.infer<typeof checklistUpdateRequest>;
