import type { BridgeEndpoint } from '../bridge/endpoint';
import {
  type AwayChoice,
  type AwayPrompt,
  type AwaySpan,
  awayPrompt,
  editsForAway,
} from './away-edits';
import { spanFromMarker, takeAwayMarker, writeAwayMarker } from './away-marker';
import { editsPort } from './bridge-calls';
import { IdleWatch } from './idle-watch';
import { elapsedSeconds, type TrayTimerState } from './timer-state';
import { applyEdits } from './tray-actions';

export interface TimerSource {
  readonly state: TrayTimerState;
  refresh(): Promise<void>;
}

export interface AwayControllerOptions {
  endpoint: Pick<BridgeEndpoint, 'call'>;
  timer: TimerSource;
  /** Shows the question (a native dialog) and resolves with the answer. */
  ask(prompt: AwayPrompt): Promise<AwayChoice>;
  /** Seconds since the last keyboard or mouse input (`powerMonitor.getSystemIdleTime`). */
  idleSeconds(): number;
  /** Where the shutdown marker lives (the app's user data folder). */
  dataDir: string;
  idleMinutes: number;
  now?: () => number;
  onError?(message: string): void;
}

/**
 * Asks, when the user comes back, what to do with the time a running timer counted while they
 * were away: idle at the keyboard, asleep, or shut down. One question at a time; the answer's
 * edits go through the outbox like any other.
 */
export class AwayController {
  private readonly watch: IdleWatch;
  private readonly now: () => number;
  private asking = false;
  private launchChecked = false;

  constructor(private readonly options: AwayControllerOptions) {
    this.watch = new IdleWatch({ idleMinutes: options.idleMinutes });
    this.now = options.now ?? Date.now;
  }

  setIdleMinutes(minutes: number): void {
    this.watch.setIdleMinutes(minutes);
  }

  private running(): boolean {
    return this.options.timer.state.active?.state === 'RUNNING';
  }

  /** Every few seconds, with the OS idle time. */
  pollIdle(): Promise<void> {
    return this.handle(this.watch.poll(this.now(), this.options.idleSeconds(), this.running()));
  }

  /** Once a second (with the tray's tick): catches a sleep that sent no events. */
  tick(): Promise<void> {
    return this.handle(this.watch.tick(this.now(), this.running()));
  }

  suspend(): void {
    this.watch.suspend(this.now());
  }

  resume(): Promise<void> {
    return this.handle(this.watch.resume(this.now(), this.running()));
  }

  /** The machine is shutting down: ask at the next launch if the timer still runs then. */
  shutdown(): void {
    const active = this.options.timer.state.active;
    if (active?.state === 'RUNNING') {
      writeAwayMarker(this.options.dataDir, { trackId: active.trackId, at: this.now() });
    }
  }

  /**
   * At launch, once the timer has been read signed in (the session may resume after the first
   * read): a shutdown the timer ran through. Asked once per launch.
   */
  atLaunch(): Promise<void> {
    if (this.launchChecked || !this.options.timer.state.signedIn) return Promise.resolve();
    this.launchChecked = true;
    const marker = takeAwayMarker(this.options.dataDir);
    return this.handle(spanFromMarker(marker, this.options.timer.state.active, this.now()));
  }

  private async handle(span: AwaySpan | null): Promise<void> {
    if (!span || this.asking) return;
    const { timer, ask, endpoint } = this.options;
    const asked = timer.state.active;
    if (asked?.state !== 'RUNNING') return;
    this.asking = true;
    try {
      const atReturn = { ...asked, durationSeconds: elapsedSeconds(timer.state, span.to) };
      const choice = await ask(awayPrompt(span, atReturn, asked.taskTitle));
      if (choice === 'keep') return;
      // The answer may come much later, and the timer may have moved meanwhile (another
      // device, the tray): the edits are computed from a fresh read, at the moment of answer.
      await timer.refresh();
      const active = timer.state.active;
      if (active?.trackId !== asked.trackId || active.state !== 'RUNNING') return;
      const now = { ...active, durationSeconds: elapsedSeconds(timer.state, this.now()) };
      await applyEdits(editsPort(endpoint), editsForAway(choice, span, now));
      await timer.refresh();
    } catch (error) {
      this.options.onError?.(error instanceof Error ? error.message : String(error));
    } finally {
      this.asking = false;
    }
  }
}
