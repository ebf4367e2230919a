/**
 * The sync engine of one replica: edits applied and queued at once, the outbox replayed,
 * pulls on an interval and after edits, one status the host can show, events for every change.
 * Plain Node: the host runs it off the UI's event loop.
 */
import type { EditCommand, EditResult } from '../../shared/edits/commands';
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
import { Pusher } from '../outbox/pusher';
import type { EntityKey, Json } from '../outbox/types';
import { ChangeBatcher } from './change-batcher';
import { ClockKeeper } from './clock-keeper';
import type { EngineEvent, EngineOptions, EngineStatus, SyncEngine } from './engine-api';
import { LazyData } from './lazy';
import { StatusEmitter } from './status-emitter';
import { SyncLoop } from './sync-loop';
import { queueTimerCorrection, timerUpdateAtSend } from './timer-correction';

export const openEngine = (options: EngineOptions): SyncEngine => new Engine(options);

/**
 * One replica's engine: opens it, applies the user's local commands (edits, undo, retries,
 * "changes from sync"), and tells one status and the events; the sync loop (sync-loop.ts)
 * pulls and pushes, the clock keeper (clock-keeper.ts) watches this machine's clock.
 */
class Engine implements SyncEngine {
  readonly replica: Replica;
  readonly lazy: LazyData;
  private readonly now: () => number;
  private readonly clock: ClockKeeper;
  private readonly loop: SyncLoop;
  private readonly listeners = new Set<(e: EngineEvent) => void>();
  private readonly changes: ChangeBatcher;
  private readonly statusEmitter = new StatusEmitter(
    () => (this.replica.db.open ? this.status() : null),
    (status) => {
      this.emit({ type: 'status', status });
      this.tellNewChanges(status.changesUnseen);
    },
  );
  /** The newest "change from sync" the window was told of. */
  private toldChangeId = -1;

  /** The replica's own folder: its staged uploads and attachment content, no other org's. */
  private readonly filesDir: string;

  constructor(private readonly options: EngineOptions) {
    const client = options.client;
    const key = { serverUrl: client.baseUrl.origin, userId: options.userId, orgId: client.orgId };
    this.replica = Replica.open(options.dataDir, key);
    // One clock with the API client's: the server clock's offset is estimated against it.
    const clock = options.now ?? client.clock;
    this.clock = new ClockKeeper(this.replica, client.serverClock, clock, clock === client.clock);
    this.now = this.clock.now;
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
      this.changes.add(touched as ReadonlySet<EntityKey>, this.loop.pushing ? 'push' : 'pull');
    });
    this.lazy = new LazyData(this.replica, client, this.filesDir, this.now);
    const pusher = new Pusher({
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
      onEvent: (e) => this.loop.onPush(e),
    });
    this.loop = new SyncLoop({
      replica: this.replica,
      client,
      pusher,
      now: this.now,
      ...(options.schedule ? { timer: options.schedule } : {}),
      pullIntervalMs: options.pullIntervalMs ?? 30_000,
      backoff: options.backoff,
      changes: this.changes,
      status: this.statusEmitter,
      emit: (e) => this.emit(e),
      afterCycle: () => this.clock.keepEstimate(),
    });
    // Whose work this replica holds, before any edit: a pull's deletions of it are told.
    noteLocalUser(db, options.userId);
  }

  /** The rebase's clocks: this machine's now, and the server's offset as estimated. */
  private rebaseOptions() {
    return { now: this.now(), clock: this.options.client.serverClock.estimate() };
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  async close(): Promise<void> {
    await this.stop();
    this.clock.close();
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

  /**
   * The tail of every local change: the window re-reads what changed, the status counts, and
   * the queue goes (unless the change queued nothing: a discard).
   */
  private changedLocally(entities: Iterable<string>, queued = true): void {
    this.changes.add(new Set(entities) as ReadonlySet<EntityKey>, 'edit');
    this.changes.flush();
    this.statusEmitter.changed();
    if (queued) this.loop.pushSoon();
  }

  edit(command: EditCommand): EditResult {
    const [result] = this.editAll([command]);
    if (!result) throw new Error('an edit answered nothing');
    return result;
  }

  editAll(commands: readonly EditCommand[]): EditResult[] {
    const results = editRecorded(this.historyIo(), commands);
    this.changedLocally(results.flatMap((r) => r.ids.map((id) => `${r.entityKind}:${id}`)));
    return results;
  }

  undo(): StepOutcome | null {
    const done = undo(this.historyIo());
    if (!done) return null;
    removeStagedFiles(this.filesDir, done.files);
    this.changedLocally(done.entities);
    return { label: done.label, kind: done.kind, entities: done.entities };
  }

  redo(): StepOutcome | null {
    const done = redo(this.historyIo());
    if (done) this.changedLocally(done.entities);
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
    this.changedLocally(row ? [row.entity] : []);
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
    this.changedLocally([row.entity], false);
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
    this.changedLocally(row ? [row.entity] : []);
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

  syncNow(): Promise<void> {
    return this.loop.syncNow();
  }

  setPullInterval(ms: number): void {
    this.loop.setPullInterval(ms);
  }

  pause(): void {
    this.loop.pause();
  }

  resume(): void {
    this.loop.resume();
  }

  signedIn(): void {
    this.loop.signedIn();
  }

  // ---- status and events --------------------------------------------------------------------

  status(): EngineStatus {
    const now = this.now();
    const s = outboxStatus(this.replica.db, now);
    const retries = [s.nextRetryAt, this.loop.pullRetryAt(now)].filter(
      (n): n is number => n !== null,
    );
    return {
      ...this.loop.status(),
      pending: s.pending + s.inflight,
      pendingByKind: s.pendingByKind,
      failed: s.failed,
      nextRetryAt: retries.length > 0 ? Math.min(...retries) : null,
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
