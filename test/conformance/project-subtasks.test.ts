/**
 * Project Subtasks: they inherit space and project (and so the custom fields), nest one level
 * only, are reached through their own parent, and leave the parent's counts right.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { insertCustomField, notificationsOf, rawAs, rejection } from '../support/fixtures-work';
import { createSpaceWithProjects, signedIn, suiteServer } from './support';

describe('Project Subtasks', () => {
  const ctx = suiteServer({
    alice: signedIn('alice', 'acme'),
    carol: signedIn('carol', 'globex'),
    raw: (server) => rawAs(server, 'alice', 'acme'),
  });
  let path: { spaceId: number; projectId: number };
  let otherProjectId: number;
  let fieldId: number;

  beforeAll(async () => {
    const {
      spaceId,
      projectIds: [projectId, otherId],
    } = await createSpaceWithProjects(ctx.alice, 'S', 'P', 'Q');
    otherProjectId = otherId;
    path = { spaceId, projectId };
    fieldId = insertCustomField(ctx.server.deps.db, {
      orgId: ctx.server.orgs.acme,
      createdBy: ctx.server.users.alice,
      name: 'Points',
      type: 'NUMBER',
      spaceId,
      projectId,
      now: ctx.server.deps.clock.now(),
    }).fieldId;
  });

  const newTask = async (title = 'Parent') =>
    (await ctx.alice.createProjectTaskResolved({ path, body: { taskTitle: title } })).taskId;

  it('creates a subtask that inherits space and project, with the project fields', async () => {
    const taskId = await newTask();
    const sub = await ctx.alice.ops.createProjectSubtask({
      path: { ...path, taskId },
      body: {
        taskTitle: 'Child',
        owners: [ctx.server.users.bob],
        customFieldValues: [{ taskCustomFieldId: fieldId, value: 3 }],
      },
    });
    expect(sub).toMatchObject({ ...path, parentTaskId: taskId, taskTitle: 'Child' });
    expect(sub.customFields?.find((c) => c.taskCustomFieldId === fieldId)?.fieldValue).toEqual([
      { taskId: sub.taskId, value: 3 },
    ]);
    expect(notificationsOf(ctx.server.deps.db, sub.taskId)).toEqual([
      expect.objectContaining({
        user_id: ctx.server.users.bob,
        type: 'ASSIGNED',
        project_id: path.projectId,
      }),
    ]);
    expect(
      (await ctx.alice.ops.getProjectTaskById({ path: { ...path, taskId } })).subtaskCount,
    ).toBe(1);
    // Subtasks are not in the project's task list, but in the bulk export.
    expect(
      (await ctx.alice.ops.getAllTasksInProject_1({ path })).content.map((t) => t.taskId),
    ).not.toContain(sub.taskId);
  });

  it('lists subtasks of a task, paged and filtered', async () => {
    const taskId = await newTask('List');
    for (const [title, status] of [
      ['x1', 'Done'],
      ['x2', 'To Do'],
      ['x3', 'Done'],
    ] as const)
      await ctx.alice.ops.createProjectSubtask({
        path: { ...path, taskId },
        body: { taskTitle: title, status },
      });
    const page = await ctx.alice.ops.getProjectSubtasks({
      path: { ...path, taskId },
      query: { size: 2, sort: ['taskTitle,desc'] },
    });
    expect(page).toMatchObject({ totalElements: 3, totalPages: 2 });
    expect(page.content.map((t) => t.taskTitle)).toEqual(['x3', 'x2']);
    const pending = await ctx.alice.ops.getProjectSubtasks({
      path: { ...path, taskId },
      query: { pending: true },
    });
    expect(pending.content.map((t) => t.taskTitle)).toEqual(['x2']);
    expect(
      (
        await ctx.raw(
          'GET',
          `/v1/spaces/${path.spaceId}/projects/${path.projectId}/tasks/${taskId}/subtasks?size=x`,
        )
      ).fields,
    ).toContain('size');
  });

  it('refuses nesting (400) and wrong paths (404)', async () => {
    const taskId = await newTask('Nest');
    const sub = await ctx.alice.ops.createProjectSubtask({
      path: { ...path, taskId },
      body: { taskTitle: 'S1' },
    });
    expect(
      (
        await rejection(
          ctx.alice.ops.createProjectSubtask({
            path: { ...path, taskId: sub.taskId },
            body: { taskTitle: 'N' },
          }),
        )
      ).status,
    ).toBe(400);
    const personal = await ctx.alice.ops.createTask({ body: { taskTitle: 'Personal' } });
    const wrongParents = [
      { ...path, taskId: personal.taskId },
      { spaceId: path.spaceId, projectId: otherProjectId, taskId },
    ];
    for (const p of wrongParents) {
      expect(
        (await rejection(ctx.alice.ops.createProjectSubtask({ path: p, body: { taskTitle: 'x' } })))
          .status,
      ).toBe(404);
      expect((await rejection(ctx.alice.ops.getProjectSubtasks({ path: p }))).status).toBe(404);
    }
    const otherTask = await newTask('Other');
    const wrongSubs = [
      { ...path, taskId: otherTask, subtaskId: sub.taskId },
      { ...path, taskId, subtaskId: taskId },
      { spaceId: path.spaceId, projectId: otherProjectId, taskId, subtaskId: sub.taskId },
    ];
    for (const p of wrongSubs) {
      expect(
        (await rejection(ctx.alice.ops.updateSubtask({ path: p, body: { taskTitle: 'x' } })))
          .status,
      ).toBe(404);
      expect((await rejection(ctx.alice.ops.deleteSubtask({ path: p }))).status).toBe(404);
    }
    expect(
      (
        await rejection(
          ctx.carol.ops.updateSubtask({
            path: { ...path, taskId, subtaskId: sub.taskId },
            body: { taskTitle: 'x' },
          }),
        )
      ).status,
    ).toBe(404);
    // A personal subtask through the personal path of a project task is a 404 too.
    expect(
      (
        await rejection(
          ctx.alice.ops.updatePersonalSubtask({
            path: { parentTaskId: taskId, subtaskId: sub.taskId },
            body: { taskTitle: 'x' },
          }),
        )
      ).status,
    ).toBe(404);
  });

  it('updates as the full state and refuses bad bodies', async () => {
    const taskId = await newTask('Upd');
    const sub = await ctx.alice.ops.createProjectSubtask({
      path: { ...path, taskId },
      body: {
        taskTitle: 'Before',
        tags: ['t'],
        customFieldValues: [{ taskCustomFieldId: fieldId, value: 8 }],
      },
    });
    const p = { ...path, taskId, subtaskId: sub.taskId };
    const bad = await rejection(
      ctx.alice.ops.updateSubtask({ path: p, body: { taskTitle: 'x', priority: 'Top' } }),
    );
    expect(bad.fieldErrors.map((e) => e.field)).toEqual(['priority']);
    expect(
      (
        await ctx.raw(
          'PUT',
          `/v1/spaces/${path.spaceId}/projects/${path.projectId}/tasks/${taskId}/subtasks/${sub.taskId}`,
          { taskTitle: '' },
        )
      ).fields,
    ).toContain('taskTitle');
    const u = await ctx.alice.ops.updateSubtask({
      path: p,
      body: { taskTitle: 'After', priority: 'urgent' },
    });
    expect(u).toMatchObject({
      taskTitle: 'After',
      priority: 'Urgent',
      tags: [],
      parentTaskId: taskId,
      ...path,
    });
    expect(u.customFields?.find((c) => c.taskCustomFieldId === fieldId)?.fieldValue).toEqual([]);
  });

  it('deletes a subtask softly; deleting the parent takes the rest', async () => {
    const taskId = await newTask('Del');
    const a = await ctx.alice.ops.createProjectSubtask({
      path: { ...path, taskId },
      body: { taskTitle: 'a' },
    });
    const b = await ctx.alice.ops.createProjectSubtask({
      path: { ...path, taskId },
      body: { taskTitle: 'b' },
    });
    expect(
      await ctx.alice.ops.deleteSubtask({ path: { ...path, taskId, subtaskId: a.taskId } }),
    ).toEqual({});
    expect(
      (await ctx.alice.ops.getProjectTaskById({ path: { ...path, taskId } })).subtaskCount,
    ).toBe(1);
    await ctx.alice.ops.deleteProjectTask({ path: { ...path, taskId } });
    const deleted = ctx.server.deps.db
      .prepare('SELECT task_id, deleted FROM tasks WHERE task_id IN (?, ?, ?) ORDER BY task_id')
      .all(taskId, a.taskId, b.taskId);
    expect(deleted).toEqual([
      { task_id: taskId, deleted: 1 },
      { task_id: a.taskId, deleted: 1 },
      { task_id: b.taskId, deleted: 1 },
    ]);
  });
});
