import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { BulkTask, Project } from '../../shared/api';
import type { ApiClient } from '../api';
import { applyProjectItems } from '../db/queries/projects-write';
import { readStreamState, type StreamState, writeStreamState } from '../db/queries/sync-state';
import { beginFirstFill, stageTaskItems } from '../db/queries/tasks-stage';
import { applyTaskItems } from '../db/queries/tasks-write';
import type { Replica } from '../db/replica';
import { mergeFirstFill, nextBatchSize, withFillCache } from './first-fill';
import { PullCancelledError, type PullProgress, type StreamResult } from './progress';

type BulkStream = 'tasks' | 'projects';

interface BulkPage<T> {
  items: T[];
  nextCursor: string | null;
  serverTime: number;
}

export interface BulkStreamOptions {
  signal?: AbortSignal;
  onProgress?: (p: PullProgress) => void;
  /** Page size to start with; it adapts so that writing one page stays near `writeBudgetMs`. */
  pageSize?: number;
  writeBudgetMs?: number;
  now?: () => number;
  /** Response bytes received so far in this pull. */
  bytes?: () => number;
}

const fetchPage = (
  client: ApiClient,
  stream: BulkStream,
  query: { modifiedSince?: number; cursor?: string; size: number },
  signal?: AbortSignal,
) =>
  (stream === 'tasks'
    ? client.ops.bulkTasks({ query, signal })
    : client.ops.bulkProjects({ query, signal })) as Promise<BulkPage<BulkTask | Project>>;

const apply = (
  replica: Replica,
  stream: BulkStream,
  items: (BulkTask | Project)[],
  staged: boolean,
) => {
  if (stream === 'tasks') {
    const tasks = items as BulkTask[];
    replica.noteServerWrite(tasks.map((t) => `task:${t.taskId}`));
    return staged ? stageTaskItems(replica.db, tasks) : applyTaskItems(replica.db, tasks);
  }
  const projects = items as Project[];
  replica.noteServerWrite(projects.map((p) => `project:${p.projectId}`));
  return applyProjectItems(replica.db, projects);
};

/** Tasks per page at most: what the client parses and validates in about the write budget. */
const MAX_TASK_PAGE = 500;

/**
 * Pulls one bulk stream to its end: a bootstrap when the stream never completed (resuming at
 * its stored cursor), a delta from the last complete pull's serverTime otherwise. The next
 * page is fetched while the current one is written; each page and the cursor after it are
 * written in one transaction, so a kill at any point resumes at a page boundary.
 */
export const pullBulkStream = async (
  replica: Replica,
  client: ApiClient,
  stream: BulkStream,
  options: BulkStreamOptions = {},
): Promise<StreamResult> => {
  const now = options.now ?? Date.now;
  const budget = options.writeBudgetMs ?? 40;
  // Start small and grow: the first page's write must not block for long either. A page is
  // parsed and checked in one piece (~30 µs per task): the cap keeps that near the budget.
  const maxSize = stream === 'tasks' ? MAX_TASK_PAGE : 5000;
  let size = Math.max(50, Math.min(maxSize, Math.round(options.pageSize ?? 100)));
  const prior = readStreamState(replica.db, stream);
  const mode = prior === null || prior.phase === 'bootstrap' ? 'bootstrap' : 'delta';
  // A stream in 'done' starts a delta from its serverTime; one mid-way resumes where it stood.
  let state: StreamState =
    prior && prior.phase !== 'done'
      ? prior
      : {
          stream,
          phase: mode,
          cursor: null,
          pullSince: mode === 'delta' ? (prior?.serverTime ?? null) : null,
          serverTime: null,
          itemsDone: 0,
        };
  const result: StreamResult = { stream, mode, upserted: 0, deleted: 0, pages: 0 };
  // A first fill that was being moved out of its stage finishes before anything else.
  if (stream === 'tasks' && mode === 'delta') await mergeFirstFill(replica, options);
  const staged = stream === 'tasks' && mode === 'bootstrap' && beginFirstFill(replica.db);
  const report = (done: boolean) =>
    options.onProgress?.({
      stream,
      mode,
      itemsDone: state.itemsDone,
      total: null,
      bytes: options.bytes?.() ?? 0,
      done,
    });

  const query = (cursor: string | null) => ({
    ...(state.pullSince !== null ? { modifiedSince: state.pullSince } : {}),
    ...(cursor ? { cursor } : {}),
    size,
  });
  let next = fetchPage(client, stream, query(state.cursor), options.signal);
  report(false);
  try {
    return await (staged ? withFillCache(replica, pageLoop) : pageLoop());
  } finally {
    // A prefetch abandoned by a cancel or a failed write must not become an unhandled rejection.
    next.catch(() => undefined);
  }

  async function pageLoop(): Promise<StreamResult> {
    for (;;) {
      const page = await next;
      // The client parsed and checked the page just now, in this same task: let the loop run
      // before the write, so the two are two blocks, not one.
      await yieldToLoop();
      if (options.signal?.aborted) throw new PullCancelledError();
      // Start the next request before writing this page: the server works while we write.
      if (page.nextCursor) next = fetchPage(client, stream, query(page.nextCursor), options.signal);
      const started = performance.now();
      replica.transaction(() => {
        const r = apply(replica, stream, page.items, staged);
        result.upserted += r.upserted;
        result.deleted += r.deleted;
        const last = page.nextCursor === null;
        state = {
          ...state,
          cursor: page.nextCursor,
          // The first page's serverTime: anything changed while we paged is handed out again next time.
          serverTime: state.serverTime ?? page.serverTime,
          itemsDone: state.itemsDone + page.items.length,
        };
        if (last) state = { ...state, phase: 'done', cursor: null, pullSince: null };
        writeStreamState(replica.db, state, now());
      });
      result.pages++;
      size = Math.min(
        maxSize,
        nextBatchSize(size, page.items.length, performance.now() - started, budget),
      );
      if (page.nextCursor === null) {
        if (staged) await mergeFirstFill(replica, options);
        report(true);
        return result;
      }
      report(false);
      // Let timers, IPC and the UI's calls run between pages.
      await yieldToLoop();
      if (options.signal?.aborted) throw new PullCancelledError();
    }
  }
};
