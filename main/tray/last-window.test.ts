import { describe, expect, it } from 'vitest';
import { lastWindowChoice, lastWindowQuestion, lastWindowStep } from './last-window';
import { signedOutState, type TrayTimerState } from './timer-state';

const timing = (state: 'RUNNING' | 'PAUSED'): TrayTimerState => ({
  signedIn: true,
  active: { trackId: 7, taskId: 12, taskTitle: 'Design review', state, durationSeconds: 2_520 },
  recent: [],
  observedAt: 1_000_000,
});

describe('closing the last window', () => {
  it('stays in the tray where there is one, timer or not', () => {
    expect(lastWindowStep(true, timing('RUNNING'))).toBe('stay');
    expect(lastWindowStep(true, signedOutState(0))).toBe('stay');
  });

  it('without a tray quits, and asks first while a timer runs', () => {
    expect(lastWindowStep(false, signedOutState(0))).toBe('quit');
    expect(lastWindowStep(false, timing('PAUSED'))).toBe('quit');
    expect(lastWindowStep(false, timing('RUNNING'))).toBe('ask');
  });

  it('asks naming the task and its time; Escape keeps the app, its window open again', () => {
    const q = lastWindowQuestion(timing('RUNNING'), 1_000_000 + 10_000);
    expect(q.message).toBe('Quit Worktray with the timer running?');
    expect(q.detail).toBe(
      '“Design review” has run for 0:42:10. It keeps running while Worktray is closed; open ' +
        'Worktray again to stop it.',
    );
    expect(q.buttons).toEqual([
      'Stop the timer and quit',
      'Quit, keep it running',
      'Keep Worktray open',
    ]);
    expect(lastWindowChoice(q.cancelId)).toBe('reopen');
    expect([0, 1, 2, 9].map(lastWindowChoice)).toEqual([
      'stop-and-quit',
      'quit',
      'reopen',
      'reopen',
    ]);
  });
});
