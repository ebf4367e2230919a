/**
 * The service's clock as this machine sees it: the offset between the two clocks, estimated
 * from the answers' timestamps. Two machines' raw clocks are never compared: a laptop's clock
 * is routinely minutes off, and "who wrote last" or "a time in the future" decided on raw
 * clocks lost edits (issue 14).
 *
 * Each answer stamped with the server's time `s`, sent at `t0` and received at `t1` on this
 * clock, says offset ∈ [s − t1 − p, s − t0 + p] (`p` the stamp's precision). The estimate is
 * the intersection of the newest samples that still agree (a jump of either clock empties the
 * intersection: the older samples are dropped), its midpoint the offset and its half width
 * the error.
 */

export interface ClockSample {
  /** This machine's clock when the request went out and when its answer was in. */
  sentAt: number;
  receivedAt: number;
  /** The server's time stamped on the answer, epoch ms. */
  serverTime: number;
  /** How coarse the stamp is: 1 ms for an ISO time with milliseconds, 1000 for an HTTP Date. */
  precisionMs: number;
}

export interface ClockEstimate {
  /** Server time minus this machine's time. */
  offsetMs: number;
  /** How far the true offset may be from `offsetMs`. */
  errorMs: number;
  /** This machine's time of the newest sample the estimate rests on. */
  at: number;
}

/** How many recent samples are kept; and how old one may be to still narrow the estimate. */
const MAX_SAMPLES = 64;
const MAX_SAMPLE_AGE_MS = 10 * 60_000;
/** Clock drift allowance for an estimate carried over from an earlier run (100 ppm). */
const DRIFT_PER_MS = 1e-4;

export class ServerClock {
  private samples: { lo: number; hi: number; at: number }[] = [];
  private current: ClockEstimate | null = null;
  private readonly listeners = new Set<(e: ClockEstimate) => void>();

  /** One answer's timing. Samples that make no sense (received before sent) are ignored. */
  observe(sample: ClockSample): void {
    const { sentAt, receivedAt, serverTime, precisionMs } = sample;
    if (![sentAt, receivedAt, serverTime, precisionMs].every(Number.isFinite)) return;
    if (receivedAt < sentAt || precisionMs < 0) return;
    const lo = serverTime - receivedAt - precisionMs;
    const hi = serverTime - sentAt + precisionMs;
    this.samples.push({ lo, hi, at: receivedAt });
    if (this.samples.length > MAX_SAMPLES) this.samples.shift();
    let low = -Infinity;
    let high = Infinity;
    let kept = 0;
    for (let i = this.samples.length - 1; i >= 0; i--) {
      const s = this.samples[i];
      if (!s || receivedAt - s.at > MAX_SAMPLE_AGE_MS) break;
      const nextLow = Math.max(low, s.lo);
      const nextHigh = Math.min(high, s.hi);
      // An older sample that disagrees: one of the clocks jumped since; it and older ones go.
      if (nextLow > nextHigh) break;
      low = nextLow;
      high = nextHigh;
      kept++;
    }
    this.samples = this.samples.slice(this.samples.length - kept);
    this.set({ offsetMs: (low + high) / 2, errorMs: (high - low) / 2, at: receivedAt });
  }

  /**
   * An estimate from an earlier run (the replica keeps one): it counts as a sample taken now,
   * widened by its age, so a first coarse answer (an HTTP Date, to the second) narrows it
   * instead of replacing it.
   */
  seed(estimate: ClockEstimate, now: number): void {
    if (this.current) return;
    const error = estimate.errorMs + Math.max(0, now - estimate.at) * DRIFT_PER_MS;
    this.samples = [{ lo: estimate.offsetMs - error, hi: estimate.offsetMs + error, at: now }];
    this.set({ offsetMs: estimate.offsetMs, errorMs: error, at: now });
  }

  estimate(): ClockEstimate | null {
    return this.current;
  }

  /** A time of this machine's clock in the server's clock (the best guess; as is when unknown). */
  toServer(localMs: number): number {
    return localMs + Math.round(this.current?.offsetMs ?? 0);
  }

  onChange(listener: (e: ClockEstimate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(e: ClockEstimate): void {
    this.current = e;
    for (const l of this.listeners) l(e);
  }
}

/** The server's time an answer carries: its envelope's `timestamp`, else its HTTP Date. */
export const answerTime = (
  timestamp: unknown,
  dateHeader: string | undefined,
): { serverTime: number; precisionMs: number } | null => {
  if (typeof timestamp === 'string') {
    const ms = Date.parse(timestamp);
    if (Number.isFinite(ms)) {
      const fraction = /\.(\d+)/.exec(timestamp)?.[1]?.length ?? 0;
      return {
        serverTime: ms,
        precisionMs: fraction >= 3 ? 1 : fraction > 0 ? 10 ** (3 - fraction) : 1000,
      };
    }
  }
  if (dateHeader) {
    const ms = Date.parse(dateHeader);
    if (Number.isFinite(ms)) return { serverTime: ms, precisionMs: 1000 };
  }
  return null;
};
