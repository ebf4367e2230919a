/**
 * When the engine pulls next: the interval after a pull that worked, counted from it; after
 * failures, the outbox's own backoff (doubling, with jitter), so an unreachable server is not
 * asked every interval nor spun on. Pure: the engine feeds it outcomes and reads the time.
 */
import { type BackoffOptions, nextAttemptDelay } from '../outbox/backoff';

export class PullSchedule {
  private failures = 0;
  private retryAt: number | null = null;
  private lastGoodAt = 0;
  /** When the last outcome came (this machine's clock). */
  private setAt = 0;

  constructor(
    private intervalMs: number,
    private readonly backoff: BackoffOptions = {},
    private readonly random: () => number = Math.random,
  ) {}

  /**
   * A new interval (the user's setting changed). It counts from the last good pull, so a
   * shorter one can make a pull due at once; a pending retry keeps its backoff.
   */
  setInterval(ms: number): void {
    this.intervalMs = ms;
  }

  succeeded(now: number): void {
    this.failures = 0;
    this.retryAt = null;
    this.lastGoodAt = now;
    this.setAt = now;
  }

  failed(now: number): void {
    this.failures++;
    this.retryAt = now + nextAttemptDelay(this.failures, undefined, this.random, this.backoff);
    this.setAt = now;
  }

  /**
   * The retry after a failed pull, or null after one that worked. Due at once when the clock
   * went back since the failure: a step back must not stretch the wait by the step (issue 23;
   * the outbox's rows alike, queue.ts `dueAtSql`).
   */
  retryAfterFailure(now: number): number | null {
    return this.retryAt === null ? null : this.wentBack(now) ? now : this.retryAt;
  }

  /**
   * When the next pull is due: a failed pull's retry, else the interval after the last good one
   * (which, after a long time offline, lies in the past: due at once). Due at once, too, when
   * this machine's clock went back since the last outcome.
   */
  dueAt(now: number): number {
    if (this.wentBack(now)) return now;
    return this.retryAt ?? this.lastGoodAt + this.intervalMs;
  }

  private wentBack(now: number): boolean {
    return now < this.setAt;
  }
}
