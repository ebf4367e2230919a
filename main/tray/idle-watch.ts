import { type AwaySpan, MIN_AWAY_MS } from './away-edits';

/**
 * Notices when the user left and came back while a timer ran. Fed by the binding with what
 * `powerMonitor` says (system idle seconds polled, suspend and resume events) and with a
 * once-a-second tick; it answers the away span to ask about, once, when the user is back.
 *
 * The tick also catches a sleep whose `suspend` event never arrived: wall-clock time jumping far
 * past the tick interval means the process was frozen, and the timer counted through it.
 */
export interface IdleWatchOptions {
  /** Minutes of no input before the time counts as away (settings `idleMinutes`). */
  idleMinutes: number;
  /** A gap between two ticks longer than this is a missed sleep. */
  tickGapMs?: number;
}

export class IdleWatch {
  private idleMs: number;
  private readonly tickGapMs: number;
  /** When the user's absence began, while it lasts. */
  private awayFrom: number | null = null;
  private awayReason: AwaySpan['reason'] = 'idle';
  private lastTick: number | null = null;
  /** The end of the last span answered. */
  private coveredUntil = Number.NEGATIVE_INFINITY;

  constructor(options: IdleWatchOptions) {
    this.idleMs = options.idleMinutes * 60_000;
    this.tickGapMs = options.tickGapMs ?? 120_000;
  }

  setIdleMinutes(minutes: number): void {
    this.idleMs = minutes * 60_000;
  }

  /** A poll of the system idle time. */
  poll(now: number, idleSeconds: number, timerRunning: boolean): AwaySpan | null {
    if (!timerRunning) return this.reset(now);
    // Time already asked about (a sleep some systems count as idle) is not asked about again.
    const lastInput = Math.max(now - idleSeconds * 1000, this.coveredUntil);
    if (this.awayFrom === null) {
      if (now - lastInput >= this.idleMs) this.begin(lastInput, 'idle');
      return null;
    }
    // Input since the absence began: the user is back (at their last input).
    if (lastInput > this.awayFrom && now - lastInput < this.idleMs) return this.end(lastInput, now);
    return null;
  }

  /** The machine is going to sleep (or shutting down): the absence starts now at the latest. */
  suspend(now: number, reason: 'sleep' | 'shutdown' = 'sleep'): void {
    if (this.awayFrom === null) this.begin(now, reason);
    else this.awayReason = reason;
  }

  /** The machine woke: a sleep always asks, however little input there was since. */
  resume(now: number, timerRunning: boolean): AwaySpan | null {
    if (this.awayFrom === null || !timerRunning) return this.reset(now);
    return this.end(now, now);
  }

  /** Once a second: a frozen process (sleep without a suspend event) shows as a jump. */
  tick(now: number, timerRunning: boolean): AwaySpan | null {
    const last = this.lastTick;
    this.lastTick = now;
    if (!timerRunning || last === null || now - last <= this.tickGapMs) return null;
    if (this.awayFrom === null) this.begin(last, 'sleep');
    else this.awayReason = 'sleep';
    return this.end(now, now);
  }

  private begin(at: number, reason: AwaySpan['reason']): void {
    this.awayFrom = at;
    this.awayReason = reason;
  }

  private end(to: number, now: number): AwaySpan | null {
    const from = this.awayFrom;
    const reason = this.awayReason;
    this.reset(now);
    this.coveredUntil = Math.max(this.coveredUntil, to);
    if (from === null || to - from < MIN_AWAY_MS) return null;
    return { reason, from, to };
  }

  private reset(now: number): null {
    this.awayFrom = null;
    this.awayReason = 'idle';
    this.lastTick = now;
    return null;
  }
}
