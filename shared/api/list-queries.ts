import { z } from 'zod';
import { makeSortSchema, pagingQuerySchema } from '../filters/paging';
import { projectFilterQuerySchema } from '../filters/project-filter';
import { projectSortProperties, taskSortProperties } from '../filters/sql';
import { taskFilterQuerySchema } from '../filters/task-filter';

/** Query of the paged task lists: paging, multi-key sort and every task filter of spec part 4. */
export const taskListQuery = z.object({
  ...pagingQuerySchema.shape,
  sort: makeSortSchema(taskSortProperties),
  ...taskFilterQuerySchema.shape,
});
export type TaskListQuery = z.input<typeof taskListQuery>;

export const projectListQuery = z.object({
  ...pagingQuerySchema.shape,
  sort: makeSortSchema(projectSortProperties),
  ...projectFilterQuerySchema.shape,
});
export type ProjectListQuery = z.input<typeof projectListQuery>;

const pagingOnly = { page: pagingQuerySchema.shape.page, size: pagingQuerySchema.shape.size };

export const commentListQuery = z.object(pagingOnly);

const booleanParam = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true');

export const notificationListQuery = z.object({ ...pagingOnly, unreadOnly: booleanParam.optional() });
