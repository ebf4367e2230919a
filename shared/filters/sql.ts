/**
 * List filters, sorting and paging compiled to SQLite: the single source of truth for what a
 * list shows, shared by the reference server and the client's local replica so that a list is
 * identical online and offline. Each store describes its tables with a shape; the compilers
 * return a boolean SQL expression (`1` for "no filter") with positional `?` params, to be ANDed
 * into the caller's WHERE clause. Every user value is bound as a param; only shape names
 * (trusted code) become SQL text.
 *
 * Semantics
 * - All given filters are ANDed. An array filter matches ANY of its values; an empty array is
 *   no filter (the query parser never produces one).
 * - Names (status, priority, tags, health) match by case-insensitive equality; `title` is a
 *   case-insensitive substring of the task title / project name. LIKE wildcards (% _ \) in user
 *   text match literally. Case folding is SQLite's lower(): ASCII letters only, identically in
 *   both stores.
 * - `creators`: createdBy is one of the ids. `owners`: any owner of the task is one of the ids.
 *   Project `members`: any member is one of the ids. `tags`: any tag is one of the names.
 * - startDate, dueDate, createdTime, modifiedTime: the column falls on the same UTC calendar day
 *   as the given instant. A NULL column never matches. (The app's own lists use the day ranges
 *   of ./ranges instead; these stay for the spec and for filters saved before them.)
 * - dates, numbers (the app's lists, never the query string): see ./sql-ranges.
 * - `overdue=true`: dueDate < now and not completed. `overdue=false`: everything else,
 *   including items without a due date and completed items.
 * - `upcoming=true`: now <= dueDate < now + 7 days and not completed; `false`: everything else.
 * - `pending=true`: not completed; `false`: completed. A NULL `completed` counts as 0.
 * - `dueDateSet=true`: dueDate is not NULL; `false`: it is NULL.
 * - `isPublic` (projects): equality; NULL counts as false.
 * - customFields (tasks; details in ./sql-custom-fields): a condition targets every field
 *   definition with that name (case-insensitive); positive conditions hold when one of the
 *   task's values for such a field satisfies them; ISNOT / NOTCONTAINS / ISEMPTY hold when none
 *   of its values satisfies IS / CONTAINS / ISNOTEMPTY (so "no value" matches them).
 *   Text conditions compare `text` case-insensitively: IS equal, CONTAINS, STARTSWITH, ENDSWITH.
 *   A value is empty when it has no row, or its text is NULL/'' and its number NULL.
 *   On DATE fields (by the definition's type): IS = `num` on the same UTC day as the value
 *   (ISNOT its negation), BEFORE num < v, AFTER num > v, BETWEEN a <= num <= b (inclusive, a and
 *   b in any order), NOTBETWEEN has a value outside [a, b], TODAY / TOMORROW num within the UTC
 *   day of now / of now + 1 day. A date-only condition on a non-DATE field matches nothing.
 * - Sort: each key NULLS LAST in both directions, text compared with COLLATE NOCASE (harmless
 *   on numbers), then the id ascending as the final tie-breaker so pages never overlap or skip.
 *   With no sort the order is the id ascending. Status and priority sort by their names.
 */
import type { SortKey } from './paging';
import type { ProjectFilter } from './project-filter';
import type { RangeFilter } from './ranges';
import { type CustomFieldsSqlShape, compileCustomFieldCondition } from './sql-custom-fields';
import {
  AliasPool,
  and,
  columnRef,
  DAY_MS,
  frag,
  intIn,
  likeText,
  nameIn,
  not,
  type SqlFragment,
  sameUtcDay,
  tableRef,
} from './sql-fragment';
import { rangeParts } from './sql-ranges';
import type { TaskFilter } from './task-filter';

export type { SqlFragment } from './sql-fragment';

/** Column names of the aliased main table; a column may also be a parenthesised expression. */
export interface TaskSqlShape extends CustomFieldsSqlShape {
  /** Alias of the task table in the caller's FROM clause, e.g. "t". */
  alias: string;
  columns: {
    id: string;
    title: string;
    status: string;
    priority: string;
    createdBy: string;
    startDate: string;
    dueDate: string;
    createdTime: string;
    modifiedTime: string;
    /** INTEGER 0/1, 1 when the task is complete. */
    completed: string;
    completion: string;
  };
  /** One row per (task, tag). */
  tags: { table: string; taskId: string; name: string };
  /** One row per (task, owner). */
  owners: { table: string; taskId: string; userId: string };
}

export interface ProjectSqlShape {
  /** Alias of the project table in the caller's FROM clause, e.g. "p". */
  alias: string;
  columns: {
    id: string;
    name: string;
    statusName: string;
    priorityLabel: string;
    healthLabel: string;
    /** INTEGER 0/1. */
    isPublic: string;
    createdBy: string;
    startDate: string;
    dueDate: string;
    createdTime: string;
    modifiedTime: string;
    /** INTEGER 0/1, 1 when the project is complete. */
    completed: string;
    completion: string;
  };
  /** One row per (project, tag). */
  tags: { table: string; projectId: string; name: string };
  /** One row per (project, member). */
  members: { table: string; projectId: string; userId: string };
}

/** Sort properties accepted by task lists: the TaskDto property names. */
export const taskSortProperties = [
  'taskId',
  'taskTitle',
  'status',
  'priority',
  'startDate',
  'dueDate',
  'createdTime',
  'modifiedTime',
  'completion',
] as const;
export type TaskSortProperty = (typeof taskSortProperties)[number];

/** Sort properties accepted by project lists: the project DTO property names. */
export const projectSortProperties = [
  'projectId',
  'projectName',
  'startDate',
  'dueDate',
  'createdTime',
  'modifiedTime',
  'completion',
] as const;
export type ProjectSortProperty = (typeof projectSortProperties)[number];

const UPCOMING_WINDOW_MS = 7 * DAY_MS;

const isSet = <T>(list: readonly T[] | undefined): list is readonly T[] =>
  list !== undefined && list.length > 0;

/** EXISTS a row of a child table (tags, owners, members) of the item that satisfies `pred`. */
function existsChild(
  aliases: AliasPool,
  child: { table: string; parentId: string },
  parentIdRef: string,
  pred: (alias: string) => SqlFragment,
): SqlFragment {
  const a = aliases.take();
  const p = pred(a);
  return {
    sql: `EXISTS (SELECT 1 FROM ${tableRef(child.table)} AS ${a} WHERE ${columnRef(a, child.parentId)} = ${parentIdRef} AND (${p.sql}))`,
    params: p.params,
  };
}

/** Filters shared by tasks and projects: dates, lifecycle flags, creators. */
interface CommonFilter {
  title?: string;
  creators?: number[];
  startDate?: number;
  dueDate?: number;
  createdTime?: number;
  modifiedTime?: number;
  overdue?: boolean;
  dueDateSet?: boolean;
  pending?: boolean;
  upcoming?: boolean;
}
interface CommonRefs {
  title: string;
  createdBy: string;
  startDate: string;
  dueDate: string;
  createdTime: string;
  modifiedTime: string;
  completed: string;
}

/** The refs of the common filters: the same column names in both shapes, but the title's. */
const commonRefs = (
  col: (name: Exclude<keyof CommonRefs, 'title'>) => string,
  title: string,
): CommonRefs => ({
  title,
  createdBy: col('createdBy'),
  startDate: col('startDate'),
  dueDate: col('dueDate'),
  createdTime: col('createdTime'),
  modifiedTime: col('modifiedTime'),
  completed: col('completed'),
});

/** Some row of `child` for the parent `parentIdRef` has `column` among `values`. */
const childIn = <V>(
  aliases: AliasPool,
  parentIdRef: string,
  child: { table: string; parentId: string },
  column: string,
  values: readonly V[],
  match: (ref: string, values: readonly V[]) => SqlFragment,
): SqlFragment =>
  existsChild(aliases, child, parentIdRef, (a) => match(columnRef(a, column), values));

/** The positive form when true, its negation when false (the positive forms are never NULL). */
const flag = (value: boolean, positive: SqlFragment): SqlFragment =>
  value ? positive : not(positive);

function commonParts(filter: CommonFilter, c: CommonRefs, nowMs: number): SqlFragment[] {
  const parts: SqlFragment[] = [];
  const notCompleted = `COALESCE(${c.completed}, 0) = 0`;
  if (filter.title) parts.push(likeText(c.title, filter.title, 'contains'));
  if (isSet(filter.creators)) parts.push(intIn(c.createdBy, filter.creators));
  const days = [
    [filter.startDate, c.startDate],
    [filter.dueDate, c.dueDate],
    [filter.createdTime, c.createdTime],
    [filter.modifiedTime, c.modifiedTime],
  ] as const;
  for (const [ms, column] of days) if (ms !== undefined) parts.push(sameUtcDay(column, ms));
  if (filter.overdue !== undefined) {
    const overdue = frag(
      `${c.dueDate} IS NOT NULL AND ${c.dueDate} < ? AND ${notCompleted}`,
      nowMs,
    );
    parts.push(flag(filter.overdue, overdue));
  }
  if (filter.upcoming !== undefined) {
    const upcoming = frag(
      `${c.dueDate} IS NOT NULL AND ${c.dueDate} >= ? AND ${c.dueDate} < ? AND ${notCompleted}`,
      nowMs,
      nowMs + UPCOMING_WINDOW_MS,
    );
    parts.push(flag(filter.upcoming, upcoming));
  }
  if (filter.pending !== undefined) parts.push(flag(filter.pending, frag(notCompleted)));
  if (filter.dueDateSet !== undefined) {
    parts.push(flag(filter.dueDateSet, frag(`${c.dueDate} IS NOT NULL`)));
  }
  return parts;
}

/** A list filter of the app: the spec's filters plus range conditions. */
export type ListTaskFilter = TaskFilter & RangeFilter;
export type ListProjectFilter = ProjectFilter & RangeFilter;

/**
 * WHERE-clause expression for a task list; `nowMs` anchors overdue, upcoming, TODAY, TOMORROW
 * and the relative days of range conditions.
 */
export function compileTaskFilter(
  filter: ListTaskFilter,
  shape: TaskSqlShape,
  nowMs: number,
): SqlFragment {
  const col = (name: keyof TaskSqlShape['columns']) => columnRef(shape.alias, shape.columns[name]);
  const aliases = new AliasPool(shape.alias);
  const id = col('id');
  const parts = commonParts(filter, commonRefs(col, col('title')), nowMs);
  if (isSet(filter.status)) parts.push(nameIn(col('status'), filter.status));
  if (isSet(filter.priority)) parts.push(nameIn(col('priority'), filter.priority));
  const { tags, owners } = filter;
  if (isSet(tags)) {
    const t = shape.tags;
    parts.push(childIn(aliases, id, { table: t.table, parentId: t.taskId }, t.name, tags, nameIn));
  }
  if (isSet(owners)) {
    const o = shape.owners;
    parts.push(
      childIn(aliases, id, { table: o.table, parentId: o.taskId }, o.userId, owners, intIn),
    );
  }
  for (const cond of filter.customFields ?? []) {
    parts.push(compileCustomFieldCondition(cond, shape, id, aliases, nowMs));
  }
  const ranges = { column: col, customFields: { shape, itemIdRef: id, aliases } };
  parts.push(...rangeParts(filter, ranges, nowMs));
  return and(parts);
}

/** WHERE-clause expression for a project list; `nowMs` anchors overdue, upcoming, relative days. */
export function compileProjectFilter(
  filter: ListProjectFilter,
  shape: ProjectSqlShape,
  nowMs: number,
): SqlFragment {
  const col = (name: keyof ProjectSqlShape['columns']) =>
    columnRef(shape.alias, shape.columns[name]);
  const aliases = new AliasPool(shape.alias);
  const id = col('id');
  const parts = commonParts(filter, commonRefs(col, col('name')), nowMs);
  if (isSet(filter.status)) parts.push(nameIn(col('statusName'), filter.status));
  if (isSet(filter.priority)) parts.push(nameIn(col('priorityLabel'), filter.priority));
  if (isSet(filter.health)) parts.push(nameIn(col('healthLabel'), filter.health));
  if (filter.isPublic !== undefined) {
    parts.push(flag(filter.isPublic, frag(`COALESCE(${col('isPublic')}, 0) <> 0`)));
  }
  const { tags, members } = filter;
  if (isSet(tags)) {
    const t = shape.tags;
    parts.push(
      childIn(aliases, id, { table: t.table, parentId: t.projectId }, t.name, tags, nameIn),
    );
  }
  if (isSet(members)) {
    const m = shape.members;
    parts.push(
      childIn(aliases, id, { table: m.table, parentId: m.projectId }, m.userId, members, intIn),
    );
  }
  parts.push(...rangeParts(filter, { column: col }, nowMs));
  return and(parts);
}

/**
 * `ORDER BY ...` for validated sort keys. `columns` maps each sort property to trusted SQL
 * (see taskSortColumns / projectSortColumns); `idColumn` is appended ascending as the final
 * tie-breaker unless a key already sorts by it. An unmapped property is a programming error.
 */
export function compileOrderBy(
  sort: readonly SortKey[],
  columns: Record<string, string>,
  idColumn: string,
): string {
  const terms: string[] = [];
  const used = new Set<string>();
  for (const key of sort) {
    const column = Object.hasOwn(columns, key.property) ? columns[key.property] : undefined;
    if (column === undefined)
      throw new Error(`compileOrderBy: no column for sort property ${key.property}`);
    if (used.has(column)) continue;
    used.add(column);
    terms.push(`${column} COLLATE NOCASE ${key.direction === 'desc' ? 'DESC' : 'ASC'} NULLS LAST`);
  }
  if (!used.has(idColumn)) terms.push(`${idColumn} ASC`);
  return `ORDER BY ${terms.join(', ')}`;
}

/** Sort columns of a task shape, keyed by the TaskDto property names. */
export function taskSortColumns(shape: TaskSqlShape): Record<TaskSortProperty, string> {
  const col = (name: keyof TaskSqlShape['columns']) => columnRef(shape.alias, shape.columns[name]);
  return {
    taskId: col('id'),
    taskTitle: col('title'),
    status: col('status'),
    priority: col('priority'),
    startDate: col('startDate'),
    dueDate: col('dueDate'),
    createdTime: col('createdTime'),
    modifiedTime: col('modifiedTime'),
    completion: col('completion'),
  };
}

/** Sort columns of a project shape, keyed by the project DTO property names. */
export function projectSortColumns(shape: ProjectSqlShape): Record<ProjectSortProperty, string> {
  const col = (name: keyof ProjectSqlShape['columns']) =>
    columnRef(shape.alias, shape.columns[name]);
  return {
    projectId: col('id'),
    projectName: col('name'),
    startDate: col('startDate'),
    dueDate: col('dueDate'),
    createdTime: col('createdTime'),
    modifiedTime: col('modifiedTime'),
    completion: col('completion'),
  };
}

/**
 * The task tables as both stores name them (the reference server's database and the client's
 * replica use the same column names on purpose): one shape, so that they cannot drift apart.
 */
export const standardTaskSqlShape: TaskSqlShape = {
  alias: 't',
  columns: {
    id: 'task_id',
    title: 'title',
    status: 'status',
    priority: 'priority',
    createdBy: 'created_by',
    startDate: 'start_date',
    dueDate: 'due_date',
    createdTime: 'created_time',
    modifiedTime: 'modified_time',
    completed: 'completed',
    completion: 'completion',
  },
  tags: { table: 'task_tags', taskId: 'task_id', name: 'name' },
  owners: { table: 'task_owners', taskId: 'task_id', userId: 'user_id' },
  customFields: { table: 'custom_fields', id: 'field_id', name: 'name', type: 'field_type' },
  customValues: {
    table: 'custom_field_values',
    taskId: 'task_id',
    fieldId: 'field_id',
    text: 'text',
    num: 'num',
  },
};
