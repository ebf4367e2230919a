import { z } from 'zod';
import { attachmentWithState } from '../api/attachments';
import { checklistItem } from '../api/checklists';
import { notification } from '../api/notifications';
import { project } from '../api/projects';
import { space } from '../api/spaces';
import { task } from '../api/tasks';
import { timerRecord } from '../api/timers';
import { entityId } from '../edits/commands';
import { customFieldConditionNames, parseCustomFieldsJson } from '../filters/custom-fields';
import { MAX_LIST_VALUES } from '../filters/query-values';
import { rangeFilterShape } from '../filters/ranges';
import { type ListTaskFilter, taskSortProperties } from '../filters/sql';

/**
 * Pieces several domains share: rows as the replica holds them (ids may be local, negative,
 * for entities created offline) with their sync mark, the task scopes, filters and sorting.
 */

/** Where a row stands against the server: unsent edits (pending) or edits that need the user. */
export const syncMark = z.enum(['synced', 'pending', 'failed', 'conflict']);
export type SyncMark = z.infer<typeof syncMark>;

const marked = { sync: syncMark };

export const taskRow = task.extend({
  taskId: entityId,
  projectId: entityId.nullish(),
  parentTaskId: entityId.nullish(),
  spaceId: entityId.nullish(),
  ...marked,
});
export type TaskRow = z.infer<typeof taskRow>;

export const checklistRow = checklistItem.extend({
  checklistId: entityId,
  taskId: entityId.nullish(),
  subtaskId: entityId.nullish(),
  ...marked,
});
export type ChecklistRow = z.infer<typeof checklistRow>;

export const attachmentRow = attachmentWithState.extend({
  attachmentId: entityId,
  taskId: entityId.nullish(),
  subtaskId: entityId.nullish(),
  projectId: entityId.nullish(),
  ...marked,
});
export type AttachmentRow = z.infer<typeof attachmentRow>;

export const timerRow = timerRecord.extend({
  trackId: entityId,
  taskId: entityId,
  projectId: entityId.nullish(),
  ...marked,
});
export type TimerRow = z.infer<typeof timerRow>;

export const projectRow = project.extend({
  projectId: entityId,
  spaceId: entityId,
  ...marked,
});
export type ProjectRow = z.infer<typeof projectRow>;

export const spaceRow = space.extend({ spaceId: entityId, ...marked });

export const notificationRow = notification.extend({
  taskId: entityId.nullish(),
  projectId: entityId.nullish(),
  ...marked,
});
export type NotificationRow = z.infer<typeof notificationRow>;

/**
 * Which tasks a list shows: a user's personal tasks (top level, no project), a project's top
 * level tasks, a task's subtasks, or every task the signed-in user owns at any level.
 */
export const taskScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('personal') }),
  z.object({ kind: z.literal('project'), projectId: entityId }),
  z.object({ kind: z.literal('subtasks'), parentTaskId: entityId }),
  z.object({ kind: z.literal('my') }),
]);
export type BridgeTaskScope = z.infer<typeof taskScope>;

const names = z.array(z.string().trim().min(1).max(200)).max(MAX_LIST_VALUES);
const userIds = z.array(z.number().int().min(1)).max(MAX_LIST_VALUES);

/** `{field, condition, value}` as the spec's customFields filter; normalised by shared/filters. */
const customFieldConditions = z
  .array(
    z.object({
      field: z.string().trim().min(1).max(200),
      condition: z
        .string()
        .refine(
          (c) => (customFieldConditionNames as readonly string[]).includes(c.trim().toUpperCase()),
          `must be one of ${customFieldConditionNames.join(', ')}`,
        ),
      value: z
        .array(z.union([z.string().max(1_000), z.number()]))
        .max(2)
        .nullish(),
    }),
  )
  .max(50)
  .transform((conditions, ctx) => {
    const parsed = parseCustomFieldsJson(JSON.stringify(conditions));
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.message });
      return z.NEVER;
    }
    return parsed.value ?? [];
  });

/**
 * The spec's task filters (shared/filters TaskFilter) as JSON rather than query text. Its dates
 * are epoch ms and match the same UTC day, as on the server; `dates` and `numbers` are the
 * app's day rules and comparisons (shared/filters/ranges), saved with views.
 */
export const taskFilter = z
  .strictObject({
    title: z.string().max(500).optional(),
    status: names.optional(),
    priority: names.optional(),
    tags: names.optional(),
    creators: userIds.optional(),
    owners: userIds.optional(),
    startDate: z.number().int().optional(),
    dueDate: z.number().int().optional(),
    createdTime: z.number().int().optional(),
    modifiedTime: z.number().int().optional(),
    overdue: z.boolean().optional(),
    dueDateSet: z.boolean().optional(),
    pending: z.boolean().optional(),
    upcoming: z.boolean().optional(),
    customFields: customFieldConditions.optional(),
    ...rangeFilterShape,
  })
  .transform((f): ListTaskFilter => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(f)) if (v !== undefined) out[k] = v;
    return out as ListTaskFilter;
  });
export type BridgeTaskFilter = z.input<typeof taskFilter>;

/** Multi-key sort, first key first; the task id breaks the last tie. */
export const taskSort = z
  .array(
    z.strictObject({
      property: z.enum(taskSortProperties),
      direction: z.enum(['asc', 'desc']).default('asc'),
    }),
  )
  .max(taskSortProperties.length);
export type BridgeTaskSort = z.input<typeof taskSort>;

/** A window of a long list (virtual scrolling asks by offset). */
export const listWindow = {
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(500).default(100),
};

/** Where a lazily fetched answer came from (comments, timesheets, attachment content). */
export const lazySource = {
  source: z.enum(['network', 'cache']),
  fetchedAt: z.number().int(),
  /** Why the server was not asked (or did not answer) when the cache answered. */
  offlineReason: z.string().optional(),
};
