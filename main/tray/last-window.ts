import { elapsedSeconds, formatElapsed, shortTitle, type TrayTimerState } from './timer-state';

/**
 * What closing the last window does. With a tray icon the app stays, its timer in the tray.
 * Without one (a desktop with no tray) a hidden app could be neither seen nor quit, so it quits;
 * with a timer running it asks first, since the timer goes on at the server with nothing here
 * showing it.
 */
export type LastWindowStep = 'stay' | 'quit' | 'ask';

export const lastWindowStep = (hasTray: boolean, state: TrayTimerState): LastWindowStep => {
  if (hasTray) return 'stay';
  return state.active?.state === 'RUNNING' ? 'ask' : 'quit';
};

/** The answers to the question, in its buttons' order. */
export const lastWindowChoices = ['stop-and-quit', 'quit', 'reopen'] as const;
export type LastWindowChoice = (typeof lastWindowChoices)[number];

export interface LastWindowQuestion {
  message: string;
  detail: string;
  buttons: string[];
  /** Escape, or the dialog closed: keep the app, its window open again. */
  cancelId: number;
}

export const lastWindowQuestion = (state: TrayTimerState, now: number): LastWindowQuestion => {
  const a = state.active;
  const what = a ? `“${shortTitle(a.taskTitle, a.taskId)}”` : 'Your timer';
  return {
    message: 'Quit Worktray with the timer running?',
    detail:
      `${what} has run for ${formatElapsed(elapsedSeconds(state, now))}. It keeps running ` +
      'while Worktray is closed; open Worktray again to stop it.',
    buttons: ['Stop the timer and quit', 'Quit, keep it running', 'Keep Worktray open'],
    cancelId: lastWindowChoices.indexOf('reopen'),
  };
};

export const lastWindowChoice = (response: number): LastWindowChoice =>
  lastWindowChoices[response] ?? 'reopen';
