/**
 * Personal Subtasks: placement (no project), one level of nesting only, path consistency,
 * the parent's subtaskCount and modifiedTime, the list, and deletes.
 */
import { describe, expect, it } from 'vitest';
import { notificationsOf, rawAs, rejection } from '../support/fixtures-work';
import { aliceBobCarol, suiteServer } from './support';

describe('Personal Subtasks', () => {
  const ctx = suiteServer({ ...aliceBobCarol, raw: (server) => rawAs(server, 'alice', 'acme') });

  const modified = (taskId: number) =>
    (
      ctx.server.deps.db
        .prepare('SELECT modified_time FROM tasks WHERE task_id = ?')
        .get(taskId) as {
        modified_time: number;
      }
    ).modified_time;

  it('creates a subtask under a personal task; the parent counts it and moves', async () => {
    const parent = await ctx.alice.ops.createTask({ body: { taskTitle: 'Parent' } });
    const before = modified(parent.taskId);
    const sub = await ctx.alice.ops.createPersonalSubtask({
      path: { parentTaskId: parent.taskId },
      body: {
        taskTitle: 'Child',
        status: 'in review',
        priority: 'low',
        owners: [ctx.server.users.bob],
        tags: ['t'],
      },
    });
    expect(sub).toMatchObject({
      parentTaskId: parent.taskId,
      spaceId: null,
      projectId: null,
      taskTitle: 'Child',
      status: 'In Review',
      priority: 'Low',
      tags: ['t'],
      customFields: [],
    });
    expect(sub.owners?.map((o) => o.userId)).toEqual([ctx.server.users.bob]);
    expect(notificationsOf(ctx.server.deps.db, sub.taskId)).toEqual([
      expect.objectContaining({ user_id: ctx.server.users.bob, type: 'ASSIGNED' }),
    ]);
    expect(modified(parent.taskId)).toBeGreaterThan(before);
    expect(
      (await ctx.alice.ops.getTaskById({ path: { taskId: parent.taskId } })).subtaskCount,
    ).toBe(1);
    // A subtask is not a personal task of the list.
    expect((await ctx.alice.ops.getAll()).content.map((t) => t.taskId)).not.toContain(sub.taskId);
  });

  it('refuses subtasks of subtasks (400) and project tasks or other orgs as parents (404)', async () => {
    const parent = await ctx.alice.ops.createTask({ body: { taskTitle: 'P' } });
    const sub = await ctx.alice.ops.createPersonalSubtask({
      path: { parentTaskId: parent.taskId },
      body: { taskTitle: 'S' },
    });
    const nested = await rejection(
      ctx.alice.ops.createPersonalSubtask({
        path: { parentTaskId: sub.taskId },
        body: { taskTitle: 'N' },
      }),
    );
    expect(nested.status).toBe(400);
    const space = await ctx.alice.ops.createSpace({ body: { spaceName: 'Sp' } });
    const project = await ctx.alice.ops.createProject({
      path: { spaceId: space.spaceId },
      body: { projectName: 'Pr' },
    });
    const pt = await ctx.alice.createProjectTaskResolved({
      path: { spaceId: space.spaceId, projectId: project.projectId },
      body: { taskTitle: 'PT' },
    });
    expect(
      (
        await rejection(
          ctx.alice.ops.createPersonalSubtask({
            path: { parentTaskId: pt.taskId },
            body: { taskTitle: 'x' },
          }),
        )
      ).status,
    ).toBe(404);
    expect(
      (await rejection(ctx.alice.ops.getPersonalSubtasks({ path: { parentTaskId: pt.taskId } })))
        .status,
    ).toBe(404);
    expect(
      (
        await rejection(
          ctx.carol.ops.createPersonalSubtask({
            path: { parentTaskId: parent.taskId },
            body: { taskTitle: 'x' },
          }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await rejection(
          ctx.alice.ops.createPersonalSubtask({
            path: { parentTaskId: 424_242 },
            body: { taskTitle: 'x' },
          }),
        )
      ).status,
    ).toBe(404);
    const bad = await rejection(
      ctx.alice.ops.createPersonalSubtask({
        path: { parentTaskId: parent.taskId },
        body: { taskTitle: 'x', status: 'Nope' },
      }),
    );
    expect(bad.fieldErrors.map((f) => f.field)).toEqual(['status']);
    expect(
      (await ctx.raw('POST', `/v1/tasks/${parent.taskId}/subtasks`, { taskTitle: '' })).fields,
    ).toContain('taskTitle');
    expect(
      (await ctx.alice.ops.getPersonalSubtasks({ path: { parentTaskId: parent.taskId } }))
        .totalElements,
    ).toBe(1);
  });

  it('lists the subtasks of a parent with paging, sort and filters', async () => {
    const parent = await ctx.alice.ops.createTask({ body: { taskTitle: 'List parent' } });
    const names = ['one', 'two', 'three', 'four'];
    for (const [i, n] of names.entries())
      await ctx.bob.ops.createPersonalSubtask({
        path: { parentTaskId: parent.taskId },
        body: { taskTitle: n, status: i % 2 === 0 ? 'Done' : 'To Do' },
      });
    const page = await ctx.alice.ops.getPersonalSubtasks({
      path: { parentTaskId: parent.taskId },
      query: { size: 3, sort: ['taskTitle,asc'] },
    });
    expect(page).toMatchObject({ totalElements: 4, totalPages: 2, numberOfElements: 3 });
    expect(page.content.map((t) => t.taskTitle)).toEqual(['four', 'one', 'three']);
    const done = await ctx.alice.ops.getPersonalSubtasks({
      path: { parentTaskId: parent.taskId },
      query: { status: ['done'] },
    });
    expect(done.content.map((t) => t.taskTitle)).toEqual(['one', 'three']);
    const mine = await ctx.alice.ops.getPersonalSubtasks({
      path: { parentTaskId: parent.taskId },
      query: { creators: [ctx.server.users.alice] },
    });
    expect(mine.totalElements).toBe(0);
    expect((await ctx.raw('GET', `/v1/tasks/${parent.taskId}/subtasks?sort=bogus`)).status).toBe(
      400,
    );
  });

  it('updates a subtask only through its own parent, as a full replacement', async () => {
    const parent = await ctx.alice.ops.createTask({ body: { taskTitle: 'U parent' } });
    const other = await ctx.alice.ops.createTask({ body: { taskTitle: 'Other parent' } });
    const sub = await ctx.alice.ops.createPersonalSubtask({
      path: { parentTaskId: parent.taskId },
      body: { taskTitle: 'U', tags: ['a'], priority: 'High' },
    });
    const u = await ctx.alice.ops.updatePersonalSubtask({
      path: { parentTaskId: parent.taskId, subtaskId: sub.taskId },
      body: { taskTitle: 'U2', status: 'Done', description: 'hi @bob@example.com' },
    });
    expect(u).toMatchObject({
      taskTitle: 'U2',
      status: 'Done',
      tags: [],
      priority: 'None',
      parentTaskId: parent.taskId,
    });
    expect(u.completedTime).toBeTruthy();
    expect(notificationsOf(ctx.server.deps.db, sub.taskId).map((n) => n.type)).toEqual(['MENTION']);
    const wrong = [
      { parentTaskId: other.taskId, subtaskId: sub.taskId },
      { parentTaskId: sub.taskId, subtaskId: sub.taskId },
      { parentTaskId: parent.taskId, subtaskId: parent.taskId },
    ];
    for (const path of wrong) {
      expect(
        (await rejection(ctx.alice.ops.updatePersonalSubtask({ path, body: { taskTitle: 'x' } })))
          .status,
      ).toBe(404);
      expect((await rejection(ctx.alice.ops.deletePersonalSubtask({ path }))).status).toBe(404);
    }
    expect(
      (
        await rejection(
          ctx.carol.ops.updatePersonalSubtask({
            path: { parentTaskId: parent.taskId, subtaskId: sub.taskId },
            body: { taskTitle: 'x' },
          }),
        )
      ).status,
    ).toBe(404);
    const bad = await rejection(
      ctx.alice.ops.updatePersonalSubtask({
        path: { parentTaskId: parent.taskId, subtaskId: sub.taskId },
        body: { taskTitle: 'x', owners: [ctx.server.users.carol] },
      }),
    );
    expect(bad.fieldErrors.map((f) => f.field)).toEqual(['owners']);
    expect((await ctx.alice.ops.getTaskById({ path: { taskId: sub.taskId } })).taskTitle).toBe(
      'U2',
    );
  });

  it('deletes a subtask softly; the parent stays and counts one less', async () => {
    const parent = await ctx.alice.ops.createTask({ body: { taskTitle: 'D parent' } });
    const a = await ctx.alice.ops.createPersonalSubtask({
      path: { parentTaskId: parent.taskId },
      body: { taskTitle: 'a' },
    });
    await ctx.alice.ops.createPersonalSubtask({
      path: { parentTaskId: parent.taskId },
      body: { taskTitle: 'b' },
    });
    const before = modified(parent.taskId);
    expect(
      await ctx.alice.ops.deletePersonalSubtask({
        path: { parentTaskId: parent.taskId, subtaskId: a.taskId },
      }),
    ).toEqual({});
    expect(modified(parent.taskId)).toBeGreaterThan(before);
    const p = await ctx.alice.ops.getTaskById({ path: { taskId: parent.taskId } });
    expect(p.subtaskCount).toBe(1);
    expect(
      (
        await ctx.alice.ops.getPersonalSubtasks({ path: { parentTaskId: parent.taskId } })
      ).content.map((t) => t.taskTitle),
    ).toEqual(['b']);
    expect(
      (await rejection(ctx.alice.ops.getTaskById({ path: { taskId: a.taskId } }))).status,
    ).toBe(404);
    const row = ctx.server.deps.db
      .prepare('SELECT deleted, deleted_by FROM tasks WHERE task_id = ?')
      .get(a.taskId);
    expect(row).toEqual({ deleted: 1, deleted_by: ctx.server.users.alice });
  });
});
