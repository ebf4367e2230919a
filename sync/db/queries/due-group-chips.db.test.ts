import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskFilter } from '../../../shared/bridge/common';
import { type DueGroup, dueGroupCondition, dueGroupOf } from '../../../shared/due-groups';
import { localDay } from '../../../shared/filters/ranges';
import { at, openTestReplica, seedReplica, type TestReplica } from './read.fixture';
import { dueGroupCounts } from './task-context';
import { type TaskScope, taskWhere, taskWindow } from './tasks-read';
import { myTasks } from './views';

// 02:00 UTC on June 16 is 22:00 on June 15 in New York: four of the user's open tasks are
// due on June 15, earlier in the (UTC) day, and are past "now" but still due today there.
const zone = 'America/New_York';
const now = at('06-16T02:00');
const today = localDay(now, zone);
const mine: TaskScope = { kind: 'owned', userId: 1 };
const open = { pending: true };

let t: TestReplica;
beforeAll(() => {
  t = openTestReplica();
  seedReplica(t.replica);
});
afterAll(() => t.close());

/** My tasks filtered by a group's chip, read as the bridge reads a list. */
const chipList = (group: DueGroup) => {
  const filter = taskFilter.parse({
    ...open,
    dates: [dueGroupCondition(group, today)],
    timeZone: zone,
    weekStartsOn: 1,
  });
  return taskWindow(t.replica.db, mine, filter, [], { limit: 100, offset: 0 }, now);
};

describe('My tasks’ chips count and filter as the due groups draw, west of UTC', () => {
  it('the server’s rule (due before this moment) would call today’s tasks overdue', () => {
    expect(today).toBe(Date.UTC(2025, 5, 15));
    const old = myTasks(t.replica.db, 1, now);
    expect(old.counts.overdue).toBe(5);
    expect(old.overdue.map((x) => x.taskId).sort((a, b) => a - b)).toEqual([1, 5, 9, 10, 13]);
  });

  it('counts a task due today as due today until the user’s midnight, not as overdue', () => {
    const counts = dueGroupCounts(t.replica.db, taskWhere(mine, open, now), today);
    expect(counts).toMatchObject({ overdue: 1, today: 4 });
    const overdue = chipList('overdue');
    expect(overdue.items.map((x) => x.taskId)).toEqual([1]);
    expect(
      chipList('today')
        .items.map((x) => x.taskId)
        .sort((a, b) => a - b),
    ).toEqual([5, 9, 10, 13]);
  });

  it('each chip’s filter holds exactly the rows of its group, as many as it counts', () => {
    const counts = dueGroupCounts(t.replica.db, taskWhere(mine, open, now), today);
    for (const group of ['overdue', 'today', 'upcoming'] as const) {
      const list = chipList(group);
      expect(list.total).toBe(counts[group]);
      expect(list.items.length).toBe(counts[group]);
      for (const task of list.items)
        expect(dueGroupOf(task.dueDate ? Date.parse(task.dueDate) : null, today)).toBe(group);
    }
    expect(counts.upcoming).toBeGreaterThan(0);
  });
});
