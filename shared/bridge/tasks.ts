import { z } from 'zod';
import { entityId } from '../edits/commands';
import {
  attachmentRow,
  checklistRow,
  listWindow,
  taskFilter,
  taskRow,
  taskScope,
  taskSort,
  timerRow,
} from './common';
import { method } from './define';
import { failedEdit } from './sync';

export const taskList = z.object({ items: z.array(taskRow), total: z.number().int().min(0) });

export const taskDetail = z.object({
  task: taskRow,
  /** Direct subtasks, by id. */
  subtasks: z.array(taskRow),
  checklist: z.array(checklistRow),
  attachments: z.array(attachmentRow),
  /** The signed-in user's timers on this task, oldest first (a running one keeps growing). */
  timers: z.array(timerRow),
  /** Failed or conflicting edits of this task and its checklist/attachments/timers. */
  failedEdits: z.array(failedEdit),
});
export type TaskDetailView = z.infer<typeof taskDetail>;

export const searchHit = z.object({
  taskId: entityId,
  title: z.string(),
  /** The best matching passage split into plain and highlighted parts (no HTML). */
  segments: z.array(z.object({ text: z.string(), hit: z.boolean() })),
  projectId: entityId.nullable(),
  projectName: z.string().nullable(),
  parentTaskId: entityId.nullable(),
  status: z.string().nullable(),
  completed: z.boolean(),
});
export type SearchHit = z.infer<typeof searchHit>;

export const statusCount = z.object({
  status: z.string().nullable(),
  count: z.number().int().min(0),
  completed: z.number().int().min(0),
});

export const taskMethods = {
  'tasks.list': method(
    z.strictObject({
      scope: taskScope,
      filter: taskFilter.default({}),
      sort: taskSort.default([]),
      ...listWindow,
    }),
    taskList,
  ),
  /** Null when the task is not (or no longer) in the replica. */
  'tasks.detail': method(z.strictObject({ taskId: entityId }), taskDetail.nullable()),
  'tasks.search': method(
    z.strictObject({
      text: z.string().max(500),
      limit: z.number().int().min(1).max(200).default(20),
      scope: taskScope.optional(),
    }),
    z.object({ hits: z.array(searchHit) }),
  ),
  /** Open tasks the user owns: overdue, due today, due in the next 7 days. */
  'tasks.myTasks': method(
    z.strictObject({ limit: z.number().int().min(1).max(200).default(20) }),
    z.object({
      overdue: z.array(taskRow),
      today: z.array(taskRow),
      upcoming: z.array(taskRow),
      counts: z.object({
        overdue: z.number().int(),
        today: z.number().int(),
        upcoming: z.number().int(),
      }),
    }),
  ),
  /** Tasks per status in a scope: statuses come from the data, open ones first. */
  'tasks.statusCounts': method(
    z.strictObject({ scope: taskScope }),
    z.object({ counts: z.array(statusCount) }),
  ),
};
