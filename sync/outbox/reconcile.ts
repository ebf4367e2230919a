/**
 * Lost creates on services that ignore Idempotency-Key: a create whose earlier answer never
 * arrived (timeout, reset, a crash mid-request) may have been committed. Before sending it
 * again, look for it: an entity of the same kind, under the same parent, with the same name,
 * made by this user no earlier than the row was queued (less a clock-skew allowance), and not
 * already adopted by another local id. Found: adopt it as the create's answer. Not found:
 * the create is sent again.
 */
import type { ApiClient } from '../api';
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { toMs } from '../db/queries/convert';
import { kindSpec, type QueuedMutation } from './types';

/** How far the server's clock may run behind ours. */
const SKEW_MS = 5 * 60_000;

export interface ReconcileContext {
  client: ApiClient;
  db: Sqlite;
  userId: number;
}

type Finder = (
  ctx: ReconcileContext,
  row: QueuedMutation,
  path: Record<string, number>,
  body: Record<string, unknown>,
) => Promise<unknown | null>;

const adopted = (db: Sqlite, kind: string, serverId: number): boolean =>
  stmt(db, 'SELECT 1 FROM local_ids WHERE entity_kind = ? AND server_id = ?').get(
    kind,
    serverId,
  ) !== undefined;

const isoMs = (v: unknown): number | null =>
  typeof v === 'number' ? v : typeof v === 'string' ? toMs(v) : null;

/** The earliest candidate made after the row was queued, by this user, not yet adopted. */
const pick = <T extends Record<string, unknown>>(
  ctx: ReconcileContext,
  row: QueuedMutation,
  kind: string,
  idField: keyof T & string,
  candidates: readonly T[],
  matches: (c: T) => boolean,
): T | null => {
  const since = row.createdAt - SKEW_MS;
  const fit = candidates.filter((c) => {
    const created = isoMs(c.createdTime);
    const by = (c.createdBy as { userId?: number } | null | undefined)?.userId ?? c.userId;
    return (
      matches(c) &&
      (created === null || created >= since) &&
      (by === undefined || by === null || by === ctx.userId) &&
      !adopted(ctx.db, kind, c[idField] as number)
    );
  });
  fit.sort((a, b) => (isoMs(a.createdTime) ?? 0) - (isoMs(b.createdTime) ?? 0));
  return fit[0] ?? null;
};

const findTask: Finder = async (ctx, row, path, body) => {
  const since = Math.max(0, row.createdAt - SKEW_MS);
  const parent = path.subtaskId === undefined ? (path.parentTaskId ?? path.taskId) : undefined;
  const items: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const page = await ctx.client.ops.bulkTasks({
      query: { modifiedSince: since, size: 500, ...(cursor ? { cursor } : {}) },
    });
    items.push(...(page.items as Record<string, unknown>[]));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  const found = pick(ctx, row, 'task', 'taskId', items, (t) => {
    if (t.deleted === true || t.taskTitle !== body.taskTitle) return false;
    if ((t.parentTaskId ?? undefined) !== parent) return false;
    return path.projectId === undefined || t.projectId === path.projectId;
  });
  if (!found) return null;
  // The bulk item embeds more than a task answer; the replica writes either.
  return found;
};

const findChecklist: Finder = async (ctx, row, path, body) => {
  const items =
    row.operationId === 'createCheckListForSubtask'
      ? await ctx.client.ops.getAllCheckListsForSubtask({
          path: { taskId: path.taskId ?? 0, subtaskId: path.subtaskId ?? 0 },
        })
      : await ctx.client.ops.getAllCheckListsForTask({ path: { taskId: path.taskId ?? 0 } });
  return pick(
    ctx,
    row,
    'checklist',
    'checklistId',
    items as Record<string, unknown>[],
    (c) => c.name === body.name,
  );
};

const findSpace: Finder = async (ctx, row, _path, body) => {
  const spaces = await ctx.client.ops.getAllSpaces({});
  return pick(
    ctx,
    row,
    'space',
    'spaceId',
    spaces as Record<string, unknown>[],
    (s) => s.spaceName === body.spaceName && s.deleted !== true,
  );
};

const findProject: Finder = async (ctx, row, path, body) => {
  const page = await ctx.client.ops.bulkProjects({
    query: { modifiedSince: Math.max(0, row.createdAt - SKEW_MS), size: 500 },
  });
  return pick(
    ctx,
    row,
    'project',
    'projectId',
    page.items as Record<string, unknown>[],
    (p) => p.projectName === body.projectName && p.spaceId === path.spaceId && p.deleted !== true,
  );
};

const findTimer: Finder = async (ctx, row, path, body) => {
  const timers = await ctx.client.ops.getTaskTimers({ path: { taskId: path.taskId ?? 0 } });
  const start = typeof body.startTime === 'number' ? body.startTime : undefined;
  return pick(ctx, row, 'timer', 'trackId', timers as Record<string, unknown>[], (t) =>
    row.kind === 'timer.start' ? true : t.startTime === start,
  );
};

/** Uploads answer a list: every file of the row must be found, or none is adopted. */
const findUpload: Finder = async (ctx, row, path) => {
  const names = (
    stmt(ctx.db, 'SELECT name FROM outbox_files WHERE mutation_id = ? ORDER BY position').all(
      row.mutationId,
    ) as { name: string }[]
  ).map((f) => f.name);
  const list =
    row.operationId === 'uploadProjectAttachments'
      ? await ctx.client.ops.getProjectAttachments({
          path: { spaceId: path.spaceId ?? 0, projectId: path.projectId ?? 0 },
        })
      : row.operationId === 'uploadSubtaskAttachments'
        ? await ctx.client.ops.getSubtaskAttachments({
            path: { taskId: path.taskId ?? 0, subtaskId: path.subtaskId ?? 0 },
          })
        : await ctx.client.ops.getTaskAttachments({ path: { taskId: path.taskId ?? 0 } });
  const found: unknown[] = [];
  const pool = [...(list as Record<string, unknown>[])];
  for (const name of names) {
    const hit = pick(ctx, row, 'attachment', 'attachmentId', pool, (a) => a.fileName === name);
    if (!hit) return null;
    found.push(hit);
    pool.splice(pool.indexOf(hit), 1);
  }
  return found;
};

const finders: Partial<Record<QueuedMutation['kind'], Finder>> = {
  'task.create': findTask,
  'checklist.create': findChecklist,
  'space.create': findSpace,
  'project.create': findProject,
  'timer.start': findTimer,
  'timer.range': findTimer,
  'timer.manual': findTimer,
  'attachment.upload': findUpload,
};

/** The entity the lost create made, as its answer would have been, or null. */
export const findLostCreate = async (
  ctx: ReconcileContext,
  row: QueuedMutation,
  path: Record<string, number>,
  body: unknown,
): Promise<unknown | null> => {
  if (kindSpec(row.kind).effect !== 'create') return null;
  const finder = finders[row.kind];
  if (!finder) return null;
  const fields = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  return finder(ctx, row, path, fields);
};

/** The state a timer move leaves the timer in. */
const moveTargets: Partial<Record<QueuedMutation['kind'], string>> = {
  'timer.pause': 'PAUSED',
  'timer.resume': 'RUNNING',
  'timer.stop': 'STOPPED',
};

/**
 * A timer move the server refused as not allowed (409: "cannot pause a paused timer") after an
 * earlier attempt whose answer was lost: when the server's timer is in the state the move
 * leads to, that attempt did it, and the record is the move's answer. Null otherwise (the
 * refusal stands: someone else moved the timer).
 */
export const findLostMove = async (
  ctx: ReconcileContext,
  row: QueuedMutation,
  path: Record<string, number>,
): Promise<unknown | null> => {
  const target = moveTargets[row.kind];
  const trackId = path.trackId;
  if (target === undefined || trackId === undefined) return null;
  const task = stmt(ctx.db, 'SELECT task_id FROM timers WHERE track_id = ?').get(trackId) as
    | { task_id: number }
    | undefined;
  const timers =
    task === undefined
      ? await ctx.client.ops.getActiveTimers({})
      : await ctx.client.ops.getTaskTimers({ path: { taskId: task.task_id } });
  const found = (timers as { trackId?: unknown; state?: unknown }[]).find(
    (t) => t.trackId === trackId,
  );
  return found !== undefined && found.state === target ? found : null;
};
