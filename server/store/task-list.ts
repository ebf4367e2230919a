import type { Task } from '../../shared/api';
import {
  compileOrderBy,
  compileTaskFilter,
  type Page,
  pageOf,
  pageWindow,
  type SortKey,
  type SqlFragment,
  standardTaskSqlShape,
  type TaskFilter,
  type TaskSqlShape,
  taskFilterKinds,
  taskSortColumns,
} from '../../shared/filters';
import type { Db } from '../db/open';
import { TASK_COLUMNS, type TaskRow, taskDtos } from './tasks-dto';

/** The server's tasks table as the shared filter compiler sees it (alias `t`). */
const taskShape: TaskSqlShape = standardTaskSqlShape;
const sortColumns = taskSortColumns(taskShape);

export interface ListQuery {
  page: number;
  size: number;
  sort: SortKey[];
}

/**
 * The filter part of a parsed list query: the keys of the filter table, whatever else the
 * query carries (page, size, sort).
 */
export const pickFilter = <F extends object>(kinds: Record<keyof F, unknown>, query: object): F => {
  const out: Record<string, unknown> = {};
  const q = query as Record<string, unknown>;
  for (const key of Object.keys(kinds)) if (q[key] !== undefined) out[key] = q[key];
  return out as F;
};

/**
 * One page of tasks: `scope` (org, live, which list) ANDed with the user's filters, sorted by
 * the validated keys with the id as the final tie-breaker, counted for Spring's page object.
 */
export const listTasks = (
  db: Db,
  scope: SqlFragment,
  query: ListQuery,
  now: number,
): Page<Task> => {
  const filter = compileTaskFilter(pickFilter<TaskFilter>(taskFilterKinds, query), taskShape, now);
  const where = `(${scope.sql}) AND (${filter.sql})`;
  const params = [...scope.params, ...filter.params];
  const { n } = db.prepare(`SELECT COUNT(*) AS n FROM tasks t WHERE ${where}`).get(...params) as {
    n: number;
  };
  const { limit, offset } = pageWindow(query.page, query.size);
  const orderBy = compileOrderBy(query.sort, sortColumns, sortColumns.taskId);
  const rows =
    offset >= n
      ? []
      : (db
          .prepare(`SELECT ${TASK_COLUMNS} FROM tasks t WHERE ${where} ${orderBy} LIMIT ? OFFSET ?`)
          .all(...params, limit, offset) as TaskRow[]);
  return pageOf(taskDtos(db, rows, now), n, query.page, query.size);
};
