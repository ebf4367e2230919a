/**
 * Project Subtasks: they inherit space and project (and so the custom fields), nest one level
 * only, are reached through their own parent, and leave the parent's counts right.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../sync/api';
import { clientFor } from '../support/client';
import { insertCustomField, notificationsOf, rawAs, rejection } from '../support/fixtures-work';
import { startTestServer, type TestServer } from '../support/server';

describe('Project Subtasks', () => {
  let server: TestServer;
  let alice: ApiClient;
  let carol: ApiClient;
  let raw: Awaited<ReturnType<typeof rawAs>>;
  let path: { spaceId: number; projectId: number };
  let otherProjectId: number;
  let fieldId: number;

  beforeAll(async () => {
    server = await startTestServer();
    alice = await clientFor(server, 'alice', 'acme');
    carol = await clientFor(server, 'carol', 'globex');
    raw = await rawAs(server, 'alice', 'acme');
    const spaceId = (await alice.ops.createSpace({ body: { spaceName: 'S' } })).spaceId;
    const projectId = (
      await alice.ops.createProject({ path: { spaceId }, body: { projectName: 'P' } })
    ).projectId;
    otherProjectId = (
      await alice.ops.createProject({ path: { spaceId }, body: { projectName: 'Q' } })
    ).projectId;
    path = { spaceId, projectId };
    fieldId = insertCustomField(server.deps.db, {
      orgId: server.orgs.acme,
      createdBy: server.users.alice,
      name: 'Points',
      type: 'NUMBER',
      spaceId,
      projectId,
      now: server.deps.clock.now(),
    }).fieldId;
  });
  afterAll(async () => {
    await Promise.all([alice.close(), carol.close()]);
    await server.close();
  });

  const newTask = async (title = 'Parent') =>
    (await alice.createProjectTaskResolved({ path, body: { taskTitle: title } })).taskId;

  it('creates a subtask that inherits space and project, with the project fields', async () => {
    const taskId = await newTask();
    const sub = await alice.ops.createProjectSubtask({
      path: { ...path, taskId },
      body: {
        taskTitle: 'Child',
        owners: [server.users.bob],
        customFieldValues: [{ taskCustomFieldId: fieldId, value: 3 }],
      },
    });
    expect(sub).toMatchObject({ ...path, parentTaskId: taskId, taskTitle: 'Child' });
    expect(sub.customFields?.find((c) => c.taskCustomFieldId === fieldId)?.fieldValue).toEqual([
      { taskId: sub.taskId, value: 3 },
    ]);
    expect(notificationsOf(server.deps.db, sub.taskId)).toEqual([
      expect.objectContaining({
        user_id: server.users.bob,
        type: 'ASSIGNED',
        project_id: path.projectId,
      }),
    ]);
    expect((await alice.ops.getProjectTaskById({ path: { ...path, taskId } })).subtaskCount).toBe(
      1,
    );
    // Subtasks are not in the project's task list, but in the bulk export.
    expect(
      (await alice.ops.getAllTasksInProject_1({ path })).content.map((t) => t.taskId),
    ).not.toContain(sub.taskId);
  });

  it('lists subtasks of a task, paged and filtered', async () => {
    const taskId = await newTask('List');
    for (const [title, status] of [
      ['x1', 'Done'],
      ['x2', 'To Do'],
      ['x3', 'Done'],
    ] as const)
      await alice.ops.createProjectSubtask({
        path: { ...path, taskId },
        body: { taskTitle: title, status },
      });
    const page = await alice.ops.getProjectSubtasks({
      path: { ...path, taskId },
      query: { size: 2, sort: ['taskTitle,desc'] },
    });
    expect(page).toMatchObject({ totalElements: 3, totalPages: 2 });
    expect(page.content.map((t) => t.taskTitle)).toEqual(['x3', 'x2']);
    const pending = await alice.ops.getProjectSubtasks({
      path: { ...path, taskId },
      query: { pending: true },
    });
    expect(pending.content.map((t) => t.taskTitle)).toEqual(['x2']);
    expect(
      (
        await raw(
          'GET',
          `/v1/spaces/${path.spaceId}/projects/${path.projectId}/tasks/${taskId}/subtasks?size=x`,
        )
      ).fields,
    ).toContain('size');
  });

  it('refuses nesting (400) and wrong paths (404)', async () => {
    const taskId = await newTask('Nest');
    const sub = await alice.ops.createProjectSubtask({
      path: { ...path, taskId },
      body: { taskTitle: 'S1' },
    });
    expect(
      (
        await rejection(
          alice.ops.createProjectSubtask({
            path: { ...path, taskId: sub.taskId },
            body: { taskTitle: 'N' },
          }),
        )
      ).status,
    ).toBe(400);
    const personal = await alice.ops.createTask({ body: { taskTitle: 'Personal' } });
    const wrongParents = [
      { ...path, taskId: personal.taskId },
      { spaceId: path.spaceId, projectId: otherProjectId, taskId },
    ];
    for (const p of wrongParents) {
      expect(
        (await rejection(alice.ops.createProjectSubtask({ path: p, body: { taskTitle: 'x' } })))
          .status,
      ).toBe(404);
      expect((await rejection(alice.ops.getProjectSubtasks({ path: p }))).status).toBe(404);
    }
    const otherTask = await newTask('Other');
    const wrongSubs = [
      { ...path, taskId: otherTask, subtaskId: sub.taskId },
      { ...path, taskId, subtaskId: taskId },
      { spaceId: path.spaceId, projectId: otherProjectId, taskId, subtaskId: sub.taskId },
    ];
    for (const p of wrongSubs) {
      expect(
        (await rejection(alice.ops.updateSubtask({ path: p, body: { taskTitle: 'x' } }))).status,
      ).toBe(404);
      expect((await rejection(alice.ops.deleteSubtask({ path: p }))).status).toBe(404);
    }
    expect(
      (
        await rejection(
          carol.ops.updateSubtask({
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
          alice.ops.updatePersonalSubtask({
            path: { parentTaskId: taskId, subtaskId: sub.taskId },
            body: { taskTitle: 'x' },
          }),
        )
      ).status,
    ).toBe(404);
  });

  it('updates as the full state and refuses bad bodies', async () => {
    const taskId = await newTask('Upd');
    const sub = await alice.ops.createProjectSubtask({
      path: { ...path, taskId },
      body: {
        taskTitle: 'Before',
        tags: ['t'],
        customFieldValues: [{ taskCustomFieldId: fieldId, value: 8 }],
      },
    });
    const p = { ...path, taskId, subtaskId: sub.taskId };
    const bad = await rejection(
      alice.ops.updateSubtask({ path: p, body: { taskTitle: 'x', priority: 'Top' } }),
    );
    expect(bad.fieldErrors.map((e) => e.field)).toEqual(['priority']);
    expect(
      (
        await raw(
          'PUT',
          `/v1/spaces/${path.spaceId}/projects/${path.projectId}/tasks/${taskId}/subtasks/${sub.taskId}`,
          { taskTitle: '' },
        )
      ).fields,
    ).toContain('taskTitle');
    const u = await alice.ops.updateSubtask({
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
    const a = await alice.ops.createProjectSubtask({
      path: { ...path, taskId },
      body: { taskTitle: 'a' },
    });
    const b = await alice.ops.createProjectSubtask({
      path: { ...path, taskId },
      body: { taskTitle: 'b' },
    });
    expect(
      await alice.ops.deleteSubtask({ path: { ...path, taskId, subtaskId: a.taskId } }),
    ).toEqual({});
    expect((await alice.ops.getProjectTaskById({ path: { ...path, taskId } })).subtaskCount).toBe(
      1,
    );
    await alice.ops.deleteProjectTask({ path: { ...path, taskId } });
    const deleted = server.deps.db
      .prepare('SELECT task_id, deleted FROM tasks WHERE task_id IN (?, ?, ?) ORDER BY task_id')
      .all(taskId, a.taskId, b.taskId);
    expect(deleted).toEqual([
      { task_id: taskId, deleted: 1 },
      { task_id: a.taskId, deleted: 1 },
      { task_id: b.taskId, deleted: 1 },
    ]);
  });
});
