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
  }

  failed(now: number): void {
    this.failures++;
    this.retryAt = now + nextAttemptDelay(this.failures, undefined, this.random, this.backoff);
  }

  /** The retry after a failed pull, or null after one that worked. */
  get retryAfterFailure(): number | null {
    return this.retryAt;
  }

  /**
   * When the next pull is due: a failed pull's retry, else the interval after the last good one
   * (which, after a long time offline, lies in the past: due at once).
   */
  get dueAt(): number {
    return this.retryAt ?? this.lastGoodAt + this.intervalMs;
  }
}
