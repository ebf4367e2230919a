import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { BulkTask, Project } from '../../shared/api';
import { type ApiClient, CursorPaging } from '../api';
import { noteDeletedWork } from '../changes/deleted';
import { nextBatchSize } from '../db/batch-size';
import { applyProjectItems } from '../db/queries/projects-write';
import { readStreamState, type StreamState, writeStreamState } from '../db/queries/sync-state';
import { beginFirstFill, writeStagePage } from '../db/queries/tasks-stage';
import { applyTaskItems } from '../db/queries/tasks-write';
import type { Replica } from '../db/replica';
import { mergeFirstFill, withFillCache } from './first-fill';
import { peekCursor } from './page-decode';
import { openPageDecoder, type PageDecoder } from './page-decoder';
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
  /** Decodes the pages of a first fill (on a worker thread); on this thread if not given. */
  decoder?: PageDecoder;
  /** What a first fill's move into the task tables waits for (the projects its tasks name). */
  beforeMove?: Promise<unknown>;
}

/** A page to write: what the loop needs of it, whichever way it was decoded. */
interface ReadyPage {
  nextCursor: string | null;
  serverTime: number;
  count: number;
  keys: () => string[];
  write: (db: Replica['db']) => { upserted: number; deleted: number };
}

/** A requested page; its cursor may be known before the whole page is checked. */
interface PendingPage {
  cursor: Promise<string | null>;
  page: Promise<ReadyPage>;
}

type PageRequest = (query: BulkQueryArgs, signal?: AbortSignal) => PendingPage;
type BulkQueryArgs = { modifiedSince?: number; cursor?: string; size: number };

/** Pages decoded on this thread and written straight into the tables (projects, task deltas). */
const requestDirect =
  (client: ApiClient, stream: BulkStream, now: () => number): PageRequest =>
  (query, signal) => {
    const page = (
      (stream === 'tasks'
        ? client.ops.bulkTasks({ query, signal })
        : client.ops.bulkProjects({ query, signal })) as Promise<BulkPage<BulkTask | Project>>
    ).then(
      (p): ReadyPage => ({
        nextCursor: p.nextCursor,
        serverTime: p.serverTime,
        count: p.items.length,
        keys: () =>
          stream === 'tasks'
            ? (p.items as BulkTask[]).map((t) => `task:${t.taskId}`)
            : (p.items as Project[]).map((t) => `project:${t.projectId}`),
        write: (db) => {
          if (stream !== 'tasks') return applyProjectItems(db, p.items as Project[]);
          const tasks = p.items as BulkTask[];
          // Before the tombstones take them: the user's own tasks deleted elsewhere.
          noteDeletedWork(
            db,
            tasks.filter((t) => t.deleted).map((t) => t.taskId),
            now(),
          );
          return applyTaskItems(db, tasks);
        },
      }),
    );
    return { cursor: page.then((p) => p.nextCursor), page };
  };

/**
 * Task pages of a first fill, decoded by `decoder`, appended to the stage. The cursor is read
 * from the answer's last bytes as it arrives, so the server makes the next page while this one
 * waits for the decoder (which decodes pages in turn): waiting for the decoded cursor left
 * the server idle for ~1 s of a 100k-task fill.
 */
const requestStaged =
  (client: ApiClient, decoder: PageDecoder): PageRequest =>
  (query, signal) => {
    let peeked: string | null | undefined;
    const pending = client.callRaw('bulkTasks', { query, signal }).then((answer) => {
      // Before the bytes go to the decoder (which may take them over to its thread).
      peeked = peekCursor(answer.response.body);
      return decoder.decode(answer);
    });
    const page = pending
      .then((p) => p.page)
      .then(
        (d): ReadyPage => ({
          nextCursor: d.nextCursor,
          serverTime: d.serverTime,
          count: d.ids.length,
          keys: () => d.ids.map((id) => `task:${id}`),
          write: (db) => writeStagePage(db, d.page),
        }),
      );
    return {
      cursor: pending.then((p) => (peeked === undefined ? p.cursor : peeked)),
      page,
    };
  };

/**
 * Tasks per page at most: what the client parses and validates in about the write budget when
 * it decodes on this thread. On the fill's worker, larger pages measured no faster: each
 * page's parsed copies outgrow the worker's young generation (more GC, ~40 MB more peak RSS).
 */
const MAX_TASK_PAGE = 500;
/**
 * Projects per page at most. A project is parsed and written on this thread (0.2-0.5 ms of CPU
 * each with its members, tags and fields); pages sized by the write alone grew to thousands
 * and blocked for 200-370 ms, pages of 200 still 150 ms at load 5, pages of 100 45-53 ms idle
 * (the bootstrap's longest blocks then); pages of 50 stay under the move's 40 ms chunks.
 */
const MAX_PROJECT_PAGE = 50;

/** A stream bootstraps until it has completed once (one mid-way resumes its bootstrap). */
export const bulkMode = (prior: StreamState | null): 'bootstrap' | 'delta' =>
  prior === null || prior.phase === 'bootstrap' ? 'bootstrap' : 'delta';

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
  const maxSize = stream === 'tasks' ? MAX_TASK_PAGE : MAX_PROJECT_PAGE;
  let size = Math.max(50, Math.min(maxSize, Math.round(options.pageSize ?? 100)));
  const prior = readStreamState(replica.db, stream);
  const mode = bulkMode(prior);
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
  const merge = () => mergeFirstFill(replica, { ...options, thread: options.decoder?.thread });
  if (stream === 'tasks' && mode === 'delta') await merge();
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
  // A first fill's pages are decoded on a worker thread (the caller's): this one only writes.
  const request = staged
    ? requestStaged(client, options.decoder ?? openPageDecoder(null))
    : requestDirect(client, stream, now);
  // A prefetch abandoned by a cancel or a failed write must not become an unhandled rejection
  // (awaiting a page still throws its error).
  const send = (cursor: string | null): PendingPage => {
    const pending = request(query(cursor), options.signal);
    pending.cursor.catch(() => undefined);
    pending.page.catch(() => undefined);
    return pending;
  };
  // What the move waits for failed: the pages are not worth fetching on (what is staged stays).
  const before: { failed: { error: unknown } | null } = { failed: null };
  options.beforeMove?.catch((error: unknown) => {
    before.failed = { error };
  });
  // A cursor the server already gave would page for ever: the read fails before that page.
  const paging = new CursorPaging(stream === 'tasks' ? 'bulkTasks' : 'bulkProjects', state.cursor);
  let next = send(state.cursor);
  report(false);
  return staged ? withFillCache(replica, pageLoop, 'stage') : pageLoop();

  async function pageLoop(): Promise<StreamResult> {
    // Written straight into the tables (not staged), a task must find its project there.
    if (!staged) await options.beforeMove;
    for (;;) {
      const pending = next;
      // Start the next request as soon as this page's cursor is known: the server works on it
      // while this page is checked and written.
      const cursor = await pending.cursor;
      if (options.signal?.aborted) throw new PullCancelledError();
      if (cursor && !paging.has(cursor)) next = send(cursor);
      const page = await pending.page;
      paging.next(page.nextCursor, page.count);
      // A cursor read ahead of the check that the checked page contradicts: ask again.
      if (page.nextCursor !== cursor && page.nextCursor !== null) next = send(page.nextCursor);
      // Decoded on this thread, the page was parsed and checked just now, in this same task:
      // let the loop run before the write, so the two are two blocks, not one.
      await yieldToLoop();
      if (options.signal?.aborted) throw new PullCancelledError();
      const started = performance.now();
      replica.transaction(() => {
        replica.noteServerWrite(page.keys());
        const r = page.write(replica.db);
        result.upserted += r.upserted;
        result.deleted += r.deleted;
        const last = page.nextCursor === null;
        state = {
          ...state,
          cursor: page.nextCursor,
          // The first page's serverTime: anything changed while we paged is handed out again next time.
          serverTime: state.serverTime ?? page.serverTime,
          itemsDone: state.itemsDone + page.count,
        };
        if (last) state = { ...state, phase: 'done', cursor: null, pullSince: null };
        writeStreamState(replica.db, state, now());
      });
      result.pages++;
      size = Math.min(
        maxSize,
        nextBatchSize(size, page.count, performance.now() - started, budget),
      );
      if (page.nextCursor === null) {
        if (staged) {
          await options.beforeMove;
          await merge();
        }
        report(true);
        return result;
      }
      report(false);
      // Let timers, IPC and the UI's calls run between pages.
      await yieldToLoop();
      if (options.signal?.aborted) throw new PullCancelledError();
      if (before.failed) throw before.failed.error;
    }
  }
};
