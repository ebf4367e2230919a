import type { EditCommand } from '../../shared/edits/commands';
import { formatElapsed, shortTitle } from './timer-state';

/**
 * Time a running timer counted while the user was away (idle at the keyboard, the machine asleep
 * or shut down), and what each answer to "what about that time?" edits:
 *
 * - keep:    nothing; the timer keeps the time.
 * - discard: the timer's running time loses the away part and keeps counting from now
 *            (`timer.update` of its duration: on an active timer the server reads it as "the
 *            duration is this, now").
 * - split:   as discard, and the away part becomes its own entry on the same task
 *            (`timer.range` from when the user left to when they came back), to keep, move or
 *            delete later.
 */

export type AwayReason = 'idle' | 'sleep' | 'shutdown';
export type AwayChoice = 'keep' | 'discard' | 'split';
export const awayChoices: readonly AwayChoice[] = ['keep', 'discard', 'split'];

export interface AwaySpan {
  reason: AwayReason;
  /** When the user left (last input, suspend, shutdown), epoch ms. */
  from: number;
  /** When they came back, epoch ms. */
  to: number;
}

export interface RunningTimer {
  trackId: number;
  taskId: number;
  /** Running seconds at `span.to`. */
  durationSeconds: number;
}

/**
 * The part of the span the timer counted, in whole seconds: never more than the timer holds
 * (a timer started while the user was away counted only since its start).
 */
export const countedAwaySeconds = (span: AwaySpan, timer: RunningTimer): number =>
  Math.max(0, Math.min(Math.floor((span.to - span.from) / 1000), timer.durationSeconds));

export const editsForAway = (
  choice: AwayChoice,
  span: AwaySpan,
  timer: RunningTimer,
): EditCommand[] => {
  const away = countedAwaySeconds(span, timer);
  if (choice === 'keep' || away === 0) return [];
  const trimmed: EditCommand = {
    kind: 'timer.update',
    trackId: timer.trackId,
    patch: { durationSeconds: timer.durationSeconds - away },
  };
  if (choice === 'discard') return [trimmed];
  return [
    trimmed,
    {
      kind: 'timer.range',
      taskId: timer.taskId,
      startTime: span.to - away * 1000,
      endTime: span.to,
    },
  ];
};

/** Spans shorter than this are not worth a question (a brief lid close, a slow wake-up). */
export const MIN_AWAY_MS = 60_000;

const reasonText: Record<AwayReason, string> = {
  idle: 'You were away from the computer',
  sleep: 'The computer was asleep',
  shutdown: 'The computer was shut down',
};

export interface AwayPrompt {
  message: string;
  detail: string;
  /** Button labels, in the order of `awayChoices`. */
  buttons: string[];
  /** Index of the button a dismissed dialog (Escape) means: keep, which changes nothing. */
  cancelId: number;
}

export const awayPrompt = (
  span: AwaySpan,
  timer: RunningTimer,
  taskTitle: string | null,
): AwayPrompt => {
  const away = formatElapsed(countedAwaySeconds(span, timer));
  return {
    message: `${reasonText[span.reason]} for ${away} while the timer ran`,
    detail: `"${shortTitle(taskTitle, timer.taskId, 80)}" counted that time. Keep it, discard it, or split it off as a separate entry?`,
    buttons: ['Keep', 'Discard', 'Split off'],
    cancelId: awayChoices.indexOf('keep'),
  };
};
