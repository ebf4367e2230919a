/**
 * The pusher replays the outbox: rows in client mutation id order, one at a time per entity,
 * independent entities in parallel (a pool, 4 by default). Each answer is written to the
 * replica in one transaction with the row's removal; each failure is classified once
 * (backoff.ts) and handled:
 * - retry / rate-limited: pending again, due after backoff (or Retry-After); offline shows;
 * - auth: the row waits untouched and the whole outbox pauses until the user signs in;
 * - permanent: the row fails, visible with the server's words, and the replica goes back to
 *   the server's copy; the queue goes on;
 * - conflict: the entity is gone on the server; the row waits for the user (recreate or
 *   discard). A delete that finds its entity gone has done its job and settles.
 */

import type { ApiClient } from '../api';
import { isApiClientError } from '../api/errors';
import type { Replica } from '../db/replica';
import { writeTx } from '../db/write-tx';
import { type BackoffOptions, classifyFailure, nextAttemptDelay, outboxError } from './backoff';
import { mayHaveReachedServer } from './coalesce';
import { removeStagedFiles } from './files';
import { adoptLostCreates, lookBeforeSend, noteAdopted } from './lost-answers';
import { addNotice, possibleTwin } from './notices';
import { type Applied, answered, type Outcome, type Written } from './push-outcome';
import {
  failPermanently,
  getMutation,
  markConflict,
  markInflight,
  readyMutations,
  retryLater,
  settle,
} from './queue';
import { lookUpRefused, type ReconcileContext } from './reconcile';
import { sendMutation } from './send';
import {
  type EntityKey,
  goneIsDone,
  kindSpec,
  type OutboxError,
  type QueuedMutation,
} from './types';

export type PushEvent =
  | { type: 'sent'; mutation: QueuedMutation; applied: Applied }
  | { type: 'failed'; mutation: QueuedMutation; error: OutboxError }
  | { type: 'retrying'; mutation: QueuedMutation; error: OutboxError; nextAttemptAt: number }
  | { type: 'upload-progress'; mutationId: number; completedBytes: number; totalSize: number }
  | { type: 'online'; online: boolean }
  | { type: 'auth-required' };

export interface PusherOptions {
  replica: Replica;
  client: ApiClient;
  dataDir: string;
  userId: number;
  concurrency?: number;
  now?: () => number;
  random?: () => number;
  backoff?: BackoffOptions;
  /**
   * Writes the server's answer to a settled row into the replica, in the settling transaction
   * (the edit layer's applyAnswer, which knows what local rows a create made).
   */
  applyAnswer: (
    db: Replica['db'],
    row: QueuedMutation,
    answer: unknown,
    path: Record<string, number>,
    now: number,
  ) => Applied;
  /** Restores the server's copy for edits that will not happen (the edit layer's rollBack). */
  rollBack: (rows: QueuedMutation[]) => void;
  /**
   * Whether the user deleted the row's entity, or what it lives in, after it (the edit
   * layer's `deletedAfter`): a 404 for it is then done, not a conflict.
   */
  deletedAfter?: (row: QueuedMutation) => boolean;
  /**
   * After an update's answer, which rewrote the entity's own row only: its queued edits are
   * shown on top again (cheaper than the full rebase of everything depending on it).
   */
  reapplyOwn?: (entity: EntityKey) => void;
  /** Runs in the transaction that settles a row (e.g. queue a timer correction). */
  afterSettle?: (row: QueuedMutation, answer: unknown) => void;
  /** The row as it goes now (a running timer's correction is computed when it is sent). */
  atSend?: (row: QueuedMutation) => QueuedMutation;
  onEvent?: (event: PushEvent) => void;
}

export interface PushSummary {
  sent: number;
  failed: number;
  /** Rows still waiting for a retry. */
  waiting: number;
}

export class Pusher {
  private running: Promise<PushSummary> | null = null;
  private authPaused = false;
  private stopped = false;

  constructor(private readonly options: PusherOptions) {}

  get pausedForAuth(): boolean {
    return this.authPaused;
  }

  /** After a sign-in: rows waiting on auth go again. */
  resumeAuth(): void {
    this.authPaused = false;
  }

  stop(): void {
    this.stopped = true;
  }

  /** Sends every ready row, until none is ready; a second call joins the one running. */
  push(): Promise<PushSummary> {
    this.stopped = false;
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private emit(event: PushEvent): void {
    this.options.onEvent?.(event);
  }

  /**
   * Each turn: a freed slot is filled first (the server is kept busy), then the answers that
   * came in are written in one transaction (each in a savepoint) with the rows they free
   * marked in flight. Rows are marked in flight in a commit before their requests go (a crash
   * must find them in flight); events and staged-file removal follow the commit.
   */
  private async drain(): Promise<PushSummary> {
    const summary: PushSummary = { sent: 0, failed: 0, waiting: 0 };
    const limit = this.options.concurrency ?? 4;
    const inflight = new Map<number, Promise<void>>();
    /** Outcomes received and not yet written. */
    const answered: Outcome[] = [];
    const db = this.options.replica.db;
    const send = (rows: readonly QueuedMutation[]) => {
      for (const row of rows) {
        const job = this.sendOne(row)
          .then((outcome) => {
            answered.push(outcome);
          })
          .finally(() => inflight.delete(row.mutationId));
        inflight.set(row.mutationId, job);
      }
    };
    /** Whether rows may be ready that the last look did not take (cleared by a full look). */
    let mayBeReady = true;
    // A freed slot is filled before any answer is written: the server is kept busy.
    const fill = () => {
      const free = limit - inflight.size;
      if (!mayBeReady || free <= 0) return;
      const rows = this.take(free);
      mayBeReady = rows.length === free;
      send(rows);
    };
    for (;;) {
      fill();
      if (answered.length > 0) {
        const { rows, written } = this.step(answered.splice(0), limit - inflight.size);
        for (const w of written) this.afterCommit(w, summary);
        send(rows);
        // Written answers may free rows for slots that free up later.
        mayBeReady = true;
      }
      if (inflight.size === 0 && answered.length === 0) break;
      if (answered.length === 0) await Promise.race(inflight.values());
      // Answers that arrive meanwhile are written with this one, in the same transaction.
      await new Promise((resolve) => setImmediate(resolve));
    }
    summary.waiting = (
      db.prepare("SELECT count(*) AS n FROM outbox WHERE state = 'pending'").get() as { n: number }
    ).n;
    return summary;
  }

  /** Marks up to `free` ready rows in flight, committed before they are sent. */
  private take(free: number): QueuedMutation[] {
    return this.options.replica.transaction(() => this.takeIn(free));
  }

  /** `take` inside the caller's transaction. */
  private takeIn(free: number): QueuedMutation[] {
    if (this.authPaused || this.stopped || free <= 0) return [];
    const db = this.options.replica.db;
    const rows = readyMutations(db, this.now(), free);
    for (const row of rows) markInflight(db, row.mutationId, this.now());
    return rows;
  }

  /**
   * Writes outcomes and takes the next rows in one transaction. Should that transaction fail
   * (a full or locked disk), each outcome is written alone instead, where a failure sends only
   * that row back to wait (`applySent`), and no row is taken this step.
   */
  private step(
    outcomes: readonly Outcome[],
    free: number,
  ): { rows: QueuedMutation[]; written: Written[] } {
    const { replica } = this.options;
    try {
      return replica.transaction(() => {
        // The answers' rebase (the replica's hook, at the end of their own transaction) runs
        // before rows are taken: a row taken in flight is past merging, and an edit queued
        // behind a create would keep no base to tell its own values from someone else's.
        const written = replica.transaction(() => outcomes.map((o) => this.write(o)));
        return { rows: this.takeIn(free), written };
      });
    } catch (error) {
      if (outcomes.length === 0) throw error;
      return { rows: [], written: outcomes.map((o) => replica.transaction(() => this.write(o))) };
    }
  }

  /** Writes one outcome (in the caller's transaction): what the server said, or the failure. */
  private write(o: Outcome): Written {
    switch (o.type) {
      case 'answer': {
        const written = this.applySent(o.row, o.answer, o.path, o.counts);
        if (o.adopted && written.type === 'sent')
          noteAdopted(this.options.replica.db, o.row, this.now());
        if (o.twin)
          addNotice(this.options.replica.db, o.row.entity, possibleTwin(o.row), this.now());
        return written;
      }
      case 'blocked':
        retryLater(
          this.options.replica.db,
          o.row.mutationId,
          { kind: 'local', failure: 'retry', message: 'waiting for an entity it refers to' },
          this.now() + 1_000,
          this.now(),
        );
        return { type: 'none' };
      case 'error':
        return this.fail(o.row, o.error, o.lookup === true);
    }
  }

  /** Events and staged-file removal, once what was written is committed. */
  private afterCommit(w: Written, summary: PushSummary): void {
    switch (w.type) {
      case 'sent':
        if (w.counts) summary.sent++;
        removeStagedFiles(this.options.dataDir, w.files);
        this.emit({ type: 'sent', mutation: w.row, applied: w.applied });
        return;
      case 'retrying':
        if (w.offline) this.emit({ type: 'online', online: false });
        this.emit({ type: 'retrying', mutation: w.row, error: w.error, nextAttemptAt: w.at });
        return;
      case 'auth':
        this.emit({ type: 'auth-required' });
        return;
      case 'failed':
        summary.failed++;
        this.emit({ type: 'failed', mutation: w.row, error: w.error });
        return;
      case 'none':
        return;
    }
  }

  /**
   * Creates whose answer was lost are looked up and adopted when the server has them (see
   * lost-answers.ts). Run before a pull.
   */
  reconcileLostCreates(): Promise<number> {
    return adoptLostCreates(this.lookupContext(), (row, found, path) => {
      const written = this.options.replica.transaction(() => {
        const w = this.succeed(row, found, path, false);
        if (w.type === 'sent') noteAdopted(this.options.replica.db, row, this.now());
        return w;
      });
      this.afterCommit(written, { sent: 0, failed: 0, waiting: 0 });
    });
  }

  private lookupContext(): ReconcileContext {
    const { client, replica, userId } = this.options;
    return { client, db: replica.db, userId };
  }

  /** Sends a row; answers what came back, to be written with the others of the step. */
  private async sendOne(queued: QueuedMutation): Promise<Outcome> {
    const { replica, client, dataDir } = this.options;
    const row = this.options.atSend?.(queued) ?? queued;
    try {
      // The earlier answer was lost: on a service that ignores Idempotency-Key it may exist.
      let twin = false;
      try {
        const before = await lookBeforeSend(this.lookupContext(), row);
        if (before.type === 'found') return answered(row, before.found, before.path, true);
        twin = before.twin;
      } catch (error) {
        // Nothing went this attempt: the row keeps what the lost attempt may have done.
        return { type: 'error', row, error, lookup: true };
      }
      const outcome = await sendMutation(
        {
          client,
          db: replica.db,
          dataDir,
          onProgress: (completedBytes, totalSize) =>
            this.emit({
              type: 'upload-progress',
              mutationId: row.mutationId,
              completedBytes,
              totalSize,
            }),
        },
        row,
      );
      if (outcome.status === 'blocked') return { type: 'blocked', row };
      this.emit({ type: 'online', online: true });
      return { ...answered(row, outcome.answer, outcome.path), twin };
    } catch (error) {
      const done = await lookUpRefused(this.lookupContext(), row, error);
      if (done && 'found' in done) return answered(row, done.found, done.path, true);
      return done
        ? { type: 'error', row, error: done.lookupFailed, lookup: true }
        : { type: 'error', row, error };
    }
  }

  /**
   * The server took the edit; writing its answer here failed (a locked or full disk). The
   * edit must not be rolled back: the row waits and goes again, and its idempotency key (or
   * the lookup of a lost create) makes the second send land on what the first one did.
   * Runs in the caller's transaction; the answer's writes in a savepoint of their own.
   */
  private applySent(
    row: QueuedMutation,
    answer: unknown,
    path: Record<string, number>,
    counts: boolean,
  ): Written {
    try {
      return writeTx(this.options.replica.db, () => this.succeed(row, answer, path, counts));
    } catch (error) {
      const now = this.now();
      const info = outboxError(error, 'retry');
      const at = now + nextAttemptDelay(1, undefined, this.options.random, this.options.backoff);
      retryLater(this.options.replica.db, row.mutationId, info, at, now);
      return { type: 'retrying', row, error: info, at, offline: false };
    }
  }

  /** Writes the answer (in the caller's transaction); the staged files go after the commit. */
  private succeed(
    row: QueuedMutation,
    answer: unknown,
    path: Record<string, number>,
    counts: boolean,
  ): Written {
    const { replica } = this.options;
    const { files } = settle(replica.db, row.mutationId);
    const applied = this.options.applyAnswer(replica.db, row, answer, path, this.now());
    const effect = kindSpec(row.kind).effect;
    const ownRowOnly = (effect === 'update' || effect === 'move') && this.options.reapplyOwn;
    if (ownRowOnly) for (const key of applied.touched) this.options.reapplyOwn?.(key);
    else replica.noteServerWrite(applied.touched, { own: true });
    this.options.afterSettle?.(row, answer);
    return { type: 'sent', row, applied, files, counts };
  }

  /**
   * Classifies a failure and writes what follows from it (in the caller's transaction);
   * `lookup`: the failure was a look for a lost answer's (see `OutboxError.lookup`).
   */
  private fail(row: QueuedMutation, error: unknown, lookup = false): Written {
    const db = this.options.replica.db;
    const now = this.now();
    const failure = classifyFailure(error, row.kind);
    // Still ours? A crash-free path always is; a stop mid-flight leaves it in flight.
    const current = getMutation(db, row.mutationId);
    if (!current) return { type: 'none' };
    // The row keeps one error: a 429 or 401 now must not hide that an earlier attempt (its
    // error still stored) may have reached the server.
    const earlier =
      current.attempts > 1 &&
      mayHaveReachedServer({
        state: 'pending',
        attempts: current.attempts - 1,
        lastError: current.lastError,
      });
    const info: OutboxError = {
      ...outboxError(error, failure),
      ...(lookup || earlier ? { lookup: true } : {}),
    };
    switch (failure) {
      case 'retry':
      case 'rate-limited': {
        const retryAfter = isApiClientError(error) ? error.retryAfterMs : undefined;
        const at =
          now +
          nextAttemptDelay(current.attempts, retryAfter, this.options.random, this.options.backoff);
        retryLater(db, row.mutationId, info, at, now);
        const offline =
          isApiClientError(error) && (error.kind === 'network' || error.kind === 'timeout');
        return { type: 'retrying', row, error: info, at, offline };
      }
      case 'auth':
        // Nothing is dropped: the row goes back as it was, and the outbox waits for a sign-in.
        retryLater(db, row.mutationId, info, now, now);
        this.authPaused = true;
        return { type: 'auth' };
      case 'conflict':
        // Gone already (perhaps by this very request, whose answer was lost), or the user
        // deleted it after this edit: done.
        if (goneIsDone(row.kind) || this.options.deletedAfter?.(row)) {
          return this.applySent(row, null, row.path, false);
        }
        markConflict(db, row.mutationId, info, now);
        return { type: 'failed', row, error: info };
      case 'permanent':
        writeTx(db, () => {
          failPermanently(db, row.mutationId, info, now);
          this.options.rollBack([row]);
        });
        return { type: 'failed', row, error: info };
    }
  }
}
