import { z } from 'zod';
import { dateTime, id, opt, userRef } from './common';
import { customField, customFieldValueInput } from './custom-fields';

/**
 * TaskDto (personal task, project task, subtask). Fields are fixed by the contract; all but
 * the identity and the title are optional so that a service sending less still parses.
 * `status` and `priority` are names learned from the data, never a fixed list.
 */
export const task = z.looseObject({
  taskId: id,
  tenantId: opt(id),
  spaceId: opt(id),
  projectId: opt(id),
  parentTaskId: opt(id),
  taskTitle: z.string(),
  description: opt(z.string()),
  status: opt(z.string()),
  priority: opt(z.string()),
  tags: opt(z.array(z.string())),
  owners: opt(z.array(userRef)),
  startDate: opt(dateTime),
  dueDate: opt(dateTime),
  completion: opt(z.number().int()),
  completedTime: opt(dateTime),
  overdue: opt(z.boolean()),
  createdBy: opt(userRef),
  modifiedBy: opt(userRef),
  createdTime: opt(dateTime),
  modifiedTime: opt(dateTime),
  deleted: opt(z.boolean()),
  deletedTime: opt(dateTime),
  customFields: opt(z.array(customField)),
  subtaskCount: opt(z.number().int()),
  checklistCount: opt(z.number().int()),
  checklistCompletedCount: opt(z.number().int()),
  attachmentCount: opt(z.number().int()),
});
export type Task = z.infer<typeof task>;

const title = z.string().trim().min(1, 'must not be blank').max(500);

/**
 * The project-task create body of spec part 4. The contract uses the same fields for every
 * task create and update body (TaskCreateRequest, TaskUpdateRequest, the subtask bodies).
 * `customFieldValues` is this client's and the reference server's extension.
 */
export const taskCreateRequest = z.object({
  taskTitle: title,
  description: z.string().max(50_000).optional(),
  owners: z.array(id).max(100).optional(),
  startDate: dateTime.nullish(),
  dueDate: dateTime.nullish(),
  completion: z.number().int().min(0).max(100).optional(),
  status: z.string().trim().min(1).max(50).optional(),
  priority: z.string().trim().min(1).max(50).optional(),
  tags: z.array(z.string().trim().min(1).max(50)).max(50).optional(),
  customFieldValues: z.array(customFieldValueInput).max(100).optional(),
});
export type TaskCreateRequest = z.infer<typeof taskCreateRequest>;

/** An update sends the full editable state (contract): same fields as a create. */
export const taskUpdateRequest = taskCreateRequest;
export type TaskUpdateRequest = z.infer<typeof taskUpdateRequest>;

export const projectTaskCreateRequest = taskCreateRequest;
export const projectTaskUpdateRequest = taskCreateRequest;
export const generalSubtaskCreateRequest = taskCreateRequest;
export const generalSubtaskUpdateRequest = taskCreateRequest;
export const projectSubtaskCreateRequest = taskCreateRequest;
export const projectSubtaskUpdateRequest = taskCreateRequest;
