/**
 * Project Tasks: placement, custom field values of every type (the space's and the project's
 * fields), the customFields list filter on those fields, path consistency, notifications
 * with the project, deletes, and the create answer with and without the spec's quirk.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DAY,
  insertCustomField,
  iso,
  notificationsOf,
  rawAs,
  rejection,
} from '../support/fixtures-work';
import {
  aliceBobCarol,
  createSpaceWithProjects,
  insertClientAndStage,
  suiteServer,
  withOwnServer,
} from './support';

describe('Project Tasks', () => {
  const ctx = suiteServer({ ...aliceBobCarol, raw: (server) => rawAs(server, 'alice', 'acme') });
  let spaceId: number;
  let projectId: number;
  let otherProjectId: number;
  let path: { spaceId: number; projectId: number };
  const f: Record<string, number> = {};
  let stageOptions: Record<string, number>;
  let t0: number;

  beforeAll(async () => {
    const made = await createSpaceWithProjects(ctx.alice, 'Eng', 'API', 'UI');
    spaceId = made.spaceId;
    [projectId, otherProjectId] = made.projectIds;
    path = { spaceId, projectId };
    t0 = ctx.server.deps.clock.now();
    const base = {
      orgId: ctx.server.orgs.acme,
      createdBy: ctx.server.users.alice,
      spaceId,
      now: t0,
    };
    const db = ctx.server.deps.db;
    ({ client: f.client, stage: f.stage, stageOptions } = insertClientAndStage(db, base));
    f.flag = insertCustomField(db, { ...base, name: 'Flag', type: 'CHECKBOX' }).fieldId;
    f.deadline = insertCustomField(db, {
      ...base,
      name: 'Deadline',
      type: 'DATE',
      projectId,
    }).fieldId;
    f.points = insertCustomField(db, {
      ...base,
      name: 'Points',
      type: 'NUMBER',
      projectId,
    }).fieldId;
    f.otherPoints = insertCustomField(db, {
      ...base,
      name: 'Points',
      type: 'NUMBER',
      projectId: otherProjectId,
    }).fieldId;
  });

  const fieldValueOf = (
    t: {
      customFields?:
        | { taskCustomFieldId: number; fieldValue?: { taskId: number; value: unknown }[] | null }[]
        | null;
    },
    field: number,
  ) => t.customFields?.find((c) => c.taskCustomFieldId === field)?.fieldValue;

  it('creates a task in the project with values for the space and project fields', async () => {
    const t = await ctx.alice.createProjectTaskResolved({
      path,
      body: {
        taskTitle: 'Endpoint',
        status: 'In Progress',
        customFieldValues: [
          { taskCustomFieldId: f.client!, value: 'Acme Corp' },
          { taskCustomFieldId: f.stage!, value: 'build' },
          { taskCustomFieldId: f.flag!, value: true },
          { taskCustomFieldId: f.deadline!, value: t0 },
          { taskCustomFieldId: f.points!, value: 5 },
        ],
      },
    });
    expect(t).toMatchObject({ spaceId, projectId, parentTaskId: null, status: 'In Progress' });
    const task = await ctx.alice.ops.getProjectTaskById({ path: { ...path, taskId: t.taskId } });
    expect(task.customFields?.map((c) => c.fieldName)).toEqual([
      'Client',
      'Stage',
      'Flag',
      'Deadline',
      'Points',
    ]);
    expect(fieldValueOf(task, f.client!)).toEqual([{ taskId: t.taskId, value: 'Acme Corp' }]);
    expect(fieldValueOf(task, f.stage!)).toEqual([{ taskId: t.taskId, value: stageOptions.Build }]);
    expect(fieldValueOf(task, f.flag!)).toEqual([{ taskId: t.taskId, value: true }]);
    expect(fieldValueOf(task, f.deadline!)).toEqual([{ taskId: t.taskId, value: t0 }]);
    expect(fieldValueOf(task, f.points!)).toEqual([{ taskId: t.taskId, value: 5 }]);
    const stage = task.customFields?.find((c) => c.taskCustomFieldId === f.stage);
    expect(stage?.customFieldOption?.map((o) => o.optionName)).toEqual(['Design', 'Build', 'Ship']);
    expect(stage).toMatchObject({
      spaceId,
      projectId: null,
      fieldType: 'DROPDOWN',
      tenantId: ctx.server.orgs.acme,
    });
  });

  it('refuses values of the wrong type or for fields that do not apply, writing nothing', async () => {
    const { taskId } = await ctx.alice.createProjectTaskResolved({
      path,
      body: {
        taskTitle: 'Typed',
        customFieldValues: [{ taskCustomFieldId: f.client!, value: 'keep' }],
      },
    });
    const cases = [
      [{ taskCustomFieldId: f.deadline!, value: '2025-01-01' }, 'customFieldValues.0.value'],
      [{ taskCustomFieldId: f.deadline!, value: 1.5 }, 'customFieldValues.0.value'],
      [{ taskCustomFieldId: f.points!, value: 'five' }, 'customFieldValues.0.value'],
      [{ taskCustomFieldId: f.flag!, value: 'yes' }, 'customFieldValues.0.value'],
      [{ taskCustomFieldId: f.stage!, value: 'Unknown' }, 'customFieldValues.0.value'],
      [{ taskCustomFieldId: f.stage!, value: 999_999 }, 'customFieldValues.0.value'],
      [{ taskCustomFieldId: f.client!, value: 42 }, 'customFieldValues.0.value'],
      [{ taskCustomFieldId: f.otherPoints!, value: 1 }, 'customFieldValues.0.taskCustomFieldId'],
      [{ taskCustomFieldId: 123_456, value: 1 }, 'customFieldValues.0.taskCustomFieldId'],
    ] as const;
    for (const [value, field] of cases) {
      const e = await rejection(
        ctx.alice.ops.updateProjectTask({
          path: { ...path, taskId },
          body: { taskTitle: 'Changed', customFieldValues: [value] },
        }),
      );
      expect(e.status).toBe(400);
      expect(e.fieldErrors.map((x) => x.field)).toEqual([field]);
    }
    const twice = await rejection(
      ctx.alice.ops.updateProjectTask({
        path: { ...path, taskId },
        body: {
          taskTitle: 'x',
          customFieldValues: [
            { taskCustomFieldId: f.points!, value: 1 },
            { taskCustomFieldId: f.points!, value: 2 },
          ],
        },
      }),
    );
    expect(twice.fieldErrors.map((x) => x.field)).toEqual([
      'customFieldValues.1.taskCustomFieldId',
    ]);
    const after = await ctx.alice.ops.getProjectTaskById({ path: { ...path, taskId } });
    expect(after.taskTitle).toBe('Typed');
    expect(fieldValueOf(after, f.client!)).toEqual([{ taskId, value: 'keep' }]);
  });

  it('clears a value with null and all values when customFieldValues is omitted', async () => {
    const t = await ctx.alice.createProjectTaskResolved({
      path,
      body: {
        taskTitle: 'Clear',
        customFieldValues: [
          { taskCustomFieldId: f.client!, value: 'x' },
          { taskCustomFieldId: f.stage!, value: stageOptions.Ship! },
        ],
      },
    });
    const u = await ctx.alice.ops.updateProjectTask({
      path: { ...path, taskId: t.taskId },
      body: {
        taskTitle: 'Clear',
        customFieldValues: [
          { taskCustomFieldId: f.client!, value: null },
          { taskCustomFieldId: f.stage!, value: 'Ship' },
        ],
      },
    });
    expect(fieldValueOf(u, f.client!)).toEqual([]);
    expect(fieldValueOf(u, f.stage!)).toEqual([{ taskId: t.taskId, value: stageOptions.Ship }]);
    const none = await ctx.alice.ops.updateProjectTask({
      path: { ...path, taskId: t.taskId },
      body: { taskTitle: 'Clear' },
    });
    expect(none.customFields?.every((c) => c.fieldValue?.length === 0)).toBe(true);
  });

  it('checks the whole path: project in space, task in project, top-level only', async () => {
    const mine = await ctx.alice.createProjectTaskResolved({ path, body: { taskTitle: 'Here' } });
    const sub = await ctx.alice.ops.createProjectSubtask({
      path: { ...path, taskId: mine.taskId },
      body: { taskTitle: 'Sub' },
    });
    const elsewhere = await ctx.alice.createProjectTaskResolved({
      path: { spaceId, projectId: otherProjectId },
      body: { taskTitle: 'There' },
    });
    const personal = await ctx.alice.ops.createTask({ body: { taskTitle: 'Personal' } });
    const otherSpace = (await ctx.alice.ops.createSpace({ body: { spaceName: 'X' } })).spaceId;
    const wrong = [
      { ...path, taskId: elsewhere.taskId },
      { ...path, taskId: personal.taskId },
      { ...path, taskId: sub.taskId },
      { spaceId: otherSpace, projectId, taskId: mine.taskId },
      { ...path, taskId: 888_888 },
    ];
    for (const p of wrong) {
      expect((await rejection(ctx.alice.ops.getProjectTaskById({ path: p }))).status).toBe(404);
      expect(
        (await rejection(ctx.alice.ops.updateProjectTask({ path: p, body: { taskTitle: 'x' } })))
          .status,
      ).toBe(404);
      expect((await rejection(ctx.alice.ops.deleteProjectTask({ path: p }))).status).toBe(404);
    }
    expect(
      (
        await rejection(
          ctx.carol.ops.getProjectTaskById({ path: { ...path, taskId: mine.taskId } }),
        )
      ).status,
    ).toBe(404);
    expect(
      (await rejection(ctx.carol.ops.createProjectTask({ path, body: { taskTitle: 'x' } }))).status,
    ).toBe(404);
    expect(
      (
        await rejection(
          ctx.alice.ops.createProjectTask({
            path: { spaceId: otherSpace, projectId },
            body: { taskTitle: 'x' },
          }),
        )
      ).status,
    ).toBe(404);
    expect(
      (await ctx.raw('GET', `/v1/spaces/${spaceId}/projects/${projectId}/tasks/1.5`)).status,
    ).toBe(400);
    expect(
      (await ctx.bob.ops.getProjectTaskById({ path: { ...path, taskId: mine.taskId } })).taskTitle,
    ).toBe('Here');
  });

  it('notifies new owners and mentions with the project, updates and deletes', async () => {
    const t = await ctx.alice.createProjectTaskResolved({
      path,
      body: { taskTitle: 'Assign', owners: [ctx.server.users.bob] },
    });
    expect(notificationsOf(ctx.server.deps.db, t.taskId)).toEqual([
      expect.objectContaining({
        user_id: ctx.server.users.bob,
        type: 'ASSIGNED',
        project_id: projectId,
      }),
    ]);
    const u = await ctx.bob.ops.updateProjectTask({
      path: { ...path, taskId: t.taskId },
      body: {
        taskTitle: 'Assign',
        owners: [ctx.server.users.bob, ctx.server.users.alice],
        description: '@alice@example.com look',
        status: 'done',
      },
    });
    expect(u).toMatchObject({ status: 'Done' });
    expect(notificationsOf(ctx.server.deps.db, t.taskId).map((n) => [n.user_id, n.type])).toEqual([
      [ctx.server.users.bob, 'ASSIGNED'],
      [ctx.server.users.alice, 'ASSIGNED'],
      [ctx.server.users.alice, 'MENTION'],
    ]);
    expect(await ctx.alice.ops.deleteProjectTask({ path: { ...path, taskId: t.taskId } })).toEqual(
      {},
    );
    expect(
      (await rejection(ctx.alice.ops.getProjectTaskById({ path: { ...path, taskId: t.taskId } })))
        .status,
    ).toBe(404);
  });

  describe('the list', () => {
    let listPath: { spaceId: number; projectId: number };
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      listPath = {
        spaceId,
        projectId: (
          await ctx.alice.ops.createProject({ path: { spaceId }, body: { projectName: 'Filters' } })
        ).projectId,
      };
      const base = {
        orgId: ctx.server.orgs.acme,
        createdBy: ctx.server.users.alice,
        spaceId,
        now: t0,
      };
      const due = insertCustomField(ctx.server.deps.db, {
        ...base,
        name: 'Deadline',
        type: 'DATE',
        projectId: listPath.projectId,
      }).fieldId;
      const v = (field: number, value: string | number | boolean) => ({
        taskCustomFieldId: field,
        value,
      });
      const make = async (
        key: string,
        title: string,
        values: { taskCustomFieldId: number; value: string | number | boolean }[],
      ) => {
        ids[key] = (
          await ctx.alice.createProjectTaskResolved({
            path: listPath,
            body: { taskTitle: title, customFieldValues: values },
          })
        ).taskId;
      };
      await make('a', 'A', [v(f.client!, 'Acme Corp'), v(f.stage!, 'Design'), v(due, t0)]);
      await make('b', 'B', [
        v(f.client!, 'acme corporation'),
        v(f.stage!, 'Build'),
        v(due, t0 + DAY),
      ]);
      await make('c', 'C', [v(f.client!, 'Globex'), v(due, t0 - 10 * DAY)]);
      await make('d', 'D', [v(f.flag!, true)]);
      // A subtask with a matching value is not in the project's task list.
      await ctx.alice.ops.createProjectSubtask({
        path: { ...listPath, taskId: ids.a! },
        body: { taskTitle: 'sub', customFieldValues: [v(f.client!, 'Acme Corp')] },
      });
    });

    const keys = async (conditions: unknown[]) => {
      const page = await ctx.alice.ops.getAllTasksInProject_1({
        path: listPath,
        query: { customFields: JSON.stringify(conditions), size: 100 },
      });
      return page.content
        .map((t) => Object.entries(ids).find(([, id]) => id === t.taskId)?.[0])
        .sort();
    };

    it('lists the top-level tasks of the project, paged and sorted', async () => {
      const page = await ctx.alice.ops.getAllTasksInProject_1({
        path: listPath,
        query: { size: 3, sort: ['taskTitle,desc'] },
      });
      expect(page).toMatchObject({ totalElements: 4, totalPages: 2, numberOfElements: 3 });
      expect(page.content.map((t) => t.taskTitle)).toEqual(['D', 'C', 'B']);
      expect(
        (
          await ctx.alice.ops.getAllTasksInProject_1({
            path: listPath,
            query: { page: 1, size: 3, sort: ['taskTitle,desc'] },
          })
        ).content.map((t) => t.taskTitle),
      ).toEqual(['A']);
    });

    it('filters by text conditions on the seeded fields', async () => {
      expect(await keys([{ field: 'client', condition: 'IS', value: ['ACME CORP'] }])).toEqual([
        'a',
      ]);
      expect(await keys([{ field: 'Client', condition: 'ISNOT', value: ['Acme Corp'] }])).toEqual([
        'b',
        'c',
        'd',
      ]);
      expect(await keys([{ field: 'Client', condition: 'CONTAINS', value: ['corp'] }])).toEqual([
        'a',
        'b',
      ]);
      expect(await keys([{ field: 'Client', condition: 'NOTCONTAINS', value: ['corp'] }])).toEqual([
        'c',
        'd',
      ]);
      expect(await keys([{ field: 'Client', condition: 'STARTSWITH', value: ['glo'] }])).toEqual([
        'c',
      ]);
      expect(await keys([{ field: 'Client', condition: 'ENDSWITH', value: ['ation'] }])).toEqual([
        'b',
      ]);
      expect(await keys([{ field: 'Client', condition: 'ISEMPTY' }])).toEqual(['d']);
      expect(await keys([{ field: 'Client', condition: 'ISNOTEMPTY', value: [] }])).toEqual([
        'a',
        'b',
        'c',
      ]);
      expect(await keys([{ field: 'Stage', condition: 'IS', value: ['build'] }])).toEqual(['b']);
      expect(await keys([{ field: 'Flag', condition: 'IS', value: ['true'] }])).toEqual(['d']);
      expect(
        await keys([
          { field: 'Client', condition: 'CONTAINS', value: ['acme'] },
          { field: 'Stage', condition: 'ISNOT', value: ['Design'] },
        ]),
      ).toEqual(['b']);
    });

    it('filters by date conditions on the DATE field', async () => {
      expect(await keys([{ field: 'Deadline', condition: 'TODAY' }])).toEqual(['a']);
      expect(await keys([{ field: 'Deadline', condition: 'TOMORROW' }])).toEqual(['b']);
      expect(await keys([{ field: 'Deadline', condition: 'IS', value: [t0] }])).toEqual(['a']);
      expect(await keys([{ field: 'Deadline', condition: 'BEFORE', value: [t0] }])).toEqual(['c']);
      expect(await keys([{ field: 'Deadline', condition: 'AFTER', value: [t0] }])).toEqual(['b']);
      expect(
        await keys([{ field: 'Deadline', condition: 'BETWEEN', value: [t0 + DAY, t0 - DAY] }]),
      ).toEqual(['a', 'b']);
      expect(
        await keys([
          { field: 'Deadline', condition: 'NOTBETWEEN', value: [t0 - DAY, t0 + 2 * DAY] },
        ]),
      ).toEqual(['c']);
      expect(await keys([{ field: 'Deadline', condition: 'ISEMPTY' }])).toEqual(['d']);
    });

    it('refuses a bad customFields parameter with a field error', async () => {
      const url = (v: string) =>
        `/v1/spaces/${listPath.spaceId}/projects/${listPath.projectId}/tasks?customFields=${encodeURIComponent(v)}`;
      for (const bad of [
        'not json',
        '{"field":"x"}',
        '[{"field":"Deadline","condition":"BETWEEN","value":[1]}]',
        '[{"condition":"IS","value":["a"]}]',
      ]) {
        const res = await ctx.raw('GET', url(bad));
        expect(res.status).toBe(400);
        expect(res.fields).toContain('customFields');
      }
    });
  });
});

describe('Project Tasks: the create answer', () => {
  it('answers the project with the quirk, and the typed client still learns the task', async () => {
    await withOwnServer(
      { quirks: ['project-task-create-returns-project'] },
      async (server, alice) => {
        const {
          spaceId,
          projectIds: [projectId],
        } = await createSpaceWithProjects(alice, 'Q', 'Quirky');
        const answer = await alice.ops.createProjectTask({
          path: { spaceId, projectId },
          body: { taskTitle: 'First' },
        });
        expect(answer).toMatchObject({ projectId, projectName: 'Quirky' });
        expect('taskId' in answer).toBe(false);
        const resolved = await alice.createProjectTaskResolved({
          path: { spaceId, projectId },
          body: { taskTitle: 'Second', dueDate: iso(server.deps.clock.now()) },
        });
        expect(resolved).toMatchObject({ taskTitle: 'Second', projectId, spaceId });
        const row = server.deps.db
          .prepare('SELECT title FROM tasks WHERE task_id = ?')
          .get(resolved.taskId);
        expect(row).toEqual({ title: 'Second' });
      },
    );
  });

  it('answers the task by default', async () => {
    await withOwnServer({}, async (_server, alice) => {
      const {
        spaceId,
        projectIds: [projectId],
      } = await createSpaceWithProjects(alice, 'Q', 'Plain');
      const answer = await alice.ops.createProjectTask({
        path: { spaceId, projectId },
        body: { taskTitle: 'Direct' },
      });
      expect(answer).toMatchObject({ taskTitle: 'Direct', projectId });
      const resolved = await alice.createProjectTaskResolved({
        path: { spaceId, projectId },
        body: { taskTitle: 'Also direct' },
      });
      expect(resolved.taskTitle).toBe('Also direct');
    });
  });
});
