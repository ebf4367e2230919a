/**
 * When the engine's status is told: at most once per turn of the loop and only when it
 * changed; while a push settles rows (hundreds a second, each lowering the pending count), at
 * most every 50 ms, since computing a status costs a few queries.
 */
import type { EngineStatus } from './engine-api';

const PROGRESS_EVERY_MS = 50;

export class StatusEmitter {
  private lastJson = '';
  private queued = false;
  private progressTimer: ReturnType<typeof setTimeout> | null = null;

  /** `compute` answers null when there is nothing to tell (the replica closed). */
  constructor(
    private readonly compute: () => EngineStatus | null,
    private readonly tell: (status: EngineStatus) => void,
  ) {}

  /** Something changed: told in this turn's end. */
  changed(): void {
    if (this.queued) return;
    this.queued = true;
    setImmediate(() => {
      this.queued = false;
      this.cancelProgress();
      const status = this.compute();
      if (!status) return;
      const json = JSON.stringify(status);
      if (json === this.lastJson) return;
      this.lastJson = json;
      this.tell(status);
    });
  }

  /** A replayed edit lowered the pending count: told within 50 ms. */
  progressed(): void {
    if (this.queued || this.progressTimer) return;
    this.progressTimer = setTimeout(() => {
      this.progressTimer = null;
      this.changed();
    }, PROGRESS_EVERY_MS);
  }

  cancelProgress(): void {
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.progressTimer = null;
  }
}
