import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TimerRecord } from '../../shared/api/timers';
import type { AttachmentFile, BridgeParsedInput } from '../../shared/bridge';
import { BridgeError } from '../../shared/bridge/define';
import { stmt } from '../../sync/db/kysely';
import { activeTimer, notificationDto, unreadCount } from '../../sync/db/queries/activity-read';
import type { NotificationsTable } from '../../sync/db/types';
import { serverIdOf, stagedFiles } from '../../sync/outbox';
import type { ReadContext } from './context';
import { withMark, withMarks } from './marks';

const DAY_MS = 86_400_000;

export const notificationsList = (
  ctx: ReadContext,
  input: BridgeParsedInput<'notifications.list'>,
) => {
  const where = input.unreadOnly ? 'WHERE read = 0' : '';
  const { n } = stmt(ctx.db, `SELECT COUNT(*) AS n FROM notifications ${where}`).get() as {
    n: number;
  };
  const rows = stmt(
    ctx.db,
    `SELECT * FROM notifications ${where}
     ORDER BY created_time DESC, notification_id DESC LIMIT ? OFFSET ?`,
  ).all(input.limit, input.offset) as NotificationsTable[];
  return {
    items: withMarks(ctx.db, 'notification', rows.map(notificationDto), (x) => x.notificationId),
    total: n,
  };
};

export const unreadCountView = (ctx: ReadContext) => ({ count: unreadCount(ctx.db) });

/** A task created offline has no comments on the server yet. */
export const commentsView = async (ctx: ReadContext, taskId: number) => {
  if (taskId < 0) return { items: [], source: 'cache' as const, fetchedAt: ctx.now };
  const lazy = await ctx.engine.lazy.comments(taskId);
  return {
    items: lazy.value,
    source: lazy.source,
    fetchedAt: lazy.fetchedAt,
    ...(lazy.offlineReason ? { offlineReason: lazy.offlineReason } : {}),
  };
};

const seconds = (t: TimerRecord) => t.durationSeconds;

/** A week view's figures: every UTC day of the range and each project, from the entries. */
export const timesheetView = async (ctx: ReadContext, from: number, to: number) => {
  const lazy = await ctx.engine.lazy.timesheet({ kind: 'timesheet', from, to });
  const entries = withMarks(ctx.db, 'timer', lazy.value.entries, (t) => t.trackId);
  const days = new Map<number, number>();
  for (let day = Math.floor(from / DAY_MS) * DAY_MS; day < to; day += DAY_MS) days.set(day, 0);
  const perProject = new Map<number | null, number>();
  for (const e of entries) {
    const day = Math.floor(e.startTime / DAY_MS) * DAY_MS;
    days.set(day, (days.get(day) ?? 0) + seconds(e));
    const p = e.projectId ?? null;
    perProject.set(p, (perProject.get(p) ?? 0) + seconds(e));
  }
  const nameOf = stmt(ctx.db, 'SELECT project_name FROM projects WHERE project_id = ?');
  return {
    from,
    to,
    totalSeconds: entries.reduce((n, e) => n + seconds(e), 0),
    entries,
    days: [...days].sort(([a], [b]) => a - b).map(([day, s]) => ({ day, seconds: s })),
    projects: [...perProject]
      .map(([projectId, s]) => ({
        projectId,
        projectName:
          projectId === null
            ? null
            : ((nameOf.get(projectId) as { project_name: string } | undefined)?.project_name ??
              null),
        seconds: s,
      }))
      .sort((a, b) => b.seconds - a.seconds),
    source: lazy.source,
    fetchedAt: lazy.fetchedAt,
    ...(lazy.offlineReason ? { offlineReason: lazy.offlineReason } : {}),
  };
};

const taskPlace = (ctx: ReadContext, taskId: number) =>
  stmt(ctx.db, 'SELECT title, project_id FROM tasks WHERE task_id = ?').get(taskId) as
    | { title: string; project_id: number | null }
    | undefined;

export const activeTimerView = (ctx: ReadContext) => {
  const timer = activeTimer(ctx.db, ctx.userId, ctx.now);
  if (!timer) return { active: null };
  const place = taskPlace(ctx, timer.taskId);
  return {
    active: {
      timer: withMark(ctx.db, 'timer', timer, timer.trackId),
      taskTitle: place?.title ?? null,
      projectId: place?.project_id ?? timer.projectId ?? null,
    },
  };
};

/** The five tasks most recently timed that are still in the replica. */
export const recentTasks = (ctx: ReadContext) => ({
  tasks: stmt(
    ctx.db,
    `SELECT t.task_id AS taskId, t.title AS taskTitle, t.project_id AS projectId,
              MAX(tm.start_time) AS lastTimedAt
       FROM timers tm JOIN tasks t ON t.task_id = tm.task_id
       WHERE tm.user_id = ? GROUP BY t.task_id ORDER BY lastTimedAt DESC, t.task_id DESC LIMIT 5`,
  ).all(ctx.userId) as {
    taskId: number;
    taskTitle: string;
    projectId: number | null;
    lastTimedAt: number;
  }[],
});

/** The staged copy of an upload still in the outbox that made attachment `localId`. */
const stagedCopy = (ctx: ReadContext, localId: number) => {
  const at = stmt(
    ctx.db,
    `SELECT o.mutation_id AS mutationId, j.key AS position
       FROM outbox o, json_each(o.body, '$.localIds') j
      WHERE o.kind = 'attachment.upload' AND j.value = ?`,
  ).get(localId) as { mutationId: number; position: number } | undefined;
  if (!at) return undefined;
  return stagedFiles(ctx.db, at.mutationId).find((f) => f.position === at.position);
};

export const openAttachment = async (
  ctx: ReadContext,
  input: BridgeParsedInput<'attachments.open'>,
  urlOf: ((attachmentId: number) => string) | null,
): Promise<AttachmentFile> => {
  // A local id whose upload finished names the server's attachment now (a view that has not
  // followed the rekey yet still asks by the local id).
  const id =
    input.attachmentId < 0
      ? (serverIdOf(ctx.db, 'attachment', input.attachmentId) ?? input.attachmentId)
      : input.attachmentId;
  const row = stmt(ctx.db, 'SELECT file_name FROM attachments WHERE attachment_id = ?').get(id) as
    | { file_name: string }
    | undefined;
  if (!row)
    throw new BridgeError({
      code: 'not-found',
      message: `attachment ${input.attachmentId} is not in this org's data`,
    });
  const answer = { url: urlOf ? urlOf(input.attachmentId) : null, fileName: row.file_name };
  if (id < 0) {
    const staged = stagedCopy(ctx, id);
    const path = staged ? join(ctx.filesDir, staged.path) : null;
    if (!staged || !path || !existsSync(path))
      throw new BridgeError({
        code: 'not-found',
        message: `${row.file_name} is no longer queued for upload, and its copy is gone`,
      });
    return {
      ...answer,
      path,
      contentType: staged.contentType,
      size: staged.size,
      source: 'outbox',
      openedByHost: false,
    };
  }
  const file = await ctx.engine.lazy.attachmentContent(id);
  return {
    ...answer,
    path: file.path,
    contentType: file.contentType,
    size: file.size,
    source: file.source,
    openedByHost: false,
  };
};
