/**
 * My tasks' groups by due day, as Todoist has them: Overdue above Today, then Upcoming (the
 * next 7 days), Later, and No date. A due date is a calendar day (stored at UTC noon, read as
 * its UTC day), and "today" is the user's own calendar day where they are, given as the UTC
 * midnight of that date: the renderer works it out in the user's time zone, the replica
 * counts with it, so both draw the same lines. A group's count and the filter that shows it
 * (My tasks' "N overdue" chip) come from the same bounds: a task due today is not overdue
 * until the user's tomorrow, as in Todoist and Things, whatever the hour.
 */
import { type DateCondition, dayText } from './filters/ranges';

export const dueGroups = ['overdue', 'today', 'upcoming', 'later', 'none'] as const;
export type DueGroup = (typeof dueGroups)[number];

const DAY_MS = 86_400_000;
/** Upcoming: the days after today, up to and including a week from today. */
export const UPCOMING_DAYS = 7;

/** Where the groups meet, in epoch ms: each bound is the first instant of the next group. */
export const dueGroupBounds = (today: number) => ({
  today,
  upcoming: today + DAY_MS,
  later: today + (1 + UPCOMING_DAYS) * DAY_MS,
});

/** The group of a due date (epoch ms, or none) on the user's `today` (a UTC midnight). */
export function dueGroupOf(dueMs: number | null, today: number): DueGroup {
  if (dueMs === null) return 'none';
  const b = dueGroupBounds(today);
  if (dueMs < b.today) return 'overdue';
  if (dueMs < b.upcoming) return 'today';
  if (dueMs < b.later) return 'upcoming';
  return 'later';
}

/**
 * The due-date rule that holds exactly a group's tasks on `today`: a list filtered by it shows
 * the rows the group shows and as many as `dueGroupCounts` counts for the group. Fixed days
 * rather than relative ones, so it reads the same `today` as the group.
 */
export function dueGroupCondition(group: DueGroup, today: number): DateCondition {
  const b = dueGroupBounds(today);
  const column = 'dueDate';
  switch (group) {
    case 'overdue':
      return { column, op: 'before', date: dayText(b.today) };
    case 'today':
      return { column, op: 'on', date: dayText(b.today) };
    case 'upcoming':
      return { column, op: 'between', from: dayText(b.upcoming), to: dayText(b.later - DAY_MS) };
    case 'later':
      return { column, op: 'after', date: dayText(b.later - DAY_MS) };
    case 'none':
      return { column, op: 'none' };
  }
}
