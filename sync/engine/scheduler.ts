import type { PullResult } from './progress';
import type { Puller } from './pull';

export interface PullSchedulerOptions {
  /** Time between two successful pulls. */
  intervalMs?: number;
  /** First retry delay after a failure; doubles per failure up to `retryMaxMs`, with jitter. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  onResult?: (result: PullResult) => void;
  onError?: (error: unknown, nextAttemptAt: number) => void;
  now?: () => number;
  random?: () => number;
}

/**
 * When pulls happen: at start, on an interval, on demand and on reconnect. The caller decides
 * which; the Puller underneath makes sure two pulls never run at once. A failed pull is
 * retried with exponential backoff and jitter, and the next attempt time is reported.
 */
export class PullScheduler {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private failures = 0;
  private running = false;
  private nextAt: number | null = null;

  constructor(
    private readonly puller: Puller,
    private readonly options: PullSchedulerOptions = {},
  ) {}

  /** When the next scheduled pull will start, or null when stopped. */
  get nextAttemptAt(): number | null {
    return this.nextAt;
  }

  /** Pulls now, then keeps pulling on the interval until stopped. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  stop(): void {
    this.running = false;
    this.nextAt = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** A pull on demand (joins one in flight); the schedule continues from its end. */
  async pullNow(): Promise<PullResult> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return this.run();
  }

  /** The network came back: forget the backoff and pull at once. */
  reconnected(): void {
    this.failures = 0;
    if (this.running) this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    const now = this.options.now ?? Date.now;
    this.nextAt = now() + delayMs;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.run().catch(() => undefined);
    }, delayMs);
  }

  private async run(): Promise<PullResult> {
    try {
      const result = await this.puller.pull();
      this.failures = 0;
      this.options.onResult?.(result);
      this.schedule(this.options.intervalMs ?? 60_000);
      return result;
    } catch (error) {
      this.failures++;
      const base = this.options.retryBaseMs ?? 2_000;
      const max = this.options.retryMaxMs ?? 5 * 60_000;
      const random = this.options.random ?? Math.random;
      const delay = Math.min(max, base * 2 ** (this.failures - 1)) * (0.5 + random() / 2);
      this.schedule(delay);
      this.options.onError?.(error, this.nextAt ?? 0);
      throw error;
    }
  }
}
