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
 *
 * This machine's clock also jumps (issue 23), and the engine keeps times of it (when an edit
 * was made, when a timer began running). Its readings are checked against the monotonic clock
 * (`noteLocal`): a jump of a second or more is a step or a sleep.
 * - Back: only a step does that (an NTP correction, the user setting the clock). The offset
 *   moves by the step at once, and the step is told (`onStep`): times kept of the old reading
 *   move with it, so that each still converts to the server's clock as it did. A sleep may
 *   hide behind it (set back, then slept, with no reading between): the server's next
 *   precise answer shows the offset moved further, and the rest of the step is told then.
 * - Forward: a sleep (the world's time, the server's with it, went on while this process was
 *   frozen: nothing to correct) or a step: the server's next precise answer tells. Until then
 *   it is taken for a sleep; when the answer shows the offset moved by the jump, the step is
 *   told, with the server times stamped meanwhile on the old offset (`LocalStep.windowFrom`).
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

/** One jump of this machine's clock: when, and how far it stepped. */
export interface ClockJump {
  /** The last reading of this machine's clock before the jump: kept times up to it are older. */
  before: number;
  /** How far the clock stepped (negative: back); 0 when a forward jump proved a sleep. */
  ms: number;
  /**
   * A forward step learnt late: server times stamped since the jump on the old offset are
   * those from this on, each `ms` ahead of the truth. Null for a step back (told at once).
   */
  windowFrom: number | null;
}

/** Jumps told apart (oldest first): each kept time moves by the steps it came before. */
export interface LocalStep {
  jumps: ClockJump[];
}

/** ServerClock's watch of this machine's clock, as an engine keeps it between runs. */
export interface WatchState {
  reading: { local: number; mono: number } | null;
  unsure: {
    /**
     * `unseen`: no process watched this clock after `before` (the app was not running), so a
     * jump of any size either way may hide there: the server's next precise answer tells.
     */
    jumps: { before: number; ms: number; unseen?: boolean }[];
    offsetMs: number;
    errorMs: number;
  } | null;
}

/** A jump of this machine's clock against the monotonic one at least this large is one. */
export const JUMP_MS = 1_000;

/**
 * An answer measures a move of the offset that no whole jump explains (part sleep, part
 * step) only when its window is at most this wide: ±50 ms.
 */
const MEASURE_MS = 100;

/** Answers too coarse to tell a jump set aside in a row before one is taken all the same. */
const TELL_ANYWAY = 8;

/** How many recent samples are kept. */
const MAX_SAMPLES = 64;
/**
 * Clock drift allowance (100 ppm): an older sample, and an estimate carried over from an
 * earlier run, count widened by their age. Not dropped for age: after a sleep, the only new
 * sample may be one sent before it, as wide as the sleep (issue 23).
 */
const DRIFT_PER_MS = 1e-4;

export class ServerClock {
  private samples: { lo: number; hi: number; at: number }[] = [];
  private current: ClockEstimate | null = null;
  private readonly listeners = new Set<(e: ClockEstimate) => void>();
  private readonly stepListeners = new Set<(s: LocalStep) => void>();
  /** The last reading of this machine's clock, with the monotonic clock's at it. */
  private reading: { local: number; mono: number } | null = null;
  /** Forward jumps not told apart yet (oldest first), with the estimate before them. */
  private unsure: WatchState['unsure'] = null;
  /** Answers set aside in a row as too coarse to tell the jumps not told apart (`decide`). */
  private setAside = 0;

  /** `monotonic`: a clock that never jumps (null: readings are not checked, as in tests). */
  constructor(private readonly monotonic: (() => number) | null = () => performance.now()) {}

  /**
   * A reading of this machine's clock about to be used (the engine's every one, an answer's
   * arrival): a jump since the last one is handled as the header says, before the reading
   * stamps anything.
   */
  noteLocal(local: number): void {
    if (!this.monotonic || !Number.isFinite(local)) return;
    const mono = this.monotonic();
    const last = this.reading;
    this.reading = { local, mono };
    if (!last) return;
    const jump = Math.round(local - last.local - (mono - last.mono));
    if (Math.abs(jump) < JUMP_MS) return;
    // Back: a step, taken at once; it may hide a sleep after it (no reading between), which
    // the next answer tells as the offset moving further than the step: kept as a jump of
    // 0 ms (nothing taken for a sleep yet), so that `decide` can take the rest of the step.
    const back = jump < 0;
    if (back) this.step({ jumps: [{ before: last.local, ms: jump, windowFrom: null }] });
    const e = this.current;
    const j = back ? { before: last.local + jump, ms: 0 } : { before: last.local, ms: jump };
    if (this.unsure) this.unsure.jumps.push(j);
    else if (e) this.unsure = { jumps: [j], offsetMs: e.offsetMs, errorMs: e.errorMs };
  }

  /**
   * What a later engine of this replica needs to go on watching: the last reading (with the
   * monotonic clock's, meaningful in this process only) and the forward jumps not told apart.
   */
  watchState(): WatchState {
    return {
      reading: this.reading,
      unsure: this.unsure ? { ...this.unsure, jumps: [...this.unsure.jumps] } : null,
    };
  }

  /**
   * Goes on from a kept state (before any reading): its jumps not told apart, and, when kept
   * by this very process (`sameProcess`), its last reading, so that a jump while no engine was
   * open is seen at the next one.
   */
  resumeWatch(state: WatchState, sameProcess: boolean): void {
    if (this.reading || this.unsure) return;
    this.unsure = state.unsure;
    if (sameProcess) {
      this.reading = state.reading;
      return;
    }
    // Another process's monotonic clock says nothing here: a step while no process watched
    // (the app closed, killed, or the machine restarted) shows only as the offset moving
    // against the estimate kept.
    const e = this.current;
    if (!state.reading || !e) return;
    const j = { before: state.reading.local, ms: 0, unseen: true };
    if (this.unsure) this.unsure.jumps.push(j);
    else this.unsure = { jumps: [j], offsetMs: e.offsetMs, errorMs: e.errorMs };
  }

  /** The forward jumps not told apart yet: the last reading before each (oldest first). */
  unsureJumps(): number[] {
    return this.unsure?.jumps.map((j) => j.before) ?? [];
  }

  onStep(listener: (s: LocalStep) => void): () => void {
    this.stepListeners.add(listener);
    return () => this.stepListeners.delete(listener);
  }

  /** The clock stepped: the offset and the samples move with it, and the step is told. */
  private step(s: LocalStep): void {
    // A kept time of this clock moves by every step it came before.
    const moved = (t: number) => t + s.jumps.reduce((n, j) => n + (t <= j.before ? j.ms : 0), 0);
    const total = s.jumps.reduce((n, j) => n + j.ms, 0);
    if (total !== 0) {
      this.samples = this.samples.map((x) => ({
        lo: x.lo - total,
        hi: x.hi - total,
        at: moved(x.at),
      }));
      if (this.unsure)
        this.unsure = {
          ...this.unsure,
          offsetMs: this.unsure.offsetMs - total,
          jumps: this.unsure.jumps.map((j) => ({ ...j, before: moved(j.before) })),
        };
      const e = this.current;
      if (e) this.set({ offsetMs: e.offsetMs - total, errorMs: e.errorMs, at: moved(e.at) });
    }
    for (const l of this.stepListeners) l(s);
  }

  /**
   * Jumps told apart by a sample sent after them, precise enough (a step back kept as a 0 ms
   * jump: only a further step back, a sleep hidden behind it, can come of it). The offset moved
   * back by as much as some of them add up to: those are steps, the others sleeps (none moved
   * it: all slept). Moved by another amount, a jump was part sleep and part step (two, with no
   * reading between; the step may be back): the step is the move, taken from the latest jumps.
   * False: the sample is too coarse to tell them (an HTTP Date, to the second, after a jump
   * of a few seconds, or after one of part sleep and part step); the `TELL_ANYWAY`th such in a
   * row is taken all the same, as well as it can be (a server that stamps only to the second,
   * a link slower than the jump, would tell nothing else).
   */
  private decide(sentAt: number, lo: number, hi: number): boolean {
    const u = this.unsure;
    const last = u?.jumps[u.jumps.length - 1];
    // After the last jump (one no process saw came before this process: any answer is after
    // it, though this clock may now read earlier than `before`).
    if (!u || !last || (!last.unseen && sentAt <= last.before)) return true;
    const anyway = this.setAside >= TELL_ANYWAY;
    const width = hi - lo;
    if (!anyway && width > Math.min(...u.jumps.map((j) => Math.max(j.ms, JUMP_MS))) / 2)
      return false;
    const total = u.jumps.reduce((n, j) => n + j.ms, 0);
    // Negative: the clock went back by that much meanwhile (a step back hidden in a sleep).
    const moved = Math.min(total, Math.round(u.offsetMs - (lo + hi) / 2));
    const tolerance = u.errorMs + (hi - lo) / 2 + 1;
    // A jump no process saw is the whole move of the offset, either way (beyond the estimate's
    // error and drift); the jumps seen beside it, rarer still, are taken for sleeps.
    const unseen = u.jumps.findIndex((j) => j.unseen);
    const all = Math.round(u.offsetMs - (lo + hi) / 2);
    let steps: number[] | null =
      unseen < 0
        ? null
        : u.jumps.map((_, i) => (i === unseen && Math.abs(all) > tolerance ? all : 0));
    let bestError = tolerance;
    for (let mask = 0; unseen < 0 && mask < 1 << Math.min(u.jumps.length, 10); mask++) {
      const pick = u.jumps.map((j, i) => (mask & (1 << i) ? j.ms : 0));
      const error = Math.abs(moved - pick.reduce((n, x) => n + x, 0));
      if (error <= bestError) [steps, bestError] = [pick, error];
    }
    // A move no whole jump explains is measured: only as well as the answer is precise.
    const measured = !steps || (unseen >= 0 && steps.some((x) => x !== 0));
    if (measured && !anyway && width > MEASURE_MS) return false;
    this.unsure = null;
    this.setAside = 0;
    if (!steps) {
      let left = moved;
      steps = u.jumps
        .map((j) => j.ms)
        .reverse()
        .map((ms) => {
          const part = Math.min(ms, left);
          left -= part;
          return part;
        })
        .reverse();
    }
    const taken = steps;
    this.step({
      jumps: u.jumps.map((j, i) => ({
        before: j.before,
        ms: taken[i] ?? 0,
        windowFrom: j.before + u.offsetMs + Math.round(j.ms / 2),
      })),
    });
    return true;
  }

  /** One answer's timing. Samples that make no sense (received before sent) are ignored. */
  observe(sample: ClockSample): void {
    const { sentAt, receivedAt, serverTime, precisionMs } = sample;
    if (![sentAt, receivedAt, serverTime, precisionMs].every(Number.isFinite)) return;
    if (receivedAt < sentAt || precisionMs < 0) return;
    this.noteLocal(receivedAt);
    const lo = serverTime - receivedAt - precisionMs;
    const hi = serverTime - sentAt + precisionMs;
    // While a jump is not told apart, the estimate keeps to the sleep it is taken for: a
    // coarse answer that disagrees would drop the precise samples for an estimate as wide as
    // its stamp, and times stamped on that would be neither the old offset's (which a step
    // told later moves) nor the new one's (seed 555926610).
    const e = this.current;
    const against = e !== null && (lo > e.offsetMs + e.errorMs || hi < e.offsetMs - e.errorMs);
    if (!this.decide(sentAt, lo, hi) && against) {
      this.setAside++;
      return;
    }
    this.samples.push({ lo, hi, at: receivedAt });
    if (this.samples.length > MAX_SAMPLES) this.samples.shift();
    let low = -Infinity;
    let high = Infinity;
    let kept = 0;
    for (let i = this.samples.length - 1; i >= 0; i--) {
      const s = this.samples[i];
      if (!s) break;
      const drift = Math.max(0, receivedAt - s.at) * DRIFT_PER_MS;
      const nextLow = Math.max(low, s.lo - drift);
      const nextHigh = Math.min(high, s.hi + drift);
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
