/**
 * Task Comments: read only, paged, oldest first, for any live task of the org; a 404 for a
 * task of another org or a deleted one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { insertComment, rawAs, rejection } from '../support/fixtures-work';
import { signedIn, suiteServer } from './support';

describe('Task Comments', () => {
  const ctx = suiteServer({
    alice: signedIn('alice', 'acme'),
    carol: signedIn('carol', 'globex'),
    raw: (server) => rawAs(server, 'alice', 'acme'),
  });
  let taskId: number;
  let subtaskId: number;
  let t0: number;

  beforeAll(async () => {
    taskId = (await ctx.alice.ops.createTask({ body: { taskTitle: 'Discussed' } })).taskId;
    subtaskId = (
      await ctx.alice.ops.createPersonalSubtask({
        path: { parentTaskId: taskId },
        body: { taskTitle: 'Sub' },
      })
    ).taskId;
    t0 = ctx.server.deps.clock.now();
    const add = (content: string, at: number, userId = ctx.server.users.alice, on = taskId) =>
      insertComment(ctx.server.deps.db, {
        orgId: ctx.server.orgs.acme,
        taskId: on,
        userId,
        content,
        at,
      });
    // Inserted out of order: the answer is by time, then id.
    add('third', t0 + 2000, ctx.server.users.bob);
    add('first', t0);
    add('second', t0 + 1000);
    add('fourth', t0 + 2000);
    add('on the subtask', t0, ctx.server.users.bob, subtaskId);
  });

  it('lists comments oldest first with their authors', async () => {
    const page = await ctx.alice.ops.getTaskComments({ path: { taskId } });
    expect(page).toMatchObject({ totalElements: 4, size: 20, number: 0, first: true, last: true });
    expect(page.content.map((c) => c.content)).toEqual(['first', 'second', 'third', 'fourth']);
    expect(page.content[2]).toMatchObject({
      taskId,
      createdBy: { userId: ctx.server.users.bob, email: 'bob@example.com' },
    });
    expect(page.content[0]?.createdTime).toBe(new Date(t0).toISOString());
  });

  it('pages', async () => {
    const second = await ctx.alice.ops.getTaskComments({
      path: { taskId },
      query: { page: 1, size: 3 },
    });
    expect(second).toMatchObject({
      totalElements: 4,
      totalPages: 2,
      number: 1,
      numberOfElements: 1,
      last: true,
    });
    expect(second.content.map((c) => c.content)).toEqual(['fourth']);
    expect((await ctx.raw('GET', `/v1/tasks/${taskId}/comments?page=-2`)).fields).toContain('page');
  });

  it('answers subtasks and tasks without comments', async () => {
    expect(
      (await ctx.alice.ops.getTaskComments({ path: { taskId: subtaskId } })).content.map(
        (c) => c.content,
      ),
    ).toEqual(['on the subtask']);
    const quiet = await ctx.alice.ops.createTask({ body: { taskTitle: 'Quiet' } });
    expect(await ctx.alice.ops.getTaskComments({ path: { taskId: quiet.taskId } })).toMatchObject({
      content: [],
      totalElements: 0,
      empty: true,
    });
  });

  it('404s for another org, an unknown task and a deleted task', async () => {
    expect((await rejection(ctx.carol.ops.getTaskComments({ path: { taskId } }))).status).toBe(404);
    expect(
      (await rejection(ctx.alice.ops.getTaskComments({ path: { taskId: 31_337 } }))).status,
    ).toBe(404);
    const gone = await ctx.alice.ops.createTask({ body: { taskTitle: 'Gone' } });
    await ctx.alice.ops.deleteTask({ path: { taskId: gone.taskId } });
    expect(
      (await rejection(ctx.alice.ops.getTaskComments({ path: { taskId: gone.taskId } }))).status,
    ).toBe(404);
  });
});
