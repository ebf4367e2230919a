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

/** Where a task is: its space, project and (for a subtask) parent, by name. */
export const taskPath = z.object({
  space: z.object({ spaceId: entityId, name: z.string() }).nullable(),
  project: z.object({ projectId: entityId, name: z.string() }).nullable(),
  parent: z.object({ taskId: entityId, title: z.string() }).nullable(),
});
export type TaskPath = z.infer<typeof taskPath>;

/** A row of a task list: the task and where it is. */
export const listedTask = taskRow.extend({ path: taskPath });
export type ListedTask = z.infer<typeof listedTask>;

const count = z.number().int().min(0);

export const taskList = z.object({
  items: z.array(listedTask),
  total: count,
  /** The list's tasks per due group (shared/due-groups.ts), when asked with `dueGroupsOn`. */
  dueGroups: z
    .object({ overdue: count, today: count, upcoming: count, later: count, none: count })
    .optional(),
});

export const taskDetail = z.object({
  task: taskRow,
  path: taskPath,
  /** Direct subtasks, by id. */
  subtasks: z.array(taskRow),
  checklist: z.array(checklistRow),
  attachments: z.array(attachmentRow),
  /** The signed-in user's timers on this task, oldest first (a running one keeps growing). */
  timers: z.array(timerRow),
  /** Failed or conflicting edits of this task and its checklist/attachments/timers. */
  failedEdits: z.array(failedEdit),
});

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
      /** The user's today (UTC midnight of their calendar day): count the list's due groups. */
      dueGroupsOn: z.number().int().optional(),
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
  /** Tasks per status in a scope: statuses come from the data, open ones first. */
  'tasks.statusCounts': method(
    z.strictObject({ scope: taskScope }),
    z.object({ counts: z.array(statusCount) }),
  ),
};
