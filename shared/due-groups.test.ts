import { describe, expect, it } from 'vitest';
import { dueGroupCondition, dueGroupOf, dueGroups } from './due-groups';
import { daySpan } from './filters/ranges';

const DAY_MS = 86_400_000;
const today = Date.UTC(2026, 10, 26);
// Any clock: the rules name fixed days, so the zone and the hour must not matter.
const clock = { nowMs: Date.UTC(2026, 0, 1, 3), timeZone: 'Pacific/Kiritimati', weekStartsOn: 1 };

/** The group a list filtered by the group's rule would hold a due date in, or null. */
const heldBy = (dueMs: number | null) =>
  dueGroups.filter((g) => {
    const c = dueGroupCondition(g, today);
    if (c.op === 'none') return dueMs === null;
    if (dueMs === null) return false;
    const { from, to } = daySpan(c, clock);
    return (from === null || dueMs >= from) && (to === null || dueMs < to);
  });

describe('a due group’s filter rule', () => {
  it('names the days the group holds: before today, today, the next 7 days, after', () => {
    expect(dueGroups.map((g) => dueGroupCondition(g, today))).toEqual([
      { column: 'dueDate', op: 'before', date: '2026-11-26' },
      { column: 'dueDate', op: 'on', date: '2026-11-26' },
      { column: 'dueDate', op: 'between', from: '2026-11-27', to: '2026-12-03' },
      { column: 'dueDate', op: 'after', date: '2026-12-03' },
      { column: 'dueDate', op: 'none' },
    ]);
  });

  it('holds each due date in exactly the group it is drawn in, edges included', () => {
    const edges = [-1, 0, 1, 8, 9].flatMap((d) => {
      const start = today + d * DAY_MS;
      return [start - 1, start, start + DAY_MS / 2, start + DAY_MS - 1];
    });
    for (const ms of [...edges, null]) expect(heldBy(ms)).toEqual([dueGroupOf(ms, today)]);
  });

  it('keeps a task due today out of Overdue all day, however late', () => {
    const lastInstant = today + DAY_MS - 1;
    expect(dueGroupOf(lastInstant, today)).toBe('today');
    expect(heldBy(lastInstant)).toEqual(['today']);
    expect(heldBy(today - 1)).toEqual(['overdue']);
  });
});
