import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueGroupOf } from '../../../shared/due-groups';
import type { TaskFilter } from '../../../shared/filters';
import { DAY, NOW, openTestReplica, seedReplica, type TestReplica } from './read.fixture';
import { dueGroupCounts, taskPaths } from './task-context';
import { readTasks, type TaskScope, taskWhere } from './tasks-read';

let t: TestReplica;
beforeAll(() => {
  t = openTestReplica();
  seedReplica(t.replica);
});
afterAll(() => t.close());

/** Sunday 2025-06-15 as a calendar day (the fixture's clock is 12:00 UTC that day). */
const JUNE_15 = Date.UTC(2025, 5, 15);

describe('taskPaths', () => {
  it('names the space, project and parent of each task; a subtask takes its parent’s place', () => {
    const paths = taskPaths(t.replica.db, [5, 7, 13, 10, 999]);
    expect(paths.get(5)).toEqual({
      space: { spaceId: 10, name: 'Product' },
      project: { projectId: 100, name: 'Alpha launch' },
      parent: { taskId: 1, title: 'Write spec' },
    });
    expect(paths.get(7)).toEqual({
      space: { spaceId: 10, name: 'Product' },
      project: { projectId: 101, name: 'beta budget' },
      parent: null,
    });
    // A personal subtask: no space or project, its parent task only.
    expect(paths.get(13)).toEqual({
      space: null,
      project: null,
      parent: { taskId: 9, title: 'Buy milk' },
    });
    expect(paths.get(10)).toEqual({ space: null, project: null, parent: null });
    expect(paths.has(999)).toBe(false);
    expect(taskPaths(t.replica.db, []).size).toBe(0);
  });

  it('a subtask filed without project or space gets them from its parent', () => {
    t.replica.db
      .prepare('UPDATE tasks SET project_id = NULL, space_id = NULL WHERE task_id = 6')
      .run();
    expect(taskPaths(t.replica.db, [6]).get(6)).toMatchObject({
      space: { spaceId: 10, name: 'Product' },
      project: { projectId: 100, name: 'Alpha launch' },
    });
  });
});

describe('dueGroupCounts', () => {
  const owned: TaskScope = { kind: 'owned', userId: 1 };
  const count = (scope: TaskScope, filter: TaskFilter, today: number) =>
    dueGroupCounts(t.replica.db, taskWhere(scope, filter, NOW), today);

  it('counts a list’s tasks per due day: overdue, today, the next 7 days, later, none', () => {
    // Open tasks of user 1: 1 due the 14th; 5, 9, 10, 13 the 15th; 8, 14 the 22nd; 15 the 23rd.
    expect(count(owned, { pending: true }, JUNE_15)).toEqual({
      overdue: 1,
      today: 4,
      upcoming: 2,
      later: 1,
      none: 0,
    });
    // The filter is the list's: done tasks count when the list shows them (12, due the 14th).
    expect(count(owned, {}, JUNE_15)).toMatchObject({ overdue: 2 });
    // Tasks without a due date: 4, 6 and 11.
    expect(count({ kind: 'all' }, {}, JUNE_15).none).toBe(3);
  });

  it('agrees with dueGroupOf row by row, and moves with the user’s day', () => {
    for (const today of [JUNE_15 - DAY, JUNE_15, JUNE_15 + DAY, JUNE_15 + 8 * DAY]) {
      const ids = (
        t.replica.db.prepare('SELECT task_id FROM tasks').all() as { task_id: number }[]
      ).map((r) => r.task_id);
      const expected = { overdue: 0, today: 0, upcoming: 0, later: 0, none: 0 };
      for (const task of readTasks(t.replica.db, ids, NOW))
        expected[dueGroupOf(task.dueDate ? Date.parse(task.dueDate) : null, today)]++;
      expect(count({ kind: 'all' }, {}, today)).toEqual(expected);
    }
    // A day later, what was due on the 15th is overdue and the 23rd is within the week.
    expect(count(owned, { pending: true }, JUNE_15 + DAY)).toEqual({
      overdue: 5,
      today: 0,
      upcoming: 3,
      later: 0,
      none: 0,
    });
  });
});
