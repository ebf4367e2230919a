/**
 * Tasks Checklist against the reference server, through the typed client: order and dense
 * positions, the gap a delete closes, update as a replacement (assignee included), the task a
 * change touches, nesting and org scoping.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  advanceClock,
  failure,
  insertTask,
  rawCaller,
  taskModifiedTime,
  taskWorld,
} from '../support/fixtures-items';
import { aliceBobCarol, signedIn, suiteServer } from './support';

describe('Tasks Checklist', () => {
  const ctx = suiteServer({ ...aliceBobCarol, aliceInGlobex: signedIn('alice', 'globex') });
  let world: ReturnType<typeof taskWorld>;
  let globexTask: number;

  beforeAll(() => {
    const now = ctx.server.deps.clock.now();
    world = taskWorld(
      ctx.server.deps.db,
      { orgId: ctx.server.orgs.acme, userId: ctx.server.users.alice },
      now,
    );
    globexTask = insertTask(
      ctx.server.deps.db,
      { orgId: ctx.server.orgs.globex, userId: ctx.server.users.carol },
      now,
    );
  });

  const newTask = () =>
    insertTask(
      ctx.server.deps.db,
      { orgId: ctx.server.orgs.acme, userId: ctx.server.users.alice },
      ctx.server.deps.clock.now(),
    );
  const rows = (taskId: number) =>
    ctx.server.deps.db
      .prepare(
        'SELECT name, position, completed, assignee_id FROM checklist_items WHERE task_id = ? ORDER BY position',
      )
      .all(taskId);

  it('creates items incomplete at the last position and lists them by position', async () => {
    const taskId = newTask();
    const a = await ctx.alice.ops.createCheckListForTask({
      path: { taskId },
      body: { name: 'first' },
    });
    const b = await ctx.alice.ops.createCheckListForTask({
      path: { taskId },
      body: { name: 'second' },
    });
    const c = await ctx.bob.ops.createCheckListForTask({
      path: { taskId },
      body: { name: 'third', assigneeId: ctx.server.users.bob },
    });
    expect([a.position, b.position, c.position]).toEqual([0, 1, 2]);
    expect(a).toMatchObject({
      taskId,
      subtaskId: null,
      name: 'first',
      completed: false,
      assigneeId: null,
    });
    expect(c.assigneeId).toBe(ctx.server.users.bob);
    // Complete the first one: a state change does not move anything.
    await ctx.alice.ops.updateCheckListForTask({
      path: { taskId, checklistId: a.checklistId },
      body: { name: 'first', completed: true },
    });
    const list = await ctx.bob.ops.getAllCheckListsForTask({ path: { taskId } });
    expect(list.map((i) => [i.name, i.position, i.completed])).toEqual([
      ['first', 0, true],
      ['second', 1, false],
      ['third', 2, false],
    ]);
  });

  it('delete answers 204 with no body and closes the gap', async () => {
    const taskId = newTask();
    const items = [];
    for (const name of ['a', 'b', 'c', 'd'])
      items.push(await ctx.alice.ops.createCheckListForTask({ path: { taskId }, body: { name } }));
    const raw = await rawCaller(ctx.server, 'alice', 'acme');
    const res = await raw('DELETE', `/v1/tasks/${taskId}/checklists/${items[1]?.checklistId}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    await ctx.alice.ops.deleteCheckListForTask({
      path: { taskId, checklistId: items[0]!.checklistId },
    });
    let list = await ctx.alice.ops.getAllCheckListsForTask({ path: { taskId } });
    expect(list.map((i) => [i.name, i.position])).toEqual([
      ['c', 0],
      ['d', 1],
    ]);
    // The next item goes after the last one, not into a hole.
    const e = await ctx.alice.ops.createCheckListForTask({ path: { taskId }, body: { name: 'e' } });
    expect(e.position).toBe(2);
    list = await ctx.alice.ops.getAllCheckListsForTask({ path: { taskId } });
    expect(list.map((i) => i.position)).toEqual([0, 1, 2]);
    // A deleted item is gone for good.
    const gone = await failure(
      ctx.alice.ops.deleteCheckListForTask({
        path: { taskId, checklistId: items[1]!.checklistId },
      }),
    );
    expect(gone.status).toBe(404);
  });

  it('update replaces name, state and assignee; an omitted assigneeId unassigns', async () => {
    const taskId = newTask();
    const item = await ctx.alice.ops.createCheckListForTask({
      path: { taskId },
      body: { name: 'write', assigneeId: ctx.server.users.bob },
    });
    const done = await ctx.alice.ops.updateCheckListForTask({
      path: { taskId, checklistId: item.checklistId },
      body: { name: 'write it', completed: true, assigneeId: ctx.server.users.bob },
    });
    expect(done).toMatchObject({
      name: 'write it',
      completed: true,
      assigneeId: ctx.server.users.bob,
      position: 0,
    });
    const unassigned = await ctx.alice.ops.updateCheckListForTask({
      path: { taskId, checklistId: item.checklistId },
      body: { name: 'write it', completed: false },
    });
    expect(unassigned.assigneeId).toBeNull();
    expect(unassigned.completed).toBe(false);
    const [listed] = await ctx.alice.ops.getAllCheckListsForTask({ path: { taskId } });
    expect(listed).toMatchObject({ name: 'write it', completed: false, assigneeId: null });
  });

  it('refuses an assignee outside the org with a field error and changes nothing', async () => {
    const taskId = newTask();
    const item = await ctx.alice.ops.createCheckListForTask({
      path: { taskId },
      body: { name: 'keep' },
    });
    const before = taskModifiedTime(ctx.server.deps.db, taskId);
    for (const assigneeId of [ctx.server.users.carol, 999_999]) {
      const onUpdate = await failure(
        ctx.alice.ops.updateCheckListForTask({
          path: { taskId, checklistId: item.checklistId },
          body: { name: 'changed', completed: true, assigneeId },
        }),
      );
      expect(onUpdate.status).toBe(400);
      expect(onUpdate.fieldErrors.map((f) => f.field)).toContain('assigneeId');
      const onCreate = await failure(
        ctx.alice.ops.createCheckListForTask({ path: { taskId }, body: { name: 'x', assigneeId } }),
      );
      expect(onCreate.status).toBe(400);
      expect(onCreate.fieldErrors.map((f) => f.field)).toContain('assigneeId');
    }
    expect(rows(taskId)).toEqual([{ name: 'keep', position: 0, completed: 0, assignee_id: null }]);
    expect(taskModifiedTime(ctx.server.deps.db, taskId)).toBe(before);
  });

  it('refuses a blank name on the server too, writing nothing', async () => {
    const taskId = newTask();
    const raw = await rawCaller(ctx.server, 'alice', 'acme');
    const res = await raw('POST', `/v1/tasks/${taskId}/checklists`, { name: '   ' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { field: string }[] };
    expect(body.errors.map((e) => e.field)).toContain('name');
    expect(rows(taskId)).toEqual([]);
  });

  it('every change moves the modified time of the task it is on', async () => {
    const taskId = newTask();
    let last = taskModifiedTime(ctx.server.deps.db, taskId);
    const moved = () => {
      const t = taskModifiedTime(ctx.server.deps.db, taskId);
      expect(t).toBeGreaterThan(last);
      last = t;
    };
    const item = await ctx.alice.ops.createCheckListForTask({
      path: { taskId },
      body: { name: 'one' },
    });
    moved();
    await ctx.alice.ops.updateCheckListForTask({
      path: { taskId, checklistId: item.checklistId },
      body: { name: 'one', completed: true },
    });
    moved();
    await ctx.alice.ops.deleteCheckListForTask({ path: { taskId, checklistId: item.checklistId } });
    moved();
    // Reading does not.
    await ctx.alice.ops.getAllCheckListsForTask({ path: { taskId } });
    expect(taskModifiedTime(ctx.server.deps.db, taskId)).toBe(last);
  });

  it('a delta pull hands the task out again, with its checklist, after a change', async () => {
    const taskId = newTask();
    const before = await ctx.alice.ops.getTaskById({ path: { taskId } });
    const since = (await ctx.alice.ops.bulkTasks({ query: { size: 5000 } })).serverTime;
    await advanceClock(ctx.server, 1000);
    await ctx.alice.ops.createCheckListForTask({ path: { taskId }, body: { name: 'pulled' } });
    const after = await ctx.alice.ops.getTaskById({ path: { taskId } });
    expect(Date.parse(after.modifiedTime ?? '')).toBeGreaterThan(
      Date.parse(before.modifiedTime ?? ''),
    );
    const delta = await ctx.alice.ops.bulkTasks({ query: { modifiedSince: since, size: 5000 } });
    const pulled = delta.items.find((t) => t.taskId === taskId);
    expect(pulled?.checklists?.map((c) => c.name)).toEqual(['pulled']);
  });

  it('works on project tasks under /v1/tasks/{taskId} too', async () => {
    const item = await ctx.bob.ops.createCheckListForTask({
      path: { taskId: world.projectTask },
      body: { name: 'p' },
    });
    expect(item.taskId).toBe(world.projectTask);
    expect(
      await ctx.bob.ops.getAllCheckListsForTask({ path: { taskId: world.projectTask } }),
    ).toHaveLength(1);
  });

  describe('on subtasks', () => {
    it('creates, lists, updates and deletes; items report the parent and the subtask', async () => {
      const taskId = world.personal;
      const subtaskId = insertTask(
        ctx.server.deps.db,
        { orgId: ctx.server.orgs.acme, userId: ctx.server.users.alice },
        ctx.server.deps.clock.now(),
        {
          parentTaskId: taskId,
        },
      );
      const path = { taskId, subtaskId };
      const before = taskModifiedTime(ctx.server.deps.db, subtaskId);
      const a = await ctx.alice.ops.createCheckListForSubtask({ path, body: { name: 'sa' } });
      const b = await ctx.alice.ops.createCheckListForSubtask({
        path,
        body: { name: 'sb', assigneeId: ctx.server.users.bob },
      });
      expect(a).toMatchObject({ taskId, subtaskId, position: 0, completed: false });
      expect(b.position).toBe(1);
      expect(taskModifiedTime(ctx.server.deps.db, subtaskId)).toBeGreaterThan(before);
      const updated = await ctx.alice.ops.updateCheckListForSubtask({
        path: { ...path, checklistId: b.checklistId },
        body: { name: 'sb!', completed: true },
      });
      expect(updated).toMatchObject({
        name: 'sb!',
        completed: true,
        assigneeId: null,
        taskId,
        subtaskId,
      });
      await ctx.alice.ops.deleteCheckListForSubtask({
        path: { ...path, checklistId: a.checklistId },
      });
      const list = await ctx.alice.ops.getAllCheckListsForSubtask({ path });
      expect(list.map((i) => [i.name, i.position])).toEqual([['sb!', 0]]);
      // The parent's own list is separate.
      expect(
        (await ctx.alice.ops.getAllCheckListsForTask({ path: { taskId } })).map((i) => i.name),
      ).not.toContain('sb!');
      const raw = await rawCaller(ctx.server, 'alice', 'acme');
      const res = await raw(
        'DELETE',
        `/v1/tasks/${taskId}/subtasks/${subtaskId}/checklists/${b.checklistId}`,
      );
      expect(res.status).toBe(204);
    });

    it('checks the nesting: a subtask of another task, an item of another (sub)task → 404', async () => {
      const onTask = await ctx.alice.ops.createCheckListForTask({
        path: { taskId: world.personal },
        body: { name: 't' },
      });
      const onSub = await ctx.alice.ops.createCheckListForSubtask({
        path: { taskId: world.personal, subtaskId: world.personalSub },
        body: { name: 's' },
      });
      const wrongParent = { taskId: world.projectTask, subtaskId: world.personalSub };
      const statuses = await Promise.all([
        failure(ctx.alice.ops.getAllCheckListsForSubtask({ path: wrongParent })),
        failure(
          ctx.alice.ops.createCheckListForSubtask({ path: wrongParent, body: { name: 'x' } }),
        ),
        failure(
          ctx.alice.ops.updateCheckListForSubtask({
            path: { ...wrongParent, checklistId: onSub.checklistId },
            body: { name: 'x', completed: true },
          }),
        ),
        failure(
          ctx.alice.ops.deleteCheckListForSubtask({
            path: { ...wrongParent, checklistId: onSub.checklistId },
          }),
        ),
        // The task's item under the subtask's path, and the other way round.
        failure(
          ctx.alice.ops.updateCheckListForSubtask({
            path: {
              taskId: world.personal,
              subtaskId: world.personalSub,
              checklistId: onTask.checklistId,
            },
            body: { name: 'x', completed: true },
          }),
        ),
        failure(
          ctx.alice.ops.deleteCheckListForTask({
            path: { taskId: world.personal, checklistId: onSub.checklistId },
          }),
        ),
        // A task id given as subtask of itself.
        failure(
          ctx.alice.ops.getAllCheckListsForSubtask({
            path: { taskId: world.personal, subtaskId: world.personal },
          }),
        ),
      ]);
      expect(statuses.map((e) => e.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
      const names = (
        await ctx.alice.ops.getAllCheckListsForSubtask({
          path: { taskId: world.personal, subtaskId: world.personalSub },
        })
      ).map((i) => i.name);
      expect(names).toContain('s');
    });
  });

  it('another org never sees or changes the items (404), and a deleted task is gone', async () => {
    const taskId = newTask();
    const item = await ctx.alice.ops.createCheckListForTask({
      path: { taskId },
      body: { name: 'secret' },
    });
    for (const other of [ctx.carol, ctx.aliceInGlobex]) {
      const errors = await Promise.all([
        failure(other.ops.getAllCheckListsForTask({ path: { taskId } })),
        failure(other.ops.createCheckListForTask({ path: { taskId }, body: { name: 'x' } })),
        failure(
          other.ops.updateCheckListForTask({
            path: { taskId, checklistId: item.checklistId },
            body: { name: 'x', completed: true },
          }),
        ),
        failure(
          other.ops.deleteCheckListForTask({ path: { taskId, checklistId: item.checklistId } }),
        ),
        failure(
          other.ops.getAllCheckListsForSubtask({
            path: { taskId: world.personal, subtaskId: world.personalSub },
          }),
        ),
      ]);
      expect(errors.map((e) => e.status)).toEqual([404, 404, 404, 404, 404]);
    }
    expect(rows(taskId)).toEqual([
      { name: 'secret', position: 0, completed: 0, assignee_id: null },
    ]);
    // Acme's people cannot reach Globex's task either.
    expect(
      (await failure(ctx.alice.ops.getAllCheckListsForTask({ path: { taskId: globexTask } })))
        .status,
    ).toBe(404);
    expect(
      await ctx.aliceInGlobex.ops.getAllCheckListsForTask({ path: { taskId: globexTask } }),
    ).toEqual([]);
    const deleted = insertTask(
      ctx.server.deps.db,
      { orgId: ctx.server.orgs.acme, userId: ctx.server.users.alice },
      ctx.server.deps.clock.now(),
      {
        deleted: true,
      },
    );
    expect(
      (
        await failure(
          ctx.alice.ops.createCheckListForTask({ path: { taskId: deleted }, body: { name: 'x' } }),
        )
      ).status,
    ).toBe(404);
  });
});
