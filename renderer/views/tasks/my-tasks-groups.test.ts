import { describe, expect, it } from 'vitest';
import { todayIn } from '../../lib/dates';
import { dueDateFirst, rowDueGroup, startsGroup } from './my-tasks-groups';

const due = (iso: string | null) => ({ dueDate: iso });
// Due dates are calendar days, stored at UTC noon.
const day = (d: string) => due(`${d}T12:00:00.000Z`);

describe('My tasks’ due groups follow the user’s day where they are', () => {
  // 05:30 UTC on Nov 27 is still the evening of Nov 26 in Los Angeles (UTC-8).
  const lateEvening = Date.UTC(2026, 10, 27, 5, 30);
  const la = todayIn({ timeZone: 'America/Los_Angeles', now: lateEvening });
  const utc = todayIn({ timeZone: 'UTC', now: lateEvening });

  it('west of UTC, the user’s today is still yesterday in UTC', () => {
    expect(la).toBe(Date.UTC(2026, 10, 26));
    expect(utc).toBe(Date.UTC(2026, 10, 27));
    expect(rowDueGroup(day('2026-11-26'), la)).toBe('today');
    expect(rowDueGroup(day('2026-11-26'), utc)).toBe('overdue');
    expect(rowDueGroup(day('2026-11-27'), la)).toBe('upcoming');
    expect(rowDueGroup(day('2026-11-27'), utc)).toBe('today');
  });

  it('Overdue, Today, Upcoming (the next 7 days), Later, No date', () => {
    expect(
      ['2026-11-25', '2026-11-26', '2026-11-27', '2026-12-03', '2026-12-04'].map((d) =>
        rowDueGroup(day(d), la),
      ),
    ).toEqual(['overdue', 'today', 'upcoming', 'upcoming', 'later']);
    expect(rowDueGroup(due(null), la)).toBe('none');
    expect(rowDueGroup(due('not a date'), la)).toBe('none');
  });

  it('turns over at the user’s midnight, not at UTC’s', () => {
    const before = todayIn({
      timeZone: 'America/Los_Angeles',
      now: Date.UTC(2026, 10, 27, 7, 59, 59),
    });
    const after = todayIn({ timeZone: 'America/Los_Angeles', now: Date.UTC(2026, 10, 27, 8) });
    expect(rowDueGroup(day('2026-11-26'), before)).toBe('today');
    expect(rowDueGroup(day('2026-11-26'), after)).toBe('overdue');
    expect(rowDueGroup(day('2026-11-27'), after)).toBe('today');
  });
});

describe('the rows of a grouped list', () => {
  const today = Date.UTC(2026, 10, 26);

  it('are read by due date first, the user’s keys after (a due key keeps its direction)', () => {
    expect(dueDateFirst([])).toEqual([{ property: 'dueDate', direction: 'asc' }]);
    expect(dueDateFirst([{ property: 'priority', direction: 'desc' }])).toEqual([
      { property: 'dueDate', direction: 'asc' },
      { property: 'priority', direction: 'desc' },
    ]);
    expect(
      dueDateFirst([
        { property: 'taskTitle', direction: 'asc' },
        { property: 'dueDate', direction: 'desc' },
      ]),
    ).toEqual([
      { property: 'dueDate', direction: 'desc' },
      { property: 'taskTitle', direction: 'asc' },
    ]);
  });

  it('carry a header where the group changes, and on the first row', () => {
    const rows = [
      day('2026-11-20'),
      day('2026-11-25'),
      day('2026-11-26'),
      day('2026-11-28'),
      day('2026-12-01'),
      due(null),
    ];
    expect(rows.map((r, i) => startsGroup(r, rows[i - 1], i, today))).toEqual([
      true,
      false,
      true,
      true,
      false,
      true,
    ]);
    // A row whose neighbour above is not read yet gets its header when that row arrives.
    expect(startsGroup(day('2026-11-26'), undefined, 5, today)).toBe(false);
  });
});
