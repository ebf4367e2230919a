/** The task views: a list window, a task's detail, search and status counts. */
import type { Task } from '../../shared/api/tasks';
import type { BridgeTaskScope } from '../../shared/bridge';
import type { TaskFilter } from '../../shared/filters';
import type { Sqlite } from '../db/open';
import { highlightSegments, searchTasks } from '../db/queries/search';
import { dueGroupCounts, type TaskPath, taskPaths } from '../db/queries/task-context';
import { ownedTaskIds, type TaskScope, taskWhere, taskWindow } from '../db/queries/tasks-read';
import { statusCounts, taskDetail } from '../db/queries/views';
import type { Views } from './context';
import { withMark, withMarks } from './marks';

/** The bridge's scopes as the replica's: `my` is every task the user owns, at any level. */
const replicaScope = (scope: BridgeTaskScope, userId: number): TaskScope => {
  switch (scope.kind) {
    case 'personal':
      return { kind: 'personal', userId };
    case 'project':
      return { kind: 'project', projectId: scope.projectId };
    case 'subtasks':
      return { kind: 'subtasks', parentTaskId: scope.parentTaskId };
    case 'my':
      return { kind: 'owned', userId };
  }
};

const marked = (db: Sqlite, tasks: readonly Task[]) =>
  withMarks(db, 'task', tasks, (t) => t.taskId);

const noPath: TaskPath = { space: null, project: null, parent: null };

const entityKeysOf = (detail: NonNullable<ReturnType<typeof taskDetail>>): Set<string> =>
  new Set([
    `task:${detail.task.taskId}`,
    ...detail.subtasks.map((t) => `task:${t.taskId}`),
    ...detail.checklist.map((c) => `checklist:${c.checklistId}`),
    ...detail.attachments.map((a) => `attachment:${a.attachmentId}`),
    ...detail.timers.map((t) => `timer:${t.trackId}`),
  ]);

/** The task methods, under their bridge names. */
export const taskViews = {
  /**
   * A window of a task list: scope AND the spec's filters, the multi-key sort, the total; each
   * row with its path, and the list's due groups when asked.
   */
  'tasks.list': (ctx, input) => {
    const scope = replicaScope(input.scope, ctx.userId);
    const filter = input.filter as TaskFilter;
    const { items, total } = taskWindow(
      ctx.db,
      scope,
      filter,
      input.sort,
      { limit: input.limit, offset: input.offset },
      ctx.now,
    );
    const paths = taskPaths(
      ctx.db,
      items.map((t) => t.taskId),
    );
    return {
      items: marked(ctx.db, items).map((t) => ({ ...t, path: paths.get(t.taskId) ?? noPath })),
      total,
      ...(input.dueGroupsOn === undefined
        ? {}
        : {
            dueGroups: dueGroupCounts(ctx.db, taskWhere(scope, filter, ctx.now), input.dueGroupsOn),
          }),
    };
  },

  'tasks.detail': (ctx, { taskId }) => {
    const detail = taskDetail(ctx.db, taskId, ctx.now);
    if (!detail) return null;
    const keys = entityKeysOf(detail);
    return {
      task: withMark(ctx.db, 'task', detail.task, detail.task.taskId),
      path: taskPaths(ctx.db, [taskId]).get(taskId) ?? noPath,
      subtasks: marked(ctx.db, detail.subtasks),
      checklist: withMarks(ctx.db, 'checklist', detail.checklist, (c) => c.checklistId),
      attachments: withMarks(ctx.db, 'attachment', detail.attachments, (a) => a.attachmentId),
      timers: withMarks(ctx.db, 'timer', detail.timers, (t) => t.trackId),
      failedEdits: ctx.engine.status().failed.filter((f) => keys.has(f.entity)),
    };
  },

  'tasks.search': (ctx, input) => {
    const scope = input.scope ? replicaScope(input.scope, ctx.userId) : { kind: 'all' as const };
    // `my` searches everything and keeps the owned hits: ask for more so enough remain.
    const owned = scope.kind === 'owned';
    const hits = searchTasks(ctx.db, input.text, {
      limit: owned ? Math.min(200, input.limit * 5) : input.limit,
      scope: owned ? { kind: 'all' } : scope,
    });
    const mine = owned
      ? ownedTaskIds(
          ctx.db,
          ctx.userId,
          hits.map((h) => h.taskId),
        )
      : null;
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
  },

  'tasks.statusCounts': (ctx, { scope }) => ({
    counts: statusCounts(ctx.db, replicaScope(scope, ctx.userId)),
  }),
} satisfies Partial<Views>;
