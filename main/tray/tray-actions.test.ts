import { describe, expect, it } from 'vitest';
import type { EditCommand } from '../../shared/edits/commands';
import { editCommand } from '../../shared/edits/commands';
import { signedOutState, type TrayTimerState } from './timer-state';
import { applyEdits, editsForAction, shortcutAction } from './tray-actions';

const base: TrayTimerState = {
  signedIn: true,
  active: null,
  recent: [
    { taskId: 3, taskTitle: 'Last' },
    { taskId: 4, taskTitle: 'Before' },
  ],
  observedAt: 0,
};

describe('editsForAction', () => {
  it('maps each timer action to outbox edits the contract accepts', () => {
    const cases: [Parameters<typeof editsForAction>[0], EditCommand[]][] = [
      [{ kind: 'pause', trackId: 7 }, [{ kind: 'timer.pause', trackId: 7 }]],
      [{ kind: 'resume', trackId: 7 }, [{ kind: 'timer.resume', trackId: 7 }]],
      [{ kind: 'stop', trackId: -2 }, [{ kind: 'timer.stop', trackId: -2 }]],
      [{ kind: 'start', taskId: 9 }, [{ kind: 'timer.start', taskId: 9 }]],
      [
        { kind: 'switch', trackId: 7, taskId: 9 },
        [
          { kind: 'timer.stop', trackId: 7 },
          { kind: 'timer.start', taskId: 9 },
        ],
      ],
      [{ kind: 'open-app' }, []],
      [{ kind: 'open-task', taskId: 9 }, []],
      [{ kind: 'open-view', view: 'settings' }, []],
      [{ kind: 'quit' }, []],
    ];
    for (const [action, edits] of cases) {
      expect(editsForAction(action), action.kind).toEqual(edits);
      for (const e of edits) expect(editCommand.safeParse(e).success).toBe(true);
    }
  });
});

describe('shortcutAction', () => {
  it('stops an active timer, running or paused', () => {
    for (const state of ['RUNNING', 'PAUSED'] as const) {
      const s = {
        ...base,
        active: { trackId: 8, taskId: 4, taskTitle: 'x', state, durationSeconds: 5 },
      };
      expect(shortcutAction(s)).toEqual({ kind: 'stop', trackId: 8 });
    }
  });

  it('starts the task timed last, or does nothing without one or signed out', () => {
    expect(shortcutAction(base)).toEqual({ kind: 'start', taskId: 3 });
    expect(shortcutAction({ ...base, recent: [] })).toBeNull();
    expect(shortcutAction(signedOutState(0))).toBeNull();
  });
});

describe('applyEdits', () => {
  it('applies in order and stops at the first refusal', async () => {
    const applied: string[] = [];
    const port = {
      apply: async (c: EditCommand) => {
        if (c.kind === 'timer.stop') throw new Error('cannot stop a stopped timer');
        applied.push(c.kind);
      },
    };
    await expect(
      applyEdits(port, editsForAction({ kind: 'switch', trackId: 1, taskId: 2 })),
    ).rejects.toThrow(/stopped timer/);
    expect(applied).toEqual([]);
    await applyEdits(port, [
      { kind: 'timer.pause', trackId: 1 },
      { kind: 'timer.resume', trackId: 1 },
    ]);
    expect(applied).toEqual(['timer.pause', 'timer.resume']);
  });
});
