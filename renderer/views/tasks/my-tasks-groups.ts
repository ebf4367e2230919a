import { useEffect, useState } from 'react';
import type { TaskRow } from '../../../shared/bridge';
import { type DueGroup, dueGroupOf } from '../../../shared/due-groups';
import { todayIn } from '../../lib/dates';
import type { SortKey } from './table-columns';

/**
 * My tasks by due day, as Todoist's Today and Upcoming read: what is overdue in its own group
 * above Today (Todoist keeps an "Overdue" section on top), then the next 7 days, later, and
 * tasks without a date last. The day is the user's, where they are (renderer/lib/dates.ts).
 */
export const dueGroupLabels: Record<DueGroup, string> = {
  overdue: 'Overdue',
  today: 'Today',
  upcoming: 'Upcoming',
  later: 'Later',
  none: 'No date',
};

/** The group of a row on the user's `today` (UTC midnight of their date, `todayIn`). */
export const rowDueGroup = (t: Pick<TaskRow, 'dueDate'>, today: number): DueGroup => {
  const ms = t.dueDate ? Date.parse(t.dueDate) : Number.NaN;
  return dueGroupOf(Number.isNaN(ms) ? null : ms, today);
};

/**
 * The sort a grouped list is read with: by due date first, so each group's rows come
 * together in group order (no date sorts last either way); the user's other keys order the
 * rows of one day. A due-date key of the user's keeps its direction.
 */
export const dueDateFirst = (sort: readonly SortKey[]): SortKey[] => [
  sort.find((s) => s.property === 'dueDate') ?? { property: 'dueDate', direction: 'asc' },
  ...sort.filter((s) => s.property !== 'dueDate'),
];

/** Where a group's header goes: on the first row, and wherever a row's group differs. */
export const startsGroup = (
  row: Pick<TaskRow, 'dueDate'>,
  before: Pick<TaskRow, 'dueDate'> | undefined,
  index: number,
  today: number,
): boolean =>
  index === 0 || (before !== undefined && rowDueGroup(before, today) !== rowDueGroup(row, today));

/** The user's today, followed across midnight (the list is open all day). */
export function useToday(): number {
  const [today, setToday] = useState(() => todayIn());
  useEffect(() => {
    const timer = setInterval(() => setToday(todayIn()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return today;
}
