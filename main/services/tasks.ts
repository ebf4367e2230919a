import type { Task } from '../../shared/api/tasks';
import type { BridgeParsedInput, BridgeTaskScope } from '../../shared/bridge';
import {
  compileOrderBy,
  compileTaskFilter,
  type TaskFilter,
  taskSortColumns,
} from '../../shared/filters';
import type { SqlFragment } from '../../shared/filters/sql-fragment';
import { stmt } from '../../sync/db/kysely';
import type { Sqlite } from '../../sync/db/open';
import { highlightSegments, searchTasks } from '../../sync/db/queries/search';
import {
  dynamicStmt,
  IN_JSON,
  idsJson,
  type TaskRow as ReplicaTaskRow,
  replicaTaskShape,
  TASK_COLUMNS,
  type TaskScope,
  taskDtos,
  taskScopeSql,
} from '../../sync/db/queries/tasks-read';
import { myTasks, statusCounts, taskDetail } from '../../sync/db/queries/views';
import type { ReadContext } from './context';
import { withMark, withMarks } from './marks';

const sortColumns = taskSortColumns(replicaTaskShape);
// As an IN list SQLite reads the user's tasks from the owners index; as a correlated EXISTS it
// probed every task (on 100k tasks, a count 30 -> 10 ms, a page sorted by due date 32 -> 9 ms).
const OWNED_BY = 't.task_id IN (SELECT o.task_id FROM task_owners o WHERE o.user_id = ?)';

/** The bridge's scopes as the replica's; `my` (owned by me, any level) has no list of its own. */
const replicaScope = (scope: BridgeTaskScope, userId: number): TaskScope | null => {
  switch (scope.kind) {
    case 'personal':
      return { kind: 'personal', userId };
    case 'project':
      return { kind: 'project', projectId: scope.projectId };
    case 'subtasks':
      return { kind: 'subtasks', parentTaskId: scope.parentTaskId };
    case 'my':
      return null;
  }
};

const scopeSql = (scope: BridgeTaskScope, userId: number): SqlFragment => {
  const s = replicaScope(scope, userId);
  return s ? taskScopeSql(s) : { sql: OWNED_BY, params: [userId] };
};

const marked = (db: Sqlite, tasks: readonly Task[]) =>
  withMarks(db, 'task', tasks, (t) => t.taskId);

/**
 * Totals of task lists, kept until the replica changes: each page of a long list asks for the
 * total again, and counting a large scope costs far more than reading a page (10 ms against
 * 3 for My tasks on 100k tasks). The replica's version is this connection's row changes and
 * SQLite's data_version (commits of other connections).
 */
const totals = new WeakMap<Sqlite, Map<string, { version: string; n: number }>>();
const TOTALS_KEPT = 32;

const replicaVersion = (db: Sqlite): string =>
  `${stmt(db, 'SELECT total_changes()').pluck().get()}:${stmt(db, 'PRAGMA data_version').pluck().get()}`;

const countTasks = (db: Sqlite, where: string, params: readonly unknown[]): number => {
  let byDb = totals.get(db);
  if (!byDb) {
    byDb = new Map();
    totals.set(db, byDb);
  }
  const key = `${where}\u0000${JSON.stringify(params)}`;
  const version = replicaVersion(db);
  const kept = byDb.get(key);
  if (kept?.version === version) return kept.n;
  const { n } = dynamicStmt(db, `SELECT COUNT(*) AS n FROM tasks t WHERE ${where}`).get(
    ...params,
  ) as { n: number };
  byDb.delete(key);
  byDb.set(key, { version, n });
  if (byDb.size > TOTALS_KEPT) byDb.delete(byDb.keys().next().value as string);
  return n;
};

/** A window of a task list: scope AND the spec's filters, the multi-key sort, the total. */
export const listTasks = (ctx: ReadContext, input: BridgeParsedInput<'tasks.list'>) => {
  const scope = scopeSql(input.scope, ctx.userId);
  const filter = compileTaskFilter(input.filter as TaskFilter, replicaTaskShape, ctx.now);
  const where = `(${scope.sql}) AND (${filter.sql})`;
  const params = [...scope.params, ...filter.params];
  const n = countTasks(ctx.db, where, params);
  const orderBy = compileOrderBy(input.sort, sortColumns, sortColumns.taskId);
  const rows =
    input.offset >= n
      ? []
      : (dynamicStmt(
          ctx.db,
          `SELECT ${TASK_COLUMNS} FROM tasks t WHERE ${where} ${orderBy} LIMIT ? OFFSET ?`,
        ).all(...params, input.limit, input.offset) as ReplicaTaskRow[]);
  return { items: marked(ctx.db, taskDtos(ctx.db, rows, ctx.now)), total: n };
};

const entityKeysOf = (detail: NonNullable<ReturnType<typeof taskDetail>>): Set<string> =>
  new Set([
    `task:${detail.task.taskId}`,
    ...detail.subtasks.map((t) => `task:${t.taskId}`),
    ...detail.checklist.map((c) => `checklist:${c.checklistId}`),
    ...detail.attachments.map((a) => `attachment:${a.attachmentId}`),
    ...detail.timers.map((t) => `timer:${t.trackId}`),
  ]);

export const taskDetailView = (ctx: ReadContext, taskId: number) => {
  const detail = taskDetail(ctx.db, taskId, ctx.now);
  if (!detail) return null;
  const keys = entityKeysOf(detail);
  return {
    task: withMark(ctx.db, 'task', detail.task, detail.task.taskId),
    subtasks: marked(ctx.db, detail.subtasks),
    checklist: withMarks(ctx.db, 'checklist', detail.checklist, (c) => c.checklistId),
    attachments: withMarks(ctx.db, 'attachment', detail.attachments, (a) => a.attachmentId),
    timers: withMarks(ctx.db, 'timer', detail.timers, (t) => t.trackId),
    failedEdits: ctx.engine.status().failed.filter((f) => keys.has(f.entity)),
  };
};

const ownedBy = (db: Sqlite, userId: number, ids: readonly number[]): Set<number> =>
  new Set(
    (
      stmt(db, `SELECT task_id FROM task_owners WHERE user_id = ? AND task_id IN ${IN_JSON}`).all(
        userId,
        idsJson(ids),
      ) as { task_id: number }[]
    ).map((r) => r.task_id),
  );

export const searchView = (ctx: ReadContext, input: BridgeParsedInput<'tasks.search'>) => {
  const scope = input.scope ? replicaScope(input.scope, ctx.userId) : { kind: 'all' as const };
  // `my` searches everything and keeps the owned hits: ask for more so enough remain.
  const hits = searchTasks(ctx.db, input.text, {
    limit: scope ? input.limit : Math.min(200, input.limit * 5),
    scope: scope ?? { kind: 'all' },
  });
  const mine = scope
    ? null
    : ownedBy(
        ctx.db,
        ctx.userId,
        hits.map((h) => h.taskId),
      );
  return {
    hits: hits
      .filter((h) => mine === null || mine.has(h.taskId))
      .slice(0, input.limit)
      .map((h) => ({
        taskId: h.taskId,
        title: h.title,
        segments: highlightSegments(h.snippet),
        projectId: h.projectId,
        projectName: h.projectName,
        parentTaskId: h.parentTaskId,
        status: h.status,
        completed: h.completed,
      })),
  };
};

export const myTasksView = (ctx: ReadContext, limit: number) => {
  const m = myTasks(ctx.db, ctx.userId, ctx.now, { limit });
  return {
    overdue: marked(ctx.db, m.overdue),
    today: marked(ctx.db, m.today),
    upcoming: marked(ctx.db, m.upcoming),
    counts: m.counts,
  };
};

/** Open statuses first, then those whose tasks are all complete, each by name (as views.ts). */
const byOpenThenName = (
  a: { status: string | null; count: number; completed: number },
  b: { status: string | null; count: number; completed: number },
) => {
  const done = (s: typeof a) => (s.count > 0 && s.completed === s.count ? 1 : 0);
  return (
    done(a) - done(b) ||
    (a.status ?? '\uffff').localeCompare(b.status ?? '\uffff', 'en', { sensitivity: 'base' })
  );
};

export const statusCountsView = (ctx: ReadContext, scope: BridgeTaskScope) => {
  const s = replicaScope(scope, ctx.userId);
  if (s) return { counts: statusCounts(ctx.db, s) };
  const rows = stmt(
    ctx.db,
    `SELECT t.status AS status, COUNT(*) AS count, TOTAL(t.completed) AS completed
     FROM tasks t WHERE ${OWNED_BY} GROUP BY t.status`,
  ).all(ctx.userId) as { status: string | null; count: number; completed: number }[];
  return {
    counts: rows.map((r) => ({ ...r, completed: Math.round(r.completed) })).sort(byOpenThenName),
  };
};
