import { z } from 'zod';
import {
  makePagingQuerySchema,
  type PagingRequest,
  type ProjectFilter,
  pageParamSchema,
  projectFilterKinds,
  projectFilterQuerySchema,
  projectSortProperties,
  sizeParamSchema,
  type TaskFilter,
  taskFilterKinds,
  taskFilterQuerySchema,
  taskSortProperties,
} from '../filters';
import type { FieldKinds } from '../filters/filter-query';

/** A query parameter: once or repeated; the client may give numbers and booleans. */
const scalar = z.union([z.string(), z.number(), z.boolean()]);
const rawParam = z.union([scalar, z.array(scalar)]).optional();
type Scalar = z.infer<typeof scalar>;

/** What a URL would carry: every value as text. */
const asText = (input: Record<string, Scalar | Scalar[] | undefined>) =>
  Object.fromEntries(
    Object.entries(input).map(([k, v]) => [
      k,
      Array.isArray(v) ? v.map(String) : v === undefined ? v : String(v),
    ]),
  );

/**
 * A paged list's query: the raw parameters (documented one by one, typed for the client) parsed
 * into paging, validated sort and the filter by the shared semantics (shared/filters). Issues
 * keep their parameter's path, so a 400 names the parameter.
 */
const listQuery = <F extends object>(
  kinds: FieldKinds<F>,
  filter: z.ZodType<F, Record<string, unknown>>,
  sortProperties: readonly string[],
) => {
  const paging = makePagingQuerySchema(sortProperties);
  const raw = Object.fromEntries(
    ['page', 'size', 'sort', ...Object.keys(kinds)].map((k) => [k, rawParam]),
  );
  return z.object(raw).transform((given, ctx): PagingRequest & F => {
    const input = asText(given);
    const p = paging.safeParse(input);
    const f = filter.safeParse(input);
    for (const issue of [...(p.error?.issues ?? []), ...(f.error?.issues ?? [])])
      ctx.addIssue({
        code: 'custom',
        message: issue.message,
        path: issue.path,
        input: issue.input,
      });
    if (!p.success || !f.success) return z.NEVER;
    return { ...f.data, ...p.data };
  });
};

type RawParams<K extends string> = { [P in K]?: Scalar | Scalar[] };

export const taskListQuery = listQuery<TaskFilter>(
  taskFilterKinds,
  taskFilterQuerySchema,
  taskSortProperties,
) as unknown as z.ZodType<
  PagingRequest & TaskFilter,
  RawParams<'page' | 'size' | 'sort' | keyof TaskFilter>
>;

export const projectListQuery = listQuery<ProjectFilter>(
  projectFilterKinds,
  projectFilterQuerySchema,
  projectSortProperties,
) as unknown as z.ZodType<
  PagingRequest & ProjectFilter,
  RawParams<'page' | 'size' | 'sort' | keyof ProjectFilter>
>;

const pagingOnly = { page: pageParamSchema, size: sizeParamSchema };

export const commentListQuery = z.object(pagingOnly);

const booleanParam = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true');

export const notificationListQuery = z.object({
  ...pagingOnly,
  unreadOnly: booleanParam.optional(),
});
