/**
 * The sync engine of one replica: edits applied and queued at once, the outbox replayed,
 * pulls on an interval and after edits, one status the host can show, events for every change.
 * Plain Node: the host runs it off the UI's event loop.
 */
import type { EditCommand, EditResult } from '../../shared/edits/commands';
import type { ClockEstimate } from '../api';
import { isApiClientError } from '../api/errors';
import { canRestore, resolveChange } from '../changes/resolve';
import {
  lastChangeId,
  listChanges,
  markChangesSeen,
  type StoredChange,
  settleChangesOf,
  unseenChanges,
} from '../changes/store';
import { replicaFilesDir } from '../db/open';
import {
  readClockEstimate,
  readClockWatch,
  writeClockEstimate,
  writeClockWatch,
} from '../db/queries/server-clock';
import { readStreamState } from '../db/queries/sync-state';
import { Replica } from '../db/replica';
import { writeTx } from '../db/write-tx';
import {
  applyAnswer,
  applyEdit,
  reapplyPending,
  rebaseOwnRows,
  recreate,
  rollBack,
} from '../edits';
import { noteLocalUser } from '../edits/state';
import { deletedAfter } from '../edits/superseded';
import { editRecorded, type HistoryIo, redo, type StepOutcome, undo } from '../history';
import {
  discard as discardRow,
  getMutation,
  outboxStatus,
  removeStagedFiles,
  resetInflight,
  retryFailed,
  sweepOrphanFiles,
} from '../outbox';
import { adoptSharedStagedFiles } from '../outbox/files';
import { dismissNotice, listNotices } from '../outbox/notices';
import { type PushEvent, Pusher } from '../outbox/pusher';
import type { EntityKey, Json } from '../outbox/types';
import { ChangeBatcher } from './change-batcher';
import { restampClock } from './clock-step';
import type { EngineEvent, EngineOptions, EngineStatus, SyncEngine } from './engine-api';
import { LazyData } from './lazy';
import { NotificationWatch } from './notification-watch';
import { PullCancelledError, type PullProgress } from './progress';
import { Puller } from './pull';
import { PullSchedule } from './pull-schedule';
import { StatusEmitter } from './status-emitter';
import { queueTimerCorrection, timerUpdateAtSend } from './timer-correction';

const PUSH_DEBOUNCE_MS = 15;

/** The next cycle's wait: it does not keep the process alive. */
const unrefTimeout = (run: () => void, delayMs: number): (() => void) => {
  const timer = setTimeout(run, delayMs);
  timer.unref?.();
  return () => clearTimeout(timer);
};

export const openEngine = (options: EngineOptions): SyncEngine => new Engine(options);

class Engine implements SyncEngine {
  readonly replica: Replica;
  readonly lazy: LazyData;
  private readonly now: () => number;
  private readonly listeners = new Set<(e: EngineEvent) => void>();
  private readonly puller: Puller;
  private readonly pusher: Pusher;
  private readonly changes: ChangeBatcher;
  private started = false;
  private paused = false;
  private online = true;
  private activity: EngineStatus['activity'] = 'idle';
  private lastSyncAt: number | null = null;
  private lastError: string | null = null;
  /**
   * Streams of a first fill still bootstrapping, each with its last progress. They run side by
   * side (tasks while spaces and projects come): the fill goes on until none is left, whatever
   * another stream's progress says.
   */
  private readonly bootstrapping = new Map<string, PullProgress>();
  private readonly pullSchedule: PullSchedule;
  private needsSignIn = false;
  private cycle: Promise<void> | null = null;
  private pushOnly: Promise<void> | null = null;
  private abort = new AbortController();
  /** Cancels the armed wait for the next cycle. */
  private cancelTick: (() => void) | null = null;
  private pushTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly statusEmitter = new StatusEmitter(
    () => (this.replica.db.open ? this.status() : null),
    (status) => {
      this.emit({ type: 'status', status });
      this.tellNewChanges(status.changesUnseen);
    },
  );
  /** The newest "change from sync" the window was told of. */
  private toldChangeId = -1;
  private notifications: NotificationWatch;

  /** The replica's own folder: its staged uploads and attachment content, no other org's. */
  private readonly filesDir: string;

  constructor(private readonly options: EngineOptions) {
    this.pullSchedule = new PullSchedule(options.pullIntervalMs ?? 30_000, options.backoff);
    // One clock with the API client's: the server clock's offset is estimated against it. Its
    // every reading is checked for a jump before it stamps anything (a step moves the times
    // the replica keeps, clock-step.ts). An engine given a clock of its own (tests moving time
    // by hand) is not watched: its readings and the answers' would be of two clocks.
    const clock = options.now ?? options.client.clock;
    const client = options.client;
    const watched = clock === client.clock;
    this.now = !watched
      ? clock
      : () => {
          const t = clock();
          client.serverClock.noteLocal(t);
          // A forward jump not told apart yet is kept: a crash before the server's answer
          // must not forget it.
          const unsure = client.serverClock.unsureJumps().length;
          if (unsure !== this.keptUnsure) this.keepClockWatch(unsure);
          return t;
        };
    const key = { serverUrl: client.baseUrl.origin, userId: options.userId, orgId: client.orgId };
    this.replica = Replica.open(options.dataDir, key);
    // Before this clock is first read: the server clock's estimate this replica kept, and the
    // watch of this clock from its last engine (a jump while it was closed, in this process, is
    // seen at the next reading; a forward jump not told apart is still to be).
    const kept = readClockEstimate(this.replica.db);
    if (kept) client.serverClock.seed(kept, clock());
    const watch = watched ? readClockWatch(this.replica.db) : null;
    if (watch) client.serverClock.resumeWatch(watch, watch.origin === performance.timeOrigin);
    this.keptUnsure = client.serverClock.unsureJumps().length;
    this.offStep = !watched
      ? () => false
      : client.serverClock.onStep((step) => {
          if (!this.replica.db.open) return;
          restampClock(this.replica.db, step.jumps, clock());
          // The estimate moved with the step: kept now, or a crash before the next sync would
          // leave the next run stamping on the old one until its first answer.
          this.keepClockEstimate();
          this.keepClockWatch(client.serverClock.unsureJumps().length);
        });
    this.watched = watched;
    this.filesDir = replicaFilesDir(options.dataDir, key);
    const db = this.replica.db;
    // A crash left rows in flight: they go again (their idempotency key makes that safe).
    resetInflight(db, this.now());
    adoptSharedStagedFiles(db, options.dataDir, this.filesDir);
    sweepOrphanFiles(db, this.filesDir);
    this.changes = new ChangeBatcher((entities, source) =>
      this.emit({ type: 'changed', entities, source }),
    );
    this.replica.onServerWrite((wdb, touched, own) => {
      reapplyPending(wdb, touched, { ...this.rebaseOptions(), own });
      this.changes.add(touched as ReadonlySet<EntityKey>, this.pushing ? 'push' : 'pull');
    });
    this.lazy = new LazyData(this.replica, client, this.filesDir, this.now);
    this.puller = new Puller(this.replica, client, {
      now: this.now,
      onProgress: (progress) => {
        if (progress.mode === 'bootstrap' && !progress.done)
          this.bootstrapping.set(progress.stream, progress);
        else this.bootstrapping.delete(progress.stream);
        this.emit({ type: 'pull-progress', progress });
        this.statusEmitter.changed();
      },
    });
    this.pusher = new Pusher({
      replica: this.replica,
      client,
      dataDir: this.filesDir,
      userId: options.userId,
      concurrency: options.concurrency ?? 4,
      now: this.now,
      ...(options.backoff ? { backoff: options.backoff } : {}),
      applyAnswer,
      rollBack: (rows) => rollBack(db, rows, this.now()),
      deletedAfter: (row) => deletedAfter(db, row),
      reapplyOwn: (entity) => rebaseOwnRows(db, entity, this.rebaseOptions()),
      afterSettle: (row, answer) =>
        queueTimerCorrection(
          db,
          row,
          answer,
          this.now(),
          client.serverClock.unsureJumps().length > 0,
        ),
      atSend: (row) => timerUpdateAtSend(db, row, this.now()),
      onEvent: (e) => this.onPush(e),
    });
    this.notifications = new NotificationWatch(db);
    // Whose work this replica holds, before any edit: a pull's deletions of it are told.
    noteLocalUser(db, options.userId);
  }

  /** How many forward jumps not told apart the replica keeps. */
  private keptUnsure = 0;

  private keepClockWatch(unsure: number): void {
    this.keptUnsure = unsure;
    if (!this.watched || !this.replica.db.open) return;
    writeClockWatch(this.replica.db, {
      origin: performance.timeOrigin,
      ...this.options.client.serverClock.watchState(),
    });
  }

  private pushing = false;
  private keptClock: ClockEstimate | null = null;
  private readonly offStep: () => void;
  /** This engine's clock is its client's, checked for jumps (see the constructor). */
  private readonly watched: boolean;

  /** The server clock's estimate, into the replica when it changed (a run offline uses it). */
  private keepClockEstimate(): void {
    const e = this.options.client.serverClock.estimate();
    if (!e || e === this.keptClock || !this.replica.db.open) return;
    this.keptClock = e;
    writeClockEstimate(this.replica.db, e);
  }

  /** The rebase's clocks: this machine's now, and the server's offset as estimated. */
  private rebaseOptions() {
    return { now: this.now(), clock: this.options.client.serverClock.estimate() };
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  start(): void {
    if (this.started) return;
    this.started = true;
    this.abort = new AbortController();
    void this.syncNow();
  }

  async stop(): Promise<void> {
    this.started = false;
    this.clearTimers();
    this.abort.abort();
    this.pusher.stop();
    await Promise.allSettled([this.cycle, this.pushOnly]);
  }

  async close(): Promise<void> {
    await this.stop();
    // A last reading: a jump since the one before is kept for the next run to tell apart (a
    // step seen by no engine of this replica, then a crash, would count in its timers).
    this.now();
    this.keepClockEstimate();
    this.keepClockWatch(this.options.client.serverClock.unsureJumps().length);
    this.offStep();
    this.replica.onServerWrite(null);
    this.changes.flush();
    this.replica.close();
  }

  on(listener: (event: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- edits --------------------------------------------------------------------------------

  /** The history's access to the replica: edits applied with this engine's context. */
  private historyIo(): HistoryIo {
    const now = this.now();
    const ctx = {
      now,
      userId: this.options.userId,
      dataDir: this.filesDir,
      serverOffsetMs: this.options.client.serverClock.estimate()?.offsetMs ?? 0,
      clockUnsure: this.options.client.serverClock.unsureJumps(),
    };
    return {
      db: this.replica.db,
      now,
      userId: this.options.userId,
      filesDir: this.filesDir,
      apply: (c) => applyEdit(this.replica.db, c, ctx),
    };
  }

  /** After edits: the window re-reads what changed, the status counts, the queue goes. */
  private edited(entities: Iterable<string>): void {
    this.changes.add(new Set(entities) as ReadonlySet<EntityKey>, 'edit');
    this.changes.flush();
    this.statusEmitter.changed();
    this.pushSoon();
  }

  edit(command: EditCommand): EditResult {
    const [result] = this.editAll([command]);
    if (!result) throw new Error('an edit answered nothing');
    return result;
  }

  editAll(commands: readonly EditCommand[]): EditResult[] {
    const results = editRecorded(this.historyIo(), commands);
    this.edited(results.flatMap((r) => r.ids.map((id) => `${r.entityKind}:${id}`)));
    return results;
  }

  undo(): StepOutcome | null {
    const done = undo(this.historyIo());
    if (!done) return null;
    removeStagedFiles(this.filesDir, done.files);
    this.edited(done.entities);
    return { label: done.label, kind: done.kind, entities: done.entities };
  }

  redo(): StepOutcome | null {
    const done = redo(this.historyIo());
    if (done) this.edited(done.entities);
    return done;
  }

  retry(mutationId: number, body?: Json): void {
    const db = this.replica.db;
    const row = getMutation(db, mutationId);
    writeTx(db, () => {
      retryFailed(db, mutationId, this.now(), body === undefined ? {} : { body });
      settleChangesOf(db, mutationId);
      // The failure rolled the replica back: the edit shows again while it waits.
      if (row) reapplyPending(db, new Set([row.entity]), this.rebaseOptions());
    });
    if (row) this.changes.add(new Set([row.entity]), 'edit');
    this.statusEmitter.changed();
    this.pushSoon();
  }

  discard(mutationId: number): void {
    const db = this.replica.db;
    const row = getMutation(db, mutationId);
    if (!row) return;
    let files: string[] = [];
    writeTx(db, () => {
      const dropped = discardRow(db, mutationId);
      settleChangesOf(db, mutationId);
      files = dropped.files;
      rollBack(db, dropped.mutations, this.now());
    });
    removeStagedFiles(this.filesDir, files);
    this.changes.add(new Set([row.entity]), 'edit');
    this.changes.flush();
    this.statusEmitter.changed();
  }

  resolveConflict(mutationId: number, choice: 'recreate' | 'discard'): EditResult | null {
    if (choice === 'discard') {
      this.discard(mutationId);
      return null;
    }
    const row = getMutation(this.replica.db, mutationId);
    const made = writeTx(this.replica.db, () => {
      const result = recreate(this.replica.db, mutationId, this.now());
      settleChangesOf(this.replica.db, mutationId);
      return result;
    });
    if (row) this.changes.add(new Set([row.entity]), 'edit');
    this.changes.flush();
    this.statusEmitter.changed();
    this.pushSoon();
    return made;
  }

  dismissNotice(noticeId: number): void {
    dismissNotice(this.replica.db, noticeId);
    this.statusEmitter.changed();
  }

  // ---- changes from sync --------------------------------------------------------------------

  changesFromSync(): StoredChange[] {
    return listChanges(this.replica.db, this.now());
  }

  seeChanges(): void {
    markChangesSeen(this.replica.db);
    this.statusEmitter.changed();
  }

  resolveChange(changeId: number, choice: 'keepTheirs' | 'restoreMine'): void {
    resolveChange(
      {
        db: this.replica.db,
        edit: (c) => this.edit(c),
        retry: (id) => this.retry(id),
        discard: (id) => this.discard(id),
        recreate: (id) => this.resolveConflict(id, 'recreate'),
      },
      changeId,
      choice,
    );
    this.statusEmitter.changed();
  }

  /** The list grew since the window was last told: it is told (a badge, a toast). */
  private tellNewChanges(unseen: number): void {
    const last = lastChangeId(this.replica.db);
    if (this.toldChangeId >= 0 && last > this.toldChangeId)
      this.emit({ type: 'sync-changes', unseen, latestChangeId: last });
    this.toldChangeId = last;
  }

  canRestoreChange(change: StoredChange): boolean {
    return canRestore(this.replica.db, change);
  }

  // ---- control ------------------------------------------------------------------------------

  setPullInterval(ms: number): void {
    this.pullSchedule.setInterval(ms);
    // The timer armed for the old interval is moved; a cycle under way arms the new one itself.
    if (!this.cycle && !this.pushOnly) this.scheduleNext();
  }

  pause(): void {
    this.paused = true;
    this.clearTimers();
    this.pusher.stop();
    this.statusEmitter.changed();
  }

  resume(): void {
    this.paused = false;
    this.statusEmitter.changed();
    if (this.started) void this.syncNow();
  }

  signedIn(): void {
    this.needsSignIn = false;
    this.pusher.resumeAuth();
    this.statusEmitter.changed();
    if (this.started) void this.syncNow();
  }

  /**
   * Pull, then push. The pull first: pending edits are rebased on the server's newest rows
   * (fields someone else changed meanwhile are merged, not overwritten by our full-state
   * updates), so an edit made offline goes out as a merge. Edits made online go at once
   * (`pushSoon`) without waiting for a pull.
   */
  syncNow(): Promise<void> {
    if (this.paused) return Promise.resolve();
    this.cycle ??= this.runCycle().finally(() => {
      this.cycle = null;
      this.scheduleNext();
    });
    return this.cycle;
  }

  private async runCycle(): Promise<void> {
    if (this.paused || !this.started) return;
    // An edit's push in flight finishes first: a pull meanwhile would see half of it.
    await this.pushOnly;
    if (!this.pusher.pausedForAuth) await this.pusher.reconcileLostCreates();
    this.activity = 'pulling';
    this.statusEmitter.changed();
    const pulled = await this.pull();
    // Edits that waited go only on a pull that worked: their other fields (and whether someone
    // changed theirs meanwhile) are judged on the server's newest copy, not on what was seen
    // before going offline. New edits do not wait for a pull (`pushSoon`).
    if (pulled) await this.push();
    this.keepClockEstimate();
    this.activity = 'idle';
    const s = outboxStatus(this.replica.db, this.now());
    if (pulled && s.retrying.length === 0) {
      this.lastSyncAt = this.now();
      this.lastError = null;
    }
    this.statusEmitter.changed();
  }

  private async pull(): Promise<boolean> {
    const firstFill = readStreamState(this.replica.db, 'notifications') === null;
    try {
      await this.puller.pull(this.abort.signal);
      this.pullSchedule.succeeded(this.now());
      this.setOnline(true);
      this.bootstrapping.clear();
      this.changes.flush();
      const arrived = this.notifications.arrived(firstFill);
      if (arrived.length > 0)
        this.emit({ type: 'notifications-arrived', notificationIds: arrived });
      return true;
    } catch (error) {
      this.bootstrapping.clear();
      if (error instanceof PullCancelledError) return false;
      this.pullSchedule.failed(this.now());
      if (isApiClientError(error)) {
        if (error.kind === 'network' || error.kind === 'timeout') this.setOnline(false);
        if (error.kind === 'auth') this.needsSignIn = true;
      }
      this.lastError = error instanceof Error ? error.message : String(error);
      return false;
    }
  }

  private async push(): Promise<void> {
    if (this.pusher.pausedForAuth || this.paused) return;
    this.pushing = true;
    this.activity = 'pushing';
    this.statusEmitter.changed();
    try {
      await this.pusher.push();
    } finally {
      this.pushing = false;
      this.activity = this.cycle ? this.activity : 'idle';
      this.changes.flush();
      this.statusEmitter.changed();
    }
  }

  /** After an edit: send soon (a burst of edits coalesces in the queue meanwhile). */
  private pushSoon(): void {
    if (!this.started || this.paused || this.pushTimer) return;
    this.pushTimer = setTimeout(() => {
      this.pushTimer = null;
      if (this.cycle) return;
      this.pushOnly ??= this.push().finally(() => {
        this.pushOnly = null;
        this.activity = 'idle';
        this.statusEmitter.changed();
        this.scheduleNext();
      });
    }, PUSH_DEBOUNCE_MS);
  }

  /** The next cycle: the pull interval, a pull retry, or an edit's retry, whichever is first. */
  private scheduleNext(): void {
    if (!this.started || this.paused) return;
    this.cancelTick?.();
    const now = this.now();
    const candidates = [this.pullSchedule.dueAt(now)];
    const retry = outboxStatus(this.replica.db, now).nextRetryAt;
    if (retry !== null && !this.pusher.pausedForAuth) candidates.push(retry);
    const delay = Math.max(10, Math.min(...candidates) - now);
    this.cancelTick = (this.options.schedule ?? unrefTimeout)(() => {
      this.cancelTick = null;
      void this.syncNow();
    }, delay);
  }

  private clearTimers(): void {
    this.cancelTick?.();
    if (this.pushTimer) clearTimeout(this.pushTimer);
    this.statusEmitter.cancelProgress();
    this.cancelTick = null;
    this.pushTimer = null;
  }

  // ---- events -------------------------------------------------------------------------------

  private onPush(e: PushEvent): void {
    switch (e.type) {
      case 'sent':
        for (const r of e.applied.rekeyed) this.emit({ type: 'rekeyed', from: r.from, to: r.to });
        this.changes.add(e.applied.touched, 'push');
        this.statusEmitter.progressed();
        return;
      case 'upload-progress':
        this.emit(e);
        return;
      case 'online':
        this.setOnline(e.online);
        return;
      case 'auth-required':
        this.needsSignIn = true;
        break;
      case 'failed':
        this.changes.add(new Set([e.mutation.entity]), 'push');
        break;
      case 'retrying':
        this.lastError = e.error.message;
        break;
    }
    this.statusEmitter.changed();
  }

  private setOnline(online: boolean): void {
    if (this.online === online) return;
    this.online = online;
    this.statusEmitter.changed();
    // Back online: what waited for the network goes now.
    if (online && this.started && !this.cycle) void this.syncNow();
  }

  status(): EngineStatus {
    const now = this.now();
    const s = outboxStatus(this.replica.db, now);
    const retries = [s.nextRetryAt, this.pullSchedule.retryAfterFailure(now)].filter(
      (n): n is number => n !== null,
    );
    return {
      online: this.online,
      activity: this.activity,
      paused: this.paused,
      needsSignIn: this.needsSignIn || this.pusher.pausedForAuth,
      pending: s.pending + s.inflight,
      pendingByKind: s.pendingByKind,
      failed: s.failed,
      nextRetryAt: retries.length > 0 ? Math.min(...retries) : null,
      lastSyncAt: this.lastSyncAt,
      lastError: this.lastError,
      // The task export is most of a first fill: its progress is the one shown.
      bootstrap:
        this.bootstrapping.get('tasks') ?? this.bootstrapping.values().next().value ?? null,
      notices: listNotices(this.replica.db),
      changesUnseen: unseenChanges(this.replica.db, now),
    };
  }

  private emit(event: EngineEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // A listener's failure is the listener's; the engine goes on.
      }
    }
  }
}
