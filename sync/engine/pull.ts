import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Notification } from '../../shared/api';
import { type ApiClient, isApiClientError, NumberedPaging } from '../api';
import { replaceActiveTimers, replaceNotifications } from '../db/queries/activity-write';
import { replaceSpaces } from '../db/queries/projects-write';
import {
  catchUpSearchIndex,
  deferSearchIndex,
  searchIndexPending,
} from '../db/queries/search-index';
import { readStreamState, writeStreamState } from '../db/queries/sync-state';
import type { Replica } from '../db/replica';
import { type BulkStreamOptions, bulkMode, pullBulkStream } from './bulk-stream';
import { startCheckpointer } from './checkpointer';
import { startFillThread } from './fill-thread';
import { withFillCache } from './first-fill';
import { openPageDecoder, type PageDecoder } from './page-decoder';
import {
  PullCancelledError,
  type PullProgress,
  type PullResult,
  type StreamResult,
} from './progress';

export interface PullOptions {
  signal?: AbortSignal;
  onProgress?: (p: PullProgress) => void;
  pageSize?: number;
  /** Time one page's write may block the event loop; pages are sized to fit it. */
  writeBudgetMs?: number;
  now?: () => number;
  /** How many of the newest notifications the replica keeps. */
  notificationLimit?: number;
}

/**
 * The server no longer knows where we were (a cursor or modifiedSince it refuses, or a 410):
 * only a fresh bootstrap can bring the replica back in step.
 */
export const isStalePullError = (error: unknown): boolean =>
  isApiClientError(error) &&
  (error.status === 410 ||
    (error.kind === 'validation' &&
      (error.operationId === 'bulkTasks' || error.operationId === 'bulkProjects') &&
      error.fieldErrors.some((f) => f.field === 'cursor' || f.field === 'modifiedSince')));

const rebootstrapKey = 'needs_rebootstrap';

/** Set by a migration (or a caller) when the replica's server data must be rebuilt. */
export const requestRebootstrap = (replica: Replica): void => {
  replica.db
    .prepare('INSERT OR REPLACE INTO replica_info (key, value) VALUES (?, ?)')
    .run(rebootstrapKey, '1');
};

const takeRebootstrapRequest = (replica: Replica): boolean =>
  replica.db.prepare('DELETE FROM replica_info WHERE key = ?').run(rebootstrapKey).changes > 0;

const pullSmallStreams = async (
  replica: Replica,
  client: ApiClient,
  options: PullOptions,
  bytes: () => number,
): Promise<StreamResult[]> => {
  const now = options.now ?? Date.now;
  const check = () => {
    if (options.signal?.aborted) throw new PullCancelledError();
  };
  const results: StreamResult[] = [];
  const mode = 'delta' as const;

  const spaces = await client.ops.getAllSpaces({ signal: options.signal });
  check();
  replica.transaction(() => {
    replica.noteServerWrite(['space:*']);
    const r = replaceSpaces(replica.db, spaces);
    writeStreamState(
      replica.db,
      {
        stream: 'spaces',
        phase: 'done',
        cursor: null,
        pullSince: null,
        serverTime: now(),
        itemsDone: spaces.length,
      },
      now(),
    );
    results.push({ stream: 'spaces', mode, upserted: r.upserted, deleted: r.deleted, pages: 1 });
  });
  options.onProgress?.({
    stream: 'spaces',
    mode,
    itemsDone: spaces.length,
    total: spaces.length,
    bytes: bytes(),
    done: true,
  });
  return results;
};

const pullActivity = async (
  replica: Replica,
  client: ApiClient,
  options: PullOptions,
  bytes: () => number,
): Promise<StreamResult[]> => {
  const now = options.now ?? Date.now;
  const limit = options.notificationLimit ?? 500;
  const mode = 'delta' as const;
  const notifications: Notification[] = [];
  let total = 0;
  const paging = new NumberedPaging('getNotifications');
  for (let page = 0; notifications.length < limit; page++) {
    const p = await client.ops.getNotifications({
      query: { page, size: 100 },
      signal: options.signal,
    });
    const last = paging.check(page, p);
    total = p.totalElements;
    notifications.push(...p.content);
    options.onProgress?.({
      stream: 'notifications',
      mode,
      itemsDone: notifications.length,
      total: Math.min(total, limit),
      bytes: bytes(),
      done: false,
    });
    if (last) break;
  }
  const timers = await client.ops.getActiveTimers({ signal: options.signal });
  if (options.signal?.aborted) throw new PullCancelledError();
  const at = now();
  replica.transaction(() => {
    replica.noteServerWrite(['notification:*', 'timer:*']);
    replaceNotifications(replica.db, notifications.slice(0, limit));
    replaceActiveTimers(replica.db, timers, at);
    writeStreamState(
      replica.db,
      {
        stream: 'notifications',
        phase: 'done',
        cursor: null,
        pullSince: null,
        serverTime: at,
        itemsDone: notifications.length,
      },
      at,
    );
    writeStreamState(
      replica.db,
      {
        stream: 'timers',
        phase: 'done',
        cursor: null,
        pullSince: null,
        serverTime: at,
        itemsDone: timers.length,
      },
      at,
    );
  });
  options.onProgress?.({
    stream: 'notifications',
    mode,
    itemsDone: notifications.length,
    total: Math.min(total, limit),
    bytes: bytes(),
    done: true,
  });
  options.onProgress?.({
    stream: 'timers',
    mode,
    itemsDone: timers.length,
    total: timers.length,
    bytes: bytes(),
    done: true,
  });
  return [
    { stream: 'notifications', mode, upserted: notifications.length, deleted: 0, pages: 1 },
    { stream: 'timers', mode, upserted: timers.length, deleted: 0, pages: 1 },
  ];
};

const pullOnce = async (
  replica: Replica,
  client: ApiClient,
  options: PullOptions,
  decoder: PageDecoder | undefined,
): Promise<StreamResult[]> => {
  const start = client.bytesReceived();
  const bytes = () => client.bytesReceived() - start;
  const bulk: BulkStreamOptions = {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
    ...(options.writeBudgetMs ? { writeBudgetMs: options.writeBudgetMs } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(decoder ? { decoder } : {}),
    bytes,
  };
  const tasksState = readStreamState(replica.db, 'tasks');
  // A first fill writes faster without keeping the search index; it is caught up after.
  if (tasksState === null) deferSearchIndex(replica.db);
  const spacesAndProjects = async () => [
    ...(await pullSmallStreams(replica, client, options, bytes)),
    await pullBulkStream(replica, client, 'projects', bulk),
  ];
  // Projects before tasks: a task's project is known when the task lands. A first fill's
  // tasks land only when its stage is moved, so its pages are fetched and staged meanwhile.
  const firstFill = bulkMode(tasksState) === 'bootstrap';
  const results = firstFill
    ? await bothSettled(spacesAndProjects(), (before) =>
        pullBulkStream(replica, client, 'tasks', { ...bulk, beforeMove: before }),
      )
    : [...(await spacesAndProjects()), await pullBulkStream(replica, client, 'tasks', bulk)];
  // Like the fill itself, the catch-up reads each task once: the fill's smaller page cache
  // keeps the full one from filling up (and staying in the process) with pages read once.
  if (searchIndexPending(replica.db))
    await withFillCache(replica, () => catchUpSearchIndex(replica.db));
  results.push(...(await pullActivity(replica, client, options, bytes)));
  return results;
};

/**
 * Runs `then` beside `first` (which it may await); answers both results once both have ended,
 * or the first error once both have: nothing may still be writing when a pull returns.
 */
const bothSettled = async <A extends unknown[], B>(
  first: Promise<A>,
  then: (first: Promise<A>) => Promise<B>,
): Promise<[...A, B]> => {
  const [a, b] = await Promise.allSettled([first, then(first)]);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
  return [...a.value, b.value];
};

/**
 * A bootstrap's worker thread (page decoder and checkpointer), started with the pull so that
 * it is up by the time the tasks come.
 */
const startFill = (replica: Replica) => {
  const thread = startFillThread();
  return {
    thread,
    decoder: openPageDecoder(thread),
    checkpointer: startCheckpointer(replica, thread),
  };
};

const stopFill = async (fill: ReturnType<typeof startFill> | null) => {
  await fill?.checkpointer.stop();
  await fill?.thread?.close();
};

/**
 * Empties the server data for a fresh bootstrap, telling progress first that one starts: a
 * view of the replica hears of the bootstrap before it sees the rows go.
 */
const wipeForBootstrap = (replica: Replica, options: PullOptions): void => {
  options.onProgress?.({
    stream: 'tasks',
    mode: 'bootstrap',
    itemsDone: 0,
    total: null,
    bytes: 0,
    done: false,
  });
  replica.wipeServerData();
};

/**
 * One pull of everything: a bootstrap for what never completed, deltas for the rest. When the
 * server refuses to continue a delta (or a migration asked for it), the server data is wiped
 * and filled again, by itself.
 */
export const pullAll = async (
  replica: Replica,
  client: ApiClient,
  options: PullOptions = {},
): Promise<PullResult> => {
  const started = performance.now();
  let rebootstrapped = false;
  if (takeRebootstrapRequest(replica)) {
    wipeForBootstrap(replica, options);
    rebootstrapped = true;
  }
  let streams: StreamResult[];
  let fill = readStreamState(replica.db, 'tasks')?.phase === 'done' ? null : startFill(replica);
  try {
    try {
      streams = await pullOnce(replica, client, options, fill?.decoder);
    } catch (error) {
      if (!isStalePullError(error)) throw error;
      wipeForBootstrap(replica, options);
      rebootstrapped = true;
      fill ??= startFill(replica);
      streams = await pullOnce(replica, client, options, fill.decoder);
    }
    if (streams.some((s) => s.stream === 'tasks' && s.mode === 'bootstrap'))
      await withFillCache(replica, () => compactSearchIndex(replica));
  } finally {
    await stopFill(fill);
  }
  return { streams, rebootstrapped, durationMs: performance.now() - started };
};

/**
 * A bootstrap leaves the full-text index in many small segments, which slows searches.
 * Merge them a bounded step at a time, yielding between steps, so no step blocks for long.
 */
export const compactSearchIndex = async (replica: Replica, maxSteps = 200): Promise<void> => {
  const merge = replica.db.prepare("INSERT INTO tasks_fts(tasks_fts, rank) VALUES ('merge', 64)");
  const changes = replica.db.prepare('SELECT total_changes() AS n');
  for (let step = 0; step < maxSteps; step++) {
    const before = (changes.get() as { n: number }).n;
    merge.run();
    // FTS5: a merge step that found nothing to do changes (almost) nothing.
    if ((changes.get() as { n: number }).n - before < 2) return;
    await yieldToLoop();
  }
};

/** Two pulls never run at once: a second request joins the one in flight. */
export class Puller {
  private inFlight: Promise<PullResult> | null = null;

  constructor(
    private readonly replica: Replica,
    private readonly client: ApiClient,
    private readonly options: PullOptions = {},
  ) {}

  get running(): boolean {
    return this.inFlight !== null;
  }

  pull(signal?: AbortSignal): Promise<PullResult> {
    if (!this.inFlight) {
      this.inFlight = pullAll(this.replica, this.client, {
        ...this.options,
        ...(signal ? { signal } : {}),
      }).finally(() => {
        this.inFlight = null;
      });
    }
    return this.inFlight;
  }
}
