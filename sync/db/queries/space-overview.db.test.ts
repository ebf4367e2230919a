import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOW, openTestReplica, seedReplica, type TestReplica } from './read.fixture';
import { projectTaskCounts, readSpaceProjects } from './space-overview';

let t: TestReplica;
beforeAll(() => {
  t = openTestReplica();
  seedReplica(t.replica);
});
afterAll(() => t.close());

describe('the space overview', () => {
  it('reads only the space’s projects, by id', () => {
    expect(readSpaceProjects(t.replica.db, 10, NOW).map((p) => p.projectId)).toEqual([
      100, 101, 102, 103,
    ]);
    expect(readSpaceProjects(t.replica.db, 11, NOW).map((p) => p.projectName)).toEqual([
      'Ops project',
    ]);
    expect(readSpaceProjects(t.replica.db, 999, NOW)).toEqual([]);
  });

  it('counts each project’s top-level tasks: all, done, overdue (open and due before now)', () => {
    const counts = projectTaskCounts(t.replica.db, [100, 101, 102], NOW);
    // Alpha: tasks 1-4 (task 3 done, task 1 due yesterday and open); subtasks 5-6 are not counted,
    // though 5 is overdue too.
    expect(counts.get(100)).toEqual({ total: 4, done: 1, overdue: 1 });
    expect(counts.get(101)).toEqual({ total: 2, done: 0, overdue: 0 });
    expect(counts.has(102)).toBe(false);
    // A week later Beta's two tasks are past due as well.
    const later = projectTaskCounts(t.replica.db, [101], NOW + 8 * 86_400_000);
    expect(later.get(101)).toEqual({ total: 2, done: 0, overdue: 2 });
  });
});
