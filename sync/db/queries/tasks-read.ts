/**
 * Tasks read back from the replica as the server's TaskDto, and the task lists with the
 * server's exact semantics (shared/filters: the same compiler, the same shape of tables).
 *
 * What the DTO is made of
 * - columns of `tasks`, dates back to ISO via `toIso`; the fields of `extra` (what this version
 *   does not model) are added where the DTO lacks them, so every modelled field wins;
 * - tags and owners from their tables, in the server's order (name, user id);
 * - user refs from `users.ref` (a bare `{userId}` when the user is unknown);
 * - customFields: the definitions that apply (its space's space-level ones, then its
 *   project's, ordered like the server), each with this task's value or an empty fieldValue;
 * - `overdue` computed against the caller's clock like the server: due before now, not complete;
 * - `deleted: false, deletedTime: null`: the replica keeps live tasks only (tombstones delete).
 *
 * A page of DTOs costs a fixed number of queries (rows, tags, owners, users, definitions,
 * values), never one per task; id lists are bound as one JSON array (`json_each`), so the SQL
 * text does not change with the number of ids and its prepared statement is reused.
 */
import type Database from 'better-sqlite3';
import type { Task, UserRef } from '../../../shared/api';
import {
  compileOrderBy,
  compileTaskFilter,
  type ListTaskFilter,
  type Page,
  type PagingRequest,
  pageOf,
  pageWindow,
  type SqlFragment,
  standardTaskSqlShape,
  type TaskSqlShape,
  taskSortColumns,
} from '../../../shared/filters';
import { stmt } from '../kysely';
import type { Sqlite } from '../open';
import type { TasksTable, UsersTable } from '../types';
import { parseExtra, toIso } from './convert';
import { fieldDto, fieldsForScope, loadFieldDefinitions } from './custom-fields';
import { IN_JSON, idsJson } from './id-list';
import { taskColumns } from './task-rows';

// ---- small helpers shared by the read modules -------------------------------------------

/**
 * Statements whose text depends on the user's filter (compiled lists): cached like `stmt`,
 * but bounded, because every distinct filter structure is a distinct text and a long session
 * must not grow the cache without limit.
 */
const DYNAMIC_CACHE_SIZE = 64;
type Statement = Database.Statement<unknown[]>;
const dynamicCache = new WeakMap<Sqlite, Map<string, Statement>>();
export const dynamicStmt = (db: Sqlite, sql: string): Statement => {
  let byDb = dynamicCache.get(db);
  if (!byDb) {
    byDb = new Map();
    dynamicCache.set(db, byDb);
  }
  let s = byDb.get(sql);
  if (s)
    byDb.delete(sql); // re-inserted below: most recently used last
  else s = db.prepare<unknown[]>(sql);
  byDb.set(sql, s);
  if (byDb.size > DYNAMIC_CACHE_SIZE) {
    const oldest = byDb.keys().next().value;
    if (oldest !== undefined) byDb.delete(oldest);
  }
  return s;
};

/** User refs as the server last sent them; an id never seen reads as `{userId}`. */
export const loadUserRefs = (
  db: Sqlite,
  ids: Iterable<number | null | undefined>,
): Map<number, UserRef> => {
  const rows = stmt(db, `SELECT user_id, ref FROM users WHERE user_id IN ${IN_JSON}`).all(
    idsJson(ids),
  ) as Pick<UsersTable, 'user_id' | 'ref'>[];
  return new Map(rows.map((r) => [r.user_id, JSON.parse(r.ref) as UserRef]));
};

export const refOf = (users: ReadonlyMap<number, UserRef>, id: number | null): UserRef | null =>
  id === null ? null : (users.get(id) ?? { userId: id });

/** Parses a JSON column that the writers filled from a server object. */
export const jsonOr = <T>(text: string | null, fallback: T): T =>
  text === null ? fallback : (JSON.parse(text) as T);

// ---- task DTOs ----------------------------------------------------------------------------

export type TaskRow = TasksTable;

/** Every column of `tasks`, for a FROM clause aliasing it `t`. */
export const TASK_COLUMNS = taskColumns.map((c) => `t.${c}`).join(', ');

const group = <K, V>(rows: readonly { k: K; v: V }[]): Map<K, V[]> => {
  const out = new Map<K, V[]>();
  for (const { k, v } of rows) {
    const list = out.get(k);
    if (list) list.push(v);
    else out.set(k, [v]);
  }
  return out;
};

/** `overdue` of the contract and of the server: a due date before now, not complete. */
export const isOverdue = (dueDate: number | null, completed: number, nowMs: number): boolean =>
  dueDate !== null && dueDate < nowMs && completed === 0;

/** `dto` plus the fields of `extra` it does not have (every modelled field wins). */
export const withExtra = <T extends object>(dto: T, extra: string | null): T => {
  if (extra === null) return dto;
  const target = dto as Record<string, unknown>;
  for (const [k, v] of Object.entries(parseExtra(extra)))
    if (!Object.hasOwn(target, k)) target[k] = v;
  return dto;
};

/** DTOs of rows already read (a list page), in the rows' order. */
export const taskDtos = (db: Sqlite, rows: readonly TaskRow[], nowMs: number): Task[] => {
  if (rows.length === 0) return [];
  const ids = idsJson(rows.map((r) => r.task_id));
  const tags = group(
    stmt(
      db,
      `SELECT task_id AS k, name AS v FROM task_tags WHERE task_id IN ${IN_JSON} ORDER BY task_id, name`,
    ).all(ids) as { k: number; v: string }[],
  );
  const owners = group(
    stmt(
      db,
      `SELECT task_id AS k, user_id AS v FROM task_owners WHERE task_id IN ${IN_JSON} ORDER BY task_id, user_id`,
    ).all(ids) as { k: number; v: number }[],
  );
  const defs = loadFieldDefinitions(
    db,
    rows.map((r) => r.space_id),
    rows.map((r) => r.project_id),
  );
  const values = new Map<number, Map<number, unknown>>();
  if (defs.length > 0) {
    const valueRows = stmt(
      db,
      `SELECT task_id, field_id, value FROM custom_field_values WHERE task_id IN ${IN_JSON}`,
    ).all(ids) as { task_id: number; field_id: number; value: string }[];
    for (const v of valueRows) {
      const byField = values.get(v.task_id) ?? new Map<number, unknown>();
      values.set(v.task_id, byField);
      byField.set(v.field_id, JSON.parse(v.value) as unknown);
    }
  }
  const userIds: (number | null)[] = [];
  for (const r of rows) userIds.push(r.created_by, r.modified_by, ...(owners.get(r.task_id) ?? []));
  const users = loadUserRefs(db, userIds);

  return rows.map((r): Task => {
    const own = values.get(r.task_id);
    // A literal of fixed shape, then the unmodelled fields it lacks: spreading `extra` first
    // made V8 build every DTO property by property, most of a list's time.
    const dto: Task = {
      taskId: r.task_id,
      spaceId: r.space_id,
      projectId: r.project_id,
      parentTaskId: r.parent_task_id,
      taskTitle: r.title,
      description: r.description,
      status: r.status,
      priority: r.priority,
      tags: tags.get(r.task_id) ?? [],
      owners: (owners.get(r.task_id) ?? []).map((id) => refOf(users, id) as UserRef),
      startDate: toIso(r.start_date),
      dueDate: toIso(r.due_date),
      completion: r.completion,
      completedTime: toIso(r.completed_time),
      overdue: isOverdue(r.due_date, r.completed, nowMs),
      createdBy: refOf(users, r.created_by),
      modifiedBy: refOf(users, r.modified_by),
      createdTime: toIso(r.created_time),
      modifiedTime: toIso(r.modified_time),
      deleted: false,
      deletedTime: null,
      customFields: fieldsForScope(defs, r.space_id, r.project_id).map((d) =>
        fieldDto(d, own?.has(d.fieldId) ? [{ taskId: r.task_id, value: own.get(d.fieldId) }] : []),
      ),
      subtaskCount: r.subtask_count,
      checklistCount: r.checklist_count,
      checklistCompletedCount: r.checklist_completed_count,
      attachmentCount: r.attachment_count,
    };
    return withExtra(dto, r.extra);
  });
};

/** The tasks with these ids, in the order of `ids`; ids the replica does not hold are skipped. */
export const readTasks = (db: Sqlite, ids: readonly number[], nowMs: number): Task[] => {
  if (ids.length === 0) return [];
  const rows = stmt(db, `SELECT ${TASK_COLUMNS} FROM tasks t WHERE t.task_id IN ${IN_JSON}`).all(
    idsJson(ids),
  ) as TaskRow[];
  const byId = new Map(rows.map((r) => [r.task_id, r]));
  const ordered = [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
  return taskDtos(db, ordered, nowMs);
};

export const readTask = (db: Sqlite, taskId: number, nowMs: number): Task | null =>
  readTasks(db, [taskId], nowMs)[0] ?? null;

// ---- lists ---------------------------------------------------------------------------------

/** Which list: the server's list operations, plus every task of the replica. */
export type TaskScope =
  | { kind: 'personal'; userId: number }
  | { kind: 'subtasks'; parentTaskId: number }
  | { kind: 'project'; projectId: number }
  /** Owned by the user, at any level: the app's "My tasks" (the server has no such list). */
  | { kind: 'owned'; userId: number }
  | { kind: 'all' };

// As an IN list SQLite reads the user's tasks from the owners index; as a correlated EXISTS it
// probed every task (on 100k tasks, a count 30 -> 10 ms, a page sorted by due date 32 -> 9 ms).
const OWNED_BY = 't.task_id IN (SELECT o.task_id FROM task_owners o WHERE o.user_id = ?)';

/**
 * The scope as SQL over `tasks t`, word for word the server's (minus org and `deleted`: the
 * replica is one org's live rows). Personal: GET /v1/tasks, top-level tasks in no project that
 * the user created or owns. Project: its top-level tasks. Subtasks: any task under the parent.
 */
export const taskScopeSql = (scope: TaskScope): SqlFragment => {
  switch (scope.kind) {
    case 'personal':
      return {
        sql: `t.project_id IS NULL AND t.parent_task_id IS NULL AND (t.created_by = ? OR EXISTS (SELECT 1 FROM task_owners o WHERE o.task_id = t.task_id AND o.user_id = ?))`,
        params: [scope.userId, scope.userId],
      };
    case 'subtasks':
      return { sql: 't.parent_task_id = ?', params: [scope.parentTaskId] };
    case 'project':
      return { sql: 't.project_id = ? AND t.parent_task_id IS NULL', params: [scope.projectId] };
    case 'owned':
      return { sql: OWNED_BY, params: [scope.userId] };
    case 'all':
      return { sql: '1', params: [] };
  }
};

/** The replica's tables as the shared filter compiler sees them (columns of 0001). */
export const replicaTaskShape: TaskSqlShape = standardTaskSqlShape;
const sortColumns = taskSortColumns(replicaTaskShape);

/** `scope AND filter` as one WHERE expression over `tasks t`. */
export const taskWhere = (scope: TaskScope, filter: ListTaskFilter, nowMs: number): SqlFragment => {
  const s = taskScopeSql(scope);
  const f = compileTaskFilter(filter, replicaTaskShape, nowMs);
  return { sql: `(${s.sql}) AND (${f.sql})`, params: [...s.params, ...f.params] };
};

/**
 * The total of a list is the same for each of its pages and for every repaint until the data
 * changes, and counting a large list is most of its cost (~8k personal tasks: ~2 ms). Kept
 * per connection until anything is written: by this connection (total_changes) or by
 * another (data_version).
 */
const countCache = new WeakMap<Sqlite, { version: string; counts: Map<string, number> }>();
const COUNT_CACHE_SIZE = 64;
export const cachedCount = (db: Sqlite, sql: string, params: readonly unknown[]): number => {
  const version = `${db.pragma('data_version', { simple: true })}:${
    (stmt(db, 'SELECT total_changes() AS n').get() as { n: number }).n
  }`;
  let cache = countCache.get(db);
  if (!cache || cache.version !== version) {
    cache = { version, counts: new Map() };
    countCache.set(db, cache);
  }
  const key = `${sql}\u0000${JSON.stringify(params)}`;
  const known = cache.counts.get(key);
  if (known !== undefined) return known;
  const { n } = dynamicStmt(db, sql).get(...params) as { n: number };
  if (cache.counts.size >= COUNT_CACHE_SIZE) cache.counts.clear();
  cache.counts.set(key, n);
  return n;
};

/**
 * A window of a task list and the list's total: scope AND the filters, the sort, then id.
 * Range conditions (dates by day, numbers) are resolved against `nowMs` in the filter's time
 * zone on every read, so a saved "this week" follows the calendar.
 */
export const taskWindow = (
  db: Sqlite,
  scope: TaskScope,
  filter: ListTaskFilter,
  sort: PagingRequest['sort'],
  window: { limit: number; offset: number },
  nowMs: number,
): { items: Task[]; total: number } => {
  const where = taskWhere(scope, filter, nowMs);
  const total = cachedCount(
    db,
    `SELECT COUNT(*) AS n FROM tasks t WHERE ${where.sql}`,
    where.params,
  );
  const orderBy = compileOrderBy(sort, sortColumns, sortColumns.taskId);
  const rows =
    window.offset >= total
      ? []
      : (dynamicStmt(
          db,
          `SELECT ${TASK_COLUMNS} FROM tasks t WHERE ${where.sql} ${orderBy} LIMIT ? OFFSET ?`,
        ).all(...where.params, window.limit, window.offset) as TaskRow[]);
  return { items: taskDtos(db, rows, nowMs), total };
};

/**
 * One page of a task list, as the server answers it: scope AND the filters, the validated
 * sort with the id as the final tie-breaker, Spring's page object with the total count.
 */
export const listTasks = (
  db: Sqlite,
  scope: TaskScope,
  query: PagingRequest & ListTaskFilter,
  nowMs: number,
): Page<Task> => {
  const { items, total } = taskWindow(
    db,
    scope,
    query,
    query.sort,
    pageWindow(query.page, query.size),
    nowMs,
  );
  return pageOf(items, total, query.page, query.size);
};

/** Of these tasks, those the user owns. */
export const ownedTaskIds = (db: Sqlite, userId: number, ids: readonly number[]): Set<number> =>
  new Set(
    (
      stmt(db, `SELECT task_id FROM task_owners WHERE user_id = ? AND task_id IN ${IN_JSON}`).all(
        userId,
        idsJson(ids),
      ) as { task_id: number }[]
    ).map((r) => r.task_id),
  );

/** A task's title and project (a running timer's line), or undefined when it is not here. */
export const taskPlace = (
  db: Sqlite,
  taskId: number,
): { title: string; projectId: number | null } | undefined =>
  stmt(db, 'SELECT title, project_id AS projectId FROM tasks WHERE task_id = ?').get(taskId) as
    | { title: string; projectId: number | null }
    | undefined;
