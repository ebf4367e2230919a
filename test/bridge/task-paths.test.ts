import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueGroupOf } from '../../shared/due-groups';
import { type BridgeFixture, startBridgeFixture } from './support';

// Where a task lives and My tasks' due groups, as the window asks for them: over HTTP through
// the web binding, answered by the real engine from its replica of the demo data.
describe('task paths and due groups over the bridge (demo data, real engine)', () => {
  let f: BridgeFixture;
  beforeAll(async () => {
    f = await startBridgeFixture();
    await f.call('session.startDemo', {});
    await f.call('sync.now', {});
  });
  afterAll(() => f.close());

  it('every row of My tasks names its space, project and parent as the replica has them', async () => {
    const { spaces } = await f.call('spaces.tree', {});
    const projects = new Map(
      spaces.flatMap((s) =>
        s.projects.map((p) => [p.projectId, { project: p.projectName, space: s.spaceName }]),
      ),
    );
    const { items } = await f.call('tasks.list', { scope: { kind: 'my' }, limit: 500 });
    expect(items.length).toBeGreaterThan(0);
    const subtasks = items.filter((t) => t.parentTaskId);
    expect(subtasks.length).toBeGreaterThan(0);
    for (const t of items) {
      const place = t.projectId ? projects.get(t.projectId) : undefined;
      expect(t.path.project?.name ?? null).toBe(place?.project ?? null);
      expect(t.path.space?.name ?? null).toBe(place?.space ?? null);
      expect(t.path.parent?.taskId ?? null).toBe(t.parentTaskId ?? null);
    }
    // A subtask's parent by its title; the detail has the same path.
    const sub = subtasks[0]!;
    const parent = await f.call('tasks.detail', { taskId: sub.parentTaskId! });
    expect(sub.path.parent?.title).toBe(parent?.task.taskTitle);
    const detail = await f.call('tasks.detail', { taskId: sub.taskId });
    expect(detail?.path).toEqual(sub.path);
  });

  it('counts the list’s tasks per due group on the day asked, as the rows fall', async () => {
    const today = Date.UTC(2026, 10, 26);
    const filter = { pending: true };
    const all = await f.call('tasks.list', { scope: { kind: 'my' }, filter, limit: 500 });
    const { dueGroups, total } = await f.call('tasks.list', {
      scope: { kind: 'my' },
      filter,
      limit: 1,
      dueGroupsOn: today,
    });
    expect(total).toBe(all.total);
    expect(all.items.length).toBe(all.total);
    const expected = { overdue: 0, today: 0, upcoming: 0, later: 0, none: 0 };
    for (const t of all.items)
      expected[dueGroupOf(t.dueDate ? Date.parse(t.dueDate) : null, today)]++;
    expect(dueGroups).toEqual(expected);
    // Without the day, no counts: a plain page costs what it did.
    expect(all).not.toHaveProperty('dueGroups');
  });
});
