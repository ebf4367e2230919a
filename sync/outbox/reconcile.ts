/**
 * Lost creates on services that ignore Idempotency-Key: a create whose earlier answer never
 * arrived (timeout, reset, a crash mid-request) may have been committed. Before sending it
 * again, look for it: an entity of the same kind, under the same parent, whose every field the
 * create sent is as sent (the whole body), made by this user since the row first went out (in
 * the server's clock: this machine's offset estimated from the answers), and not adopted by
 * another row. Adopting someone else's entity would drop the user's create silently, so:
 * - as many such entities as rows of ours that could have made them (identical creates, each
 *   possibly at the server): each row takes its own, in order;
 * - more of them than our rows: some are not ours (the same user on another device at the same
 *   moment) and which is ours cannot be told. The create is sent again and the sync panel says
 *   a twin may exist: a visible twin beats a silent loss;
 * - none: the create is sent again.
 */
import { type ApiClient, CursorPaging } from '../api';
import { isApiClientError } from '../api/errors';
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { toMs } from '../db/queries/convert';
import { rewriteIds } from './local-ids';
import { kindSpec, parseEntityKey, type QueuedMutation, refusedOnceDone } from './types';

/** Without any estimate of the server's clock: how far it may run behind this machine's. */
const UNKNOWN_SKEW_MS = 5 * 60_000;
/** Slack on the window's start beyond the estimate's error. */
const WINDOW_SLACK_MS = 50;

export interface ReconcileContext {
  client: ApiClient;
  db: Sqlite;
  userId: number;
}

/** What the lookup found: the entity (the create's answer), or that it cannot tell. */
export type LostCreate = { found: unknown } | { unsure: true } | null;

type Finder = (
  ctx: ReconcileContext,
  row: QueuedMutation,
  path: Record<string, number>,
  body: Record<string, unknown>,
) => Promise<LostCreate>;

const adopted = (db: Sqlite, kind: string, serverId: number): boolean =>
  stmt(db, 'SELECT 1 FROM local_ids WHERE entity_kind = ? AND server_id = ?').get(
    kind,
    serverId,
  ) !== undefined;

const isoMs = (v: unknown): number | null =>
  typeof v === 'number' ? v : typeof v === 'string' ? toMs(v) : null;

const ISO = /^\d{4}-\d{2}-\d{2}T/;
/** A value as the server echoes it: dates as ms, users as ids, '' as absent, sets sorted. */
const normal = (v: unknown): unknown => {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'string' && ISO.test(v)) return toMs(v) ?? v;
  // Names the server matches without case (statuses, tags) come back in its spelling.
  if (typeof v === 'string') return v.trim().toLowerCase();
  if (Array.isArray(v))
    return [
      ...new Set(
        v.map((x) =>
          JSON.stringify(
            x !== null && typeof x === 'object' && 'userId' in x
              ? (x as { userId: unknown }).userId
              : normal(x),
          ),
        ),
      ),
    ].sort();
  return v;
};

/** Every field the create sent that the candidate shows holds the value sent. */
export const sameAsSent = (
  body: Record<string, unknown>,
  candidate: Record<string, unknown>,
): boolean =>
  Object.entries(body).every(
    ([k, v]) =>
      !Object.hasOwn(candidate, k) ||
      JSON.stringify(normal(v)) === JSON.stringify(normal(candidate[k])),
  );

/** The earliest server time the row's create can have been made at. */
const windowStart = (ctx: ReconcileContext, row: QueuedMutation): number => {
  const sent = row.sentAt ?? row.createdAt;
  const clock = ctx.client.serverClock;
  const e = clock.estimate();
  return Math.floor(
    e ? clock.toServer(sent) - e.errorMs - WINDOW_SLACK_MS : sent - UNKNOWN_SKEW_MS,
  );
};

/**
 * The rows of ours that could have made what `row` looks for: identical creates (kind,
 * place, body) sent at least once, in order.
 */
const identicalRows = (db: Sqlite, row: QueuedMutation): number[] =>
  stmt(
    db,
    `SELECT mutation_id FROM outbox WHERE kind = ? AND operation_id = ? AND path = ?
       AND coalesce(body, '') = coalesce(?, '') AND state IN ('pending', 'inflight')
       AND (attempts > 0 OR mutation_id = ?) ORDER BY mutation_id`,
  )
    .pluck()
    .all(
      row.kind,
      row.operationId,
      JSON.stringify(row.path),
      row.body === null ? null : JSON.stringify(row.body),
      row.mutationId,
    ) as number[];

/** The candidate this row may adopt, by the rules above. */
const pick = <T extends Record<string, unknown>>(
  ctx: ReconcileContext,
  row: QueuedMutation,
  kind: string,
  idField: keyof T & string,
  candidates: readonly T[],
  matches: (c: T) => boolean,
  body: Record<string, unknown> = {},
): { found: T } | { unsure: true } | null => {
  const since = windowStart(ctx, row);
  const fit = candidates.filter((c) => {
    const created = isoMs(c.createdTime);
    const by = (c.createdBy as { userId?: number } | null | undefined)?.userId ?? c.userId;
    return (
      matches(c) &&
      sameAsSent(body, c) &&
      // A stamp in whole seconds may be up to a second before the moment it stands for.
      (created === null || created + (created % 1_000 === 0 ? 999 : 0) >= since) &&
      (by === undefined || by === null || by === ctx.userId) &&
      !adopted(ctx.db, kind, c[idField] as number)
    );
  });
  if (fit.length === 0) return null;
  const ours = identicalRows(ctx.db, row);
  if (fit.length > ours.length) return { unsure: true };
  fit.sort(
    (a, b) =>
      (isoMs(a.createdTime) ?? 0) - (isoMs(b.createdTime) ?? 0) ||
      (a[idField] as number) - (b[idField] as number),
  );
  const at = ours.indexOf(row.mutationId);
  const found = at >= 0 ? fit[at] : undefined;
  return found ? { found } : null;
};

const findTask: Finder = async (ctx, row, path, body) => {
  const since = Math.max(0, windowStart(ctx, row));
  const parent = path.subtaskId === undefined ? (path.parentTaskId ?? path.taskId) : undefined;
  const items: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  // A cursor the server already gave would page for ever.
  const paging = new CursorPaging('bulkTasks');
  do {
    const page = await ctx.client.ops.bulkTasks({
      query: { modifiedSince: since, size: 500, ...(cursor ? { cursor } : {}) },
    });
    paging.next(page.nextCursor, page.items.length);
    items.push(...(page.items as Record<string, unknown>[]));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  // A bulk item embeds more than a task answer; the replica writes either.
  return pick(
    ctx,
    row,
    'task',
    'taskId',
    items,
    (t) =>
      t.deleted !== true &&
      (t.parentTaskId ?? undefined) === parent &&
      (path.projectId === undefined || t.projectId === path.projectId),
    body,
  );
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
    () => true,
    body,
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
    (s) => s.deleted !== true,
    body,
  );
};

const findProject: Finder = async (ctx, row, path, body) => {
  const page = await ctx.client.ops.bulkProjects({
    query: { modifiedSince: Math.max(0, windowStart(ctx, row)), size: 500 },
  });
  return pick(
    ctx,
    row,
    'project',
    'projectId',
    page.items as Record<string, unknown>[],
    (p) => p.spaceId === path.spaceId && p.deleted !== true,
    body,
  );
};

const findTimer: Finder = async (ctx, row, path, body) => {
  const timers = await ctx.client.ops.getTaskTimers({ path: { taskId: path.taskId ?? 0 } });
  return pick(ctx, row, 'timer', 'trackId', timers as Record<string, unknown>[], () => true, body);
};

/** Uploads answer a list: every file of the row must be found, or none is adopted. */
const findUpload: Finder = async (ctx, row, path) => {
  const files = stmt(
    ctx.db,
    'SELECT name, size FROM outbox_files WHERE mutation_id = ? ORDER BY position',
  ).all(row.mutationId) as { name: string; size: number }[];
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
  for (const f of files) {
    const hit = pick(ctx, row, 'attachment', 'attachmentId', pool, (a) => a.fileName === f.name, {
      size: f.size,
    });
    if (!hit || 'unsure' in hit) return hit;
    found.push(hit.found);
    pool.splice(pool.indexOf(hit.found), 1);
  }
  return { found };
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

/** The entity the lost create made, as its answer would have been; or that it cannot tell. */
export const findLostCreate = async (
  ctx: ReconcileContext,
  row: QueuedMutation,
  path: Record<string, number>,
  body: unknown,
): Promise<LostCreate> => {
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
 * A timer move the server refused as not allowed (409: "cannot pause a paused timer"): when
 * the server's timer is in the state the move leads to (an earlier attempt whose answer was
 * lost did it, or the user's other device), the record is the move's answer. Null otherwise:
 * the refusal stands (someone stopped the timer the user meant to pause).
 */
export const findLostMove = async (
  ctx: ReconcileContext,
  row: QueuedMutation,
  path: Record<string, number>,
): Promise<unknown | null> => {
  const target = moveTargets[row.kind];
  const trackId = path.trackId;
  if (target === undefined || trackId === undefined) return null;
  // Its task: the replica's timer row, or the one the row waits for (the task's delete, queued
  // after it, has already taken the timer row out of the replica).
  const timerRow = stmt(ctx.db, 'SELECT task_id FROM timers WHERE track_id = ?').get(trackId) as
    | { task_id: number }
    | undefined;
  const named = row.dependsOn.map(parseEntityKey).find((k) => k.kind === 'task' && k.id > 0);
  const taskId = timerRow?.task_id ?? named?.id;
  const timers =
    taskId === undefined || taskId < 0
      ? await ctx.client.ops.getActiveTimers({})
      : await ctx.client.ops.getTaskTimers({ path: { taskId } });
  const found = (timers as { trackId?: unknown; state?: unknown }[]).find(
    (t) => t.trackId === trackId,
  );
  return found !== undefined && found.state === target ? found : null;
};

/**
 * The lost create of `row`, looked up with its local ids rewritten (null while one is not
 * mapped yet), with the path its answer would have come with.
 */
export const lookUpLostCreate = async (
  ctx: ReconcileContext,
  row: QueuedMutation,
): Promise<{ found: unknown; path: Record<string, number> } | { unsure: true } | null> => {
  const rewritten = rewriteIds(ctx.db, row);
  if (rewritten.status !== 'ready') return null;
  const lost = await findLostCreate(ctx, row, rewritten.path, rewritten.body);
  if (lost === null || 'unsure' in lost) return lost;
  return { found: lost.found, path: rewritten.path };
};

/**
 * An edit refused as not allowed now (409) whose kind such a refusal may mean done
 * (`refusedOnceDone`): the server may already hold what it meant. A move: the server's timer
 * is in the state the move leads to (an earlier attempt whose answer was lost did it, or
 * another device); the user's move holds and is done. A create: an earlier attempt of this
 * row made it (a start meeting the timer it started), found as a lost create is; never on a
 * first attempt, which cannot meet itself. A lookup that fails leaves the row to go again,
 * never failed on a guess.
 */
export const lookUpRefused = async (
  ctx: ReconcileContext,
  row: QueuedMutation,
  error: unknown,
): Promise<{ found: unknown; path: Record<string, number> } | { lookupFailed: unknown } | null> => {
  if (!refusedOnceDone(row.kind)) return null;
  if (!isApiClientError(error) || error.kind !== 'conflict') return null;
  const create = kindSpec(row.kind).effect === 'create';
  // The row as it was taken, before this attempt counted: 0 when this was its first.
  if (create && row.attempts === 0) return null;
  const rewritten = rewriteIds(ctx.db, row);
  if (rewritten.status !== 'ready') return null;
  try {
    if (!create) {
      const found = await findLostMove(ctx, row, rewritten.path);
      return found === null ? null : { found, path: rewritten.path };
    }
    // Unsure which of several is ours: the refusal stands (sent again, it would be refused).
    const lost = await findLostCreate(ctx, row, rewritten.path, rewritten.body);
    return lost !== null && 'found' in lost ? { found: lost.found, path: rewritten.path } : null;
  } catch (lookup) {
    return { lookupFailed: lookup };
  }
};
