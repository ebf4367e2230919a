/**
 * The engine's clock and what the replica keeps of it: every reading of this machine's clock
 * checked for a jump before it stamps anything (a step moves the times the replica keeps,
 * clock-step.ts), and the server clock's estimate and the watch of this clock kept in the
 * replica, so that a run offline, or the next run after a crash, stamps as this one would.
 */
import type { ClockEstimate } from '../api';
import type { ServerClock } from '../api/server-clock';
import {
  readClockEstimate,
  readClockWatch,
  writeClockEstimate,
  writeClockWatch,
} from '../db/queries/server-clock';
import type { Replica } from '../db/replica';
import { restampClock } from './clock-step';

export class ClockKeeper {
  /** This machine's clock, as the engine reads it. */
  readonly now: () => number;
  /** How many forward jumps not told apart the replica keeps. */
  private keptUnsure = 0;
  private keptEstimate: ClockEstimate | null = null;
  private readonly offStep: () => void;

  /**
   * `watched`: the clock is the API client's, so the server clock's offset is estimated against
   * it and its readings are checked for jumps. A clock of its own (tests moving time by hand)
   * is not: its readings and the answers' would be of two clocks.
   */
  constructor(
    private readonly replica: Replica,
    private readonly serverClock: ServerClock,
    clock: () => number,
    private readonly watched: boolean,
  ) {
    this.now = !watched
      ? clock
      : () => {
          const t = clock();
          serverClock.noteLocal(t);
          // A forward jump not told apart yet is kept: a crash before the server's answer
          // must not forget it.
          const unsure = serverClock.unsureJumps().length;
          if (unsure !== this.keptUnsure) this.keepWatch(unsure);
          return t;
        };
    // Before this clock is first read: the server clock's estimate this replica kept, and the
    // watch of this clock from its last engine (a jump while it was closed, in this process, is
    // seen at the next reading; a forward jump not told apart is still to be).
    const kept = readClockEstimate(replica.db);
    if (kept) serverClock.seed(kept, clock());
    const watch = watched ? readClockWatch(replica.db) : null;
    if (watch) serverClock.resumeWatch(watch, watch.origin === performance.timeOrigin);
    this.keptUnsure = serverClock.unsureJumps().length;
    this.offStep = !watched
      ? () => false
      : serverClock.onStep((step) => {
          if (!replica.db.open) return;
          restampClock(replica.db, step.jumps, clock());
          // The estimate moved with the step: kept now, or a crash before the next sync would
          // leave the next run stamping on the old one until its first answer.
          this.keepEstimate();
          this.keepWatch(serverClock.unsureJumps().length);
        });
  }

  /** The server clock's estimate, into the replica when it changed (a run offline uses it). */
  keepEstimate(): void {
    const e = this.serverClock.estimate();
    if (!e || e === this.keptEstimate || !this.replica.db.open) return;
    this.keptEstimate = e;
    writeClockEstimate(this.replica.db, e);
  }

  /** Before the replica closes. */
  close(): void {
    // A last reading: a jump since the one before is kept for the next run to tell apart (a
    // step seen by no engine of this replica, then a crash, would count in its timers).
    this.now();
    this.keepEstimate();
    this.keepWatch(this.serverClock.unsureJumps().length);
    this.offStep();
  }

  private keepWatch(unsure: number): void {
    this.keptUnsure = unsure;
    if (!this.watched || !this.replica.db.open) return;
    writeClockWatch(this.replica.db, {
      origin: performance.timeOrigin,
      ...this.serverClock.watchState(),
    });
  }
}
