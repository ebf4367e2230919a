import { describe, expect, it } from 'vitest';
import { editCommand } from '../../shared/edits/commands';
import { awayPrompt, countedAwaySeconds, editsForAway } from './away-edits';

const MIN = 60_000;
const T = Date.UTC(2026, 10, 22, 14, 0, 0);
/** A timer started at 12:30 that has run 90 minutes at 14:00, 25 of them with the user away. */
const timer = { trackId: 40, taskId: 7, durationSeconds: 90 * 60 };
const span = { reason: 'idle' as const, from: T - 25 * MIN, to: T };

describe('editsForAway', () => {
  it('keep: no edit, the timer keeps all 90 minutes', () => {
    expect(editsForAway('keep', span, timer)).toEqual([]);
  });

  it('discard: the timer reads 65 minutes and keeps counting', () => {
    expect(editsForAway('discard', span, timer)).toEqual([
      { kind: 'timer.update', trackId: 40, patch: { durationSeconds: 65 * 60 } },
    ]);
  });

  it('split: 65 minutes on the timer, the 25 away minutes as their own entry', () => {
    const edits = editsForAway('split', span, timer);
    expect(edits).toEqual([
      { kind: 'timer.update', trackId: 40, patch: { durationSeconds: 3_900 } },
      { kind: 'timer.range', taskId: 7, startTime: T - 25 * MIN, endTime: T },
    ]);
    for (const e of edits) expect(editCommand.safeParse(e).success).toBe(true);
  });

  it('never takes more than the timer counted (it started while the user was away)', () => {
    const young = { ...timer, durationSeconds: 10 * 60 };
    expect(countedAwaySeconds(span, young)).toBe(600);
    expect(editsForAway('split', span, young)).toEqual([
      { kind: 'timer.update', trackId: 40, patch: { durationSeconds: 0 } },
      { kind: 'timer.range', taskId: 7, startTime: T - 10 * MIN, endTime: T },
    ]);
  });

  it('counts whole seconds, and a span of nothing edits nothing', () => {
    const odd = { ...span, from: T - 61_999 };
    expect(countedAwaySeconds(odd, timer)).toBe(61);
    expect(editsForAway('discard', odd, timer)).toEqual([
      { kind: 'timer.update', trackId: 40, patch: { durationSeconds: 5_339 } },
    ]);
    expect(editsForAway('discard', { ...span, from: T }, timer)).toEqual([]);
    expect(editsForAway('split', span, { ...timer, durationSeconds: 0 })).toEqual([]);
  });

  it('a sleep or a shutdown is answered the same way', () => {
    for (const reason of ['sleep', 'shutdown'] as const)
      expect(editsForAway('split', { ...span, reason }, timer)).toEqual(
        editsForAway('split', span, timer),
      );
  });
});

describe('awayPrompt', () => {
  it('says why, how long and offers keep, discard, split (Escape keeps)', () => {
    const p = awayPrompt({ ...span, reason: 'sleep' }, timer, 'Quarterly report');
    expect(p.message).toBe('The computer was asleep for 0:25:00 while the timer ran');
    expect(p.detail).toContain('"Quarterly report"');
    expect(p.buttons).toEqual(['Keep', 'Discard', 'Split off']);
    expect(p.cancelId).toBe(0);
    expect(awayPrompt(span, timer, null).message).toBe(
      'You were away from the computer for 0:25:00 while the timer ran',
    );
  });
});
