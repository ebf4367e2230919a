/**
 * The engine's sync loop (as Replicache's connection loop): a cycle of pull then push, on the
 * pull interval, after a failure's back-off or an edit's retry time, and a push alone soon
 * after each edit; what it is doing and how the last cycle went, for the engine's status.
 */
import type { ApiClient } from '../api';
import { isApiClientError } from '../api/errors';
import { readStreamState } from '../db/queries/sync-state';
import type { Replica } from '../db/replica';
import { outboxStatus } from '../outbox';
import type { PushEvent, Pusher } from '../outbox/pusher';
import type { ChangeBatcher } from './change-batcher';
import type { EngineEvent, EngineStatus } from './engine-api';
import { NotificationWatch } from './notification-watch';
import { PullCancelledError, type PullProgress } from './progress';
import { Puller } from './pull';
import { PullSchedule } from './pull-schedule';
import type { StatusEmitter } from './status-emitter';

const PUSH_DEBOUNCE_MS = 15;

/** The next cycle's wait: it does not keep the process alive. */
const unrefTimeout = (run: () => void, delayMs: number): (() => void) => {
  const timer = setTimeout(run, delayMs);
  timer.unref?.();
  return () => clearTimeout(timer);
};

export interface SyncLoopOptions {
  replica: Replica;
  client: ApiClient;
  pusher: Pusher;
  now: () => number;
  /** Arms the wait for the next cycle, answering its cancel (EngineOptions `schedule`). */
  timer?: (run: () => void, delayMs: number) => () => void;
  pullIntervalMs: number;
  backoff: ConstructorParameters<typeof PullSchedule>[1];
  /** What rows changed, told to the window. */
  changes: ChangeBatcher;
  status: StatusEmitter;
  emit: (event: EngineEvent) => void;
  /** After each cycle: the engine keeps what the cycle learnt of the server's clock. */
  afterCycle: () => void;
}

/** The loop's part of the engine's status. */
export type LoopStatus = Pick<
  EngineStatus,
  'online' | 'activity' | 'paused' | 'needsSignIn' | 'lastSyncAt' | 'lastError' | 'bootstrap'
>;

export class SyncLoop {
  private readonly puller: Puller;
  private readonly pusher: Pusher;
  private readonly schedule: PullSchedule;
  private readonly notifications: NotificationWatch;
  private started = false;
  private paused = false;
  private online = true;
  private needsSignIn = false;
  private activity: EngineStatus['activity'] = 'idle';
  private lastSyncAt: number | null = null;
  private lastError: string | null = null;
  /** True while a push's answers are written: their changes are told as the push's. */
  pushing = false;
  /**
   * Streams of a first fill still bootstrapping, each with its last progress. They run side by
   * side (tasks while spaces and projects come): the fill goes on until none is left, whatever
   * another stream's progress says.
   */
  private readonly bootstrapping = new Map<string, PullProgress>();
  private cycle: Promise<void> | null = null;
  private pushOnly: Promise<void> | null = null;
  private abort = new AbortController();
  /** Cancels the armed wait for the next cycle. */
  private cancelTick: (() => void) | null = null;
  private pushTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly o: SyncLoopOptions) {
    this.pusher = o.pusher;
    this.schedule = new PullSchedule(o.pullIntervalMs, o.backoff);
    this.notifications = new NotificationWatch(o.replica.db);
    this.puller = new Puller(o.replica, o.client, {
      now: o.now,
      onProgress: (progress) => {
        if (progress.mode === 'bootstrap' && !progress.done)
          this.bootstrapping.set(progress.stream, progress);
        else this.bootstrapping.delete(progress.stream);
        o.emit({ type: 'pull-progress', progress });
        o.status.changed();
      },
    });
  }

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

  setPullInterval(ms: number): void {
    this.schedule.setInterval(ms);
    // The timer armed for the old interval is moved; a cycle under way arms the new one itself.
    if (!this.cycle && !this.pushOnly) this.scheduleNext();
  }

  pause(): void {
    this.paused = true;
    this.clearTimers();
    this.pusher.stop();
    this.o.status.changed();
  }

  resume(): void {
    this.paused = false;
    this.o.status.changed();
    if (this.started) void this.syncNow();
  }

  signedIn(): void {
    this.needsSignIn = false;
    this.pusher.resumeAuth();
    this.o.status.changed();
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

  /** After an edit: send soon (a burst of edits coalesces in the queue meanwhile). */
  pushSoon(): void {
    if (!this.started || this.paused || this.pushTimer) return;
    this.pushTimer = setTimeout(() => {
      this.pushTimer = null;
      if (this.cycle) return;
      this.pushOnly ??= this.push().finally(() => {
        this.pushOnly = null;
        this.activity = 'idle';
        this.o.status.changed();
        this.scheduleNext();
      });
    }, PUSH_DEBOUNCE_MS);
  }

  status(): LoopStatus {
    return {
      online: this.online,
      activity: this.activity,
      paused: this.paused,
      needsSignIn: this.needsSignIn || this.pusher.pausedForAuth,
      lastSyncAt: this.lastSyncAt,
      lastError: this.lastError,
      // The task export is most of a first fill: its progress is the one shown.
      bootstrap:
        this.bootstrapping.get('tasks') ?? this.bootstrapping.values().next().value ?? null,
    };
  }

  /** When a failed pull is tried again, epoch ms (null: none failed). */
  pullRetryAt(now: number): number | null {
    return this.schedule.retryAfterFailure(now);
  }

  private async runCycle(): Promise<void> {
    if (this.paused || !this.started) return;
    // An edit's push in flight finishes first: a pull meanwhile would see half of it.
    await this.pushOnly;
    if (!this.pusher.pausedForAuth) await this.pusher.reconcileLostCreates();
    this.activity = 'pulling';
    this.o.status.changed();
    const pulled = await this.pull();
    // Edits that waited go only on a pull that worked: their other fields (and whether someone
    // changed theirs meanwhile) are judged on the server's newest copy, not on what was seen
    // before going offline. New edits do not wait for a pull (`pushSoon`).
    if (pulled) await this.push();
    this.o.afterCycle();
    this.activity = 'idle';
    const s = outboxStatus(this.o.replica.db, this.o.now());
    if (pulled && s.retrying.length === 0) {
      this.lastSyncAt = this.o.now();
      this.lastError = null;
    }
    this.o.status.changed();
  }

  private async pull(): Promise<boolean> {
    const firstFill = readStreamState(this.o.replica.db, 'notifications') === null;
    try {
      await this.puller.pull(this.abort.signal);
      this.schedule.succeeded(this.o.now());
      this.setOnline(true);
      this.bootstrapping.clear();
      this.o.changes.flush();
      const arrived = this.notifications.arrived(firstFill);
      if (arrived.length > 0)
        this.o.emit({ type: 'notifications-arrived', notificationIds: arrived });
      return true;
    } catch (error) {
      this.bootstrapping.clear();
      if (error instanceof PullCancelledError) return false;
      this.schedule.failed(this.o.now());
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
    this.o.status.changed();
    try {
      await this.pusher.push();
    } finally {
      this.pushing = false;
      this.activity = this.cycle ? this.activity : 'idle';
      this.o.changes.flush();
      this.o.status.changed();
    }
  }

  /** The next cycle: the pull interval, a pull retry, or an edit's retry, whichever is first. */
  private scheduleNext(): void {
    if (!this.started || this.paused) return;
    this.cancelTick?.();
    const now = this.o.now();
    const candidates = [this.schedule.dueAt(now)];
    const retry = outboxStatus(this.o.replica.db, now).nextRetryAt;
    if (retry !== null && !this.pusher.pausedForAuth) candidates.push(retry);
    const delay = Math.max(10, Math.min(...candidates) - now);
    this.cancelTick = (this.o.timer ?? unrefTimeout)(() => {
      this.cancelTick = null;
      void this.syncNow();
    }, delay);
  }

  private clearTimers(): void {
    this.cancelTick?.();
    if (this.pushTimer) clearTimeout(this.pushTimer);
    this.o.status.cancelProgress();
    this.cancelTick = null;
    this.pushTimer = null;
  }

  /** What the pusher tells as it goes. */
  onPush(e: PushEvent): void {
    switch (e.type) {
      case 'sent':
        for (const r of e.applied.rekeyed) this.o.emit({ type: 'rekeyed', from: r.from, to: r.to });
        this.o.changes.add(e.applied.touched, 'push');
        this.o.status.progressed();
        return;
      case 'upload-progress':
        this.o.emit(e);
        return;
      case 'online':
        this.setOnline(e.online);
        return;
      case 'auth-required':
        this.needsSignIn = true;
        break;
      case 'failed':
        this.o.changes.add(new Set([e.mutation.entity]), 'push');
        break;
      case 'retrying':
        this.lastError = e.error.message;
        break;
    }
    this.o.status.changed();
  }

  private setOnline(online: boolean): void {
    if (this.online === online) return;
    this.online = online;
    this.o.status.changed();
    // Back online: what waited for the network goes now.
    if (online && this.started && !this.cycle) void this.syncNow();
  }
}
