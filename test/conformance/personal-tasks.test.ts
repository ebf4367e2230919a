/**
 * Personal Tasks against the reference server through the typed client: the TaskDto shape,
 * vocabularies, full-state updates, completedTime, who sees what, paging, sorting and every
 * filter, field errors, notifications, and the soft-delete cascade.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TaskCreateRequest } from '../../shared/api';
import type { ApiClient } from '../../sync/api';
import { DAY, iso, notificationsOf, rawAs, rejection } from '../support/fixtures-work';
import { aliceBobCarol, signedIn, suiteServer } from './support';

type TaskBody = TaskCreateRequest;

describe('Personal Tasks', () => {
  const ctx = suiteServer({ ...aliceBobCarol, raw: (server) => rawAs(server, 'alice', 'acme') });

  const now = () => ctx.server.deps.clock.now();
  const row = (taskId: number) =>
    ctx.server.deps.db
      .prepare(
        'SELECT deleted, deleted_time, deleted_by, modified_time FROM tasks WHERE task_id = ?',
      )
      .get(taskId) as {
      deleted: number;
      deleted_time: number | null;
      deleted_by: number | null;
      modified_time: number;
    };

  it('creates a task with the full TaskDto shape, matching status and priority without case', async () => {
    const due = now() - DAY;
    const t = await ctx.alice.ops.createTask({
      body: {
        taskTitle: '  Write the report ',
        description: 'quarterly',
        owners: [ctx.server.users.bob, ctx.server.users.alice],
        startDate: iso(due - DAY),
        dueDate: iso(due),
        completion: 40,
        status: 'in progress',
        priority: 'HIGH',
        tags: ['Finance', 'finance', 'q3'],
      },
    });
    expect(t).toMatchObject({
      tenantId: ctx.server.orgs.acme,
      spaceId: null,
      projectId: null,
      parentTaskId: null,
      taskTitle: 'Write the report',
      description: 'quarterly',
      status: 'In Progress',
      priority: 'High',
      tags: ['Finance', 'q3'],
      startDate: iso(due - DAY),
      dueDate: iso(due),
      completion: 40,
      completedTime: null,
      overdue: true,
      deleted: false,
      customFields: [],
      subtaskCount: 0,
      checklistCount: 0,
      checklistCompletedCount: 0,
      attachmentCount: 0,
    });
    expect(t.owners?.map((o) => o.userId).sort()).toEqual(
      [ctx.server.users.alice, ctx.server.users.bob].sort(),
    );
    expect(t.owners?.find((o) => o.userId === ctx.server.users.bob)?.email).toBe('bob@example.com');
    expect(t.createdBy?.userId).toBe(ctx.server.users.alice);
    expect(t.modifiedBy?.userId).toBe(ctx.server.users.alice);
    expect(Date.parse(t.createdTime ?? '')).toBeGreaterThan(0);
  });

  it('defaults status To Do, priority None, no owners, no tags, completion 0', async () => {
    const t = await ctx.alice.ops.createTask({ body: { taskTitle: 'Bare' } });
    expect(t).toMatchObject({
      status: 'To Do',
      priority: 'None',
      owners: [],
      tags: [],
      completion: 0,
      description: '',
    });
    expect(t.startDate ?? null).toBeNull();
    expect(t.dueDate ?? null).toBeNull();
  });

  it('sets completedTime on entering Done, keeps it while Done and clears it on leaving', async () => {
    const t = await ctx.alice.ops.createTask({
      body: { taskTitle: 'Finish me', dueDate: iso(now() - DAY) },
    });
    expect(t.overdue).toBe(true);
    const done = await ctx.alice.ops.updateTask({
      path: { taskId: t.taskId },
      body: { taskTitle: 'Finish me', status: 'DONE', dueDate: iso(now() - DAY) },
    });
    expect(done).toMatchObject({ status: 'Done', overdue: false });
    expect(done.completedTime).toBeTruthy();
    const still = await ctx.alice.ops.updateTask({
      path: { taskId: t.taskId },
      body: { taskTitle: 'Finished', status: 'Done' },
    });
    expect(still.completedTime).toBe(done.completedTime);
    const back = await ctx.alice.ops.updateTask({
      path: { taskId: t.taskId },
      body: { taskTitle: 'Finished', status: 'In Review' },
    });
    expect(back.completedTime ?? null).toBeNull();
    const created = await ctx.alice.ops.createTask({
      body: { taskTitle: 'Born done', status: 'done' },
    });
    expect(created.completedTime).toBeTruthy();
  });

  it('an update replaces the full editable state and moves modifiedTime strictly forward', async () => {
    const t = await ctx.alice.ops.createTask({
      body: {
        taskTitle: 'Full',
        description: 'text',
        owners: [ctx.server.users.bob],
        tags: ['x'],
        priority: 'Urgent',
        status: 'In Review',
        completion: 70,
        dueDate: iso(now() + DAY),
      },
    });
    const before = row(t.taskId).modified_time;
    const u = await ctx.alice.ops.updateTask({
      path: { taskId: t.taskId },
      body: { taskTitle: 'Full v2' },
    });
    expect(u).toMatchObject({
      taskTitle: 'Full v2',
      description: '',
      owners: [],
      tags: [],
      priority: 'None',
      status: 'To Do',
      completion: 0,
    });
    expect(u.dueDate ?? null).toBeNull();
    const after = row(t.taskId).modified_time;
    expect(after).toBeGreaterThan(before);
    // Two updates within the same millisecond still order: max(now, previous + 1).
    await ctx.alice.ops.updateTask({ path: { taskId: t.taskId }, body: { taskTitle: 'Full v3' } });
    await ctx.alice.ops.updateTask({ path: { taskId: t.taskId }, body: { taskTitle: 'Full v4' } });
    expect(row(t.taskId).modified_time).toBeGreaterThanOrEqual(after + 2);
    expect((await ctx.alice.ops.getTaskById({ path: { taskId: t.taskId } })).taskTitle).toBe(
      'Full v4',
    );
  });

  it('getTaskById answers any live task of the org and 404s for another org', async () => {
    const space = await ctx.alice.ops.createSpace({ body: { spaceName: 'Lookup' } });
    const project = await ctx.alice.ops.createProject({
      path: { spaceId: space.spaceId },
      body: { projectName: 'P' },
    });
    const pt = await ctx.alice.createProjectTaskResolved({
      path: { spaceId: space.spaceId, projectId: project.projectId },
      body: { taskTitle: 'In project' },
    });
    const personal = await ctx.alice.ops.createTask({ body: { taskTitle: 'Mine' } });
    const sub = await ctx.alice.ops.createPersonalSubtask({
      path: { parentTaskId: personal.taskId },
      body: { taskTitle: 'Sub' },
    });
    for (const id of [pt.taskId, personal.taskId, sub.taskId]) {
      // Visibility is org-wide: bob sees alice's tasks.
      expect((await ctx.bob.ops.getTaskById({ path: { taskId: id } })).taskId).toBe(id);
      expect((await ctx.carol.ops.getTaskById({ path: { taskId: id } }).catch((e) => e)).kind).toBe(
        'not-found',
      );
    }
    const e = await rejection(ctx.alice.ops.getTaskById({ path: { taskId: 999_999 } }));
    expect(e.status).toBe(404);
    // Personal-task operations on a project task or a subtask are 404 too.
    expect(
      (
        await rejection(
          ctx.alice.ops.updateTask({ path: { taskId: pt.taskId }, body: { taskTitle: 'x' } }),
        )
      ).status,
    ).toBe(404);
    expect(
      (await rejection(ctx.alice.ops.deleteTask({ path: { taskId: pt.taskId } }))).status,
    ).toBe(404);
    expect(
      (
        await rejection(
          ctx.alice.ops.updateTask({ path: { taskId: sub.taskId }, body: { taskTitle: 'x' } }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await rejection(
          ctx.carol.ops.updateTask({ path: { taskId: personal.taskId }, body: { taskTitle: 'x' } }),
        )
      ).status,
    ).toBe(404);
    expect(
      (await rejection(ctx.carol.ops.deleteTask({ path: { taskId: personal.taskId } }))).status,
    ).toBe(404);
    expect((await ctx.alice.ops.getTaskById({ path: { taskId: personal.taskId } })).taskTitle).toBe(
      'Mine',
    );
  });

  it('refuses bad bodies with field errors and changes nothing', async () => {
    const t = await ctx.alice.ops.createTask({ body: { taskTitle: 'Guarded', tags: ['keep'] } });
    const bad: [TaskBody, string][] = [
      [{ taskTitle: 'x', status: 'Finished' }, 'status'],
      [{ taskTitle: 'x', priority: 'Whenever' }, 'priority'],
      [{ taskTitle: 'x', owners: [ctx.server.users.carol] }, 'owners'],
      [{ taskTitle: 'x', owners: [987_654] }, 'owners'],
      [
        { taskTitle: 'x', customFieldValues: [{ taskCustomFieldId: 1, value: 'v' }] },
        'customFieldValues.0.taskCustomFieldId',
      ],
    ];
    for (const [body, field] of bad) {
      const e = await rejection(ctx.alice.ops.updateTask({ path: { taskId: t.taskId }, body }));
      expect(e.status).toBe(400);
      expect(e.fieldErrors.map((f) => f.field)).toContain(field);
      const c = await rejection(ctx.alice.ops.createTask({ body }));
      expect(c.fieldErrors.map((f) => f.field)).toContain(field);
    }
    // What the typed client refuses to send, sent raw.
    const blank = await ctx.raw('PUT', `/v1/tasks/${t.taskId}`, { taskTitle: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.fields).toContain('taskTitle');
    expect((await ctx.raw('POST', '/v1/tasks', {})).fields).toContain('taskTitle');
    const badId = await ctx.raw('GET', '/v1/tasks/abc');
    expect(badId.status).toBe(400);
    expect(badId.fields).toContain('taskId');
    expect((await ctx.raw('GET', '/v1/tasks/0')).status).toBe(400);
    const after = await ctx.alice.ops.getTaskById({ path: { taskId: t.taskId } });
    expect(after).toMatchObject({ taskTitle: 'Guarded', tags: ['keep'] });
    expect(row(t.taskId).deleted).toBe(0);
  });

  it('notifies newly added owners (ASSIGNED) and newly mentioned members (MENTION), never the actor', async () => {
    const db = ctx.server.deps.db;
    const t = await ctx.alice.ops.createTask({
      body: {
        taskTitle: 'Notify',
        owners: [ctx.server.users.alice, ctx.server.users.bob],
        description: 'ping @alice@example.com',
      },
    });
    let n = notificationsOf(db, t.taskId);
    expect(n).toHaveLength(1);
    expect(n[0]).toMatchObject({
      user_id: ctx.server.users.bob,
      type: 'ASSIGNED',
      task_id: t.taskId,
      project_id: null,
    });
    expect(n[0]?.title).toContain('Notify');
    // Same owners again, a mention of bob (and of a non-member and an unknown address).
    await ctx.alice.ops.updateTask({
      path: { taskId: t.taskId },
      body: {
        taskTitle: 'Notify',
        owners: [ctx.server.users.alice, ctx.server.users.bob],
        description: 'see @Bob@Example.com. and @carol@example.com and @nobody@example.com',
      },
    });
    n = notificationsOf(db, t.taskId);
    expect(n.map((x) => x.type)).toEqual(['ASSIGNED', 'MENTION']);
    expect(n[1]).toMatchObject({ user_id: ctx.server.users.bob });
    expect(n[1]?.body).toContain('@Bob@Example.com');
    // Nothing new: no notification.
    await ctx.alice.ops.updateTask({
      path: { taskId: t.taskId },
      body: {
        taskTitle: 'Notify',
        owners: [ctx.server.users.bob],
        description: 'see @bob@example.com',
      },
    });
    expect(notificationsOf(db, t.taskId)).toHaveLength(2);
    // Bob re-adds alice: alice is told, bob (the actor) is not.
    const bobAddsAlice = await ctx.bob.ops.createTask({
      body: { taskTitle: 'For alice', owners: [ctx.server.users.alice, ctx.server.users.bob] },
    });
    expect(notificationsOf(db, bobAddsAlice.taskId)).toEqual([
      expect.objectContaining({ user_id: ctx.server.users.alice, type: 'ASSIGNED' }),
    ]);
  });

  it('deletes softly, with its subtasks, and removes checklists, timers, attachments and files', async () => {
    const db = ctx.server.deps.db;
    const t = await ctx.alice.ops.createTask({ body: { taskTitle: 'Doomed' } });
    const sub = await ctx.alice.ops.createPersonalSubtask({
      path: { parentTaskId: t.taskId },
      body: { taskTitle: 'Doomed sub' },
    });
    const at = now();
    for (const id of [t.taskId, sub.taskId]) {
      db.prepare(
        'INSERT INTO checklist_items (task_id, name, position, created_time, modified_time) VALUES (?, ?, 0, ?, ?)',
      ).run(id, 'c', at, at);
      const stored = `del-${id}.txt`;
      mkdirSync(ctx.server.deps.filesDir, { recursive: true });
      writeFileSync(join(ctx.server.deps.filesDir, stored), 'x');
      db.prepare(
        `INSERT INTO attachments (org_id, task_id, file_name, extension, content_type, size, completed_bytes, stored_name, created_by, created_time)
         VALUES (?, ?, 'a.txt', 'txt', 'text/plain', 1, 1, ?, ?, ?)`,
      ).run(ctx.server.orgs.acme, id, stored, ctx.server.users.alice, at);
    }
    db.prepare(
      `INSERT INTO timers (org_id, task_id, user_id, state, start_time, created_time, modified_time) VALUES (?, ?, ?, 'STOPPED', ?, ?, ?)`,
    ).run(ctx.server.orgs.acme, t.taskId, ctx.server.users.alice, at, at, at);
    const before = row(t.taskId).modified_time;

    expect(await ctx.alice.ops.deleteTask({ path: { taskId: t.taskId } })).toEqual({});
    for (const id of [t.taskId, sub.taskId]) {
      expect(row(id)).toMatchObject({ deleted: 1, deleted_by: ctx.server.users.alice });
      expect(row(id).deleted_time).toBeGreaterThan(0);
      expect((await rejection(ctx.alice.ops.getTaskById({ path: { taskId: id } }))).status).toBe(
        404,
      );
      expect(existsSync(join(ctx.server.deps.filesDir, `del-${id}.txt`))).toBe(false);
    }
    expect(row(t.taskId).modified_time).toBeGreaterThan(before);
    const count = (table: string) =>
      (
        db
          .prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE task_id IN (?, ?)`)
          .get(t.taskId, sub.taskId) as { n: number }
      ).n;
    expect([count('checklist_items'), count('attachments'), count('timers')]).toEqual([0, 0, 0]);
    expect((await rejection(ctx.alice.ops.deleteTask({ path: { taskId: t.taskId } }))).status).toBe(
      404,
    );
  });
});

describe('Personal Tasks: the list', () => {
  const ctx = suiteServer({
    alice: signedIn('alice', 'acme'),
    bob: signedIn('bob', 'acme'),
    raw: (server) => rawAs(server, 'alice', 'acme'),
  });
  const ids: Record<string, number> = {};
  let t0: number;

  beforeAll(async () => {
    t0 = ctx.server.deps.clock.now();
    const { alice: a, bob: b } = ctx.server.users;
    const make = async (
      c: ApiClient,
      key: string,
      body: Parameters<ApiClient['ops']['createTask']>[0]['body'],
    ) => {
      ids[key] = (await c.ops.createTask({ body })).taskId;
    };
    await make(ctx.alice, 'alpha', {
      taskTitle: 'Alpha report',
      status: 'To Do',
      priority: 'High',
      tags: ['Red'],
      dueDate: iso(t0 - DAY),
    });
    await make(ctx.alice, 'bravo', {
      taskTitle: 'Bravo',
      status: 'Done',
      priority: 'Low',
      tags: ['blue'],
      dueDate: iso(t0 - DAY),
    });
    await make(ctx.alice, 'charlie', {
      taskTitle: 'Charlie report',
      status: 'In Progress',
      priority: 'High',
      owners: [b],
      dueDate: iso(t0 + 2 * DAY),
      startDate: iso(Date.UTC(2024, 0, 15, 10)),
    });
    await make(ctx.alice, 'delta', {
      taskTitle: 'delta 100%_done',
      priority: 'Medium',
      owners: [a, b],
      tags: ['red', 'green'],
    });
    await make(ctx.bob, 'echo', {
      taskTitle: 'Echo (bob, owned by alice)',
      owners: [a],
      dueDate: iso(t0 + 10 * DAY),
    });
    await make(ctx.bob, 'foxtrot', { taskTitle: 'Foxtrot (bob only)' });
    // Not in the personal list: a subtask and a project task.
    await ctx.alice.ops.createPersonalSubtask({
      path: { parentTaskId: ids.alpha! },
      body: { taskTitle: 'Alpha sub' },
    });
    const space = await ctx.alice.ops.createSpace({ body: { spaceName: 'S' } });
    const project = await ctx.alice.ops.createProject({
      path: { spaceId: space.spaceId },
      body: { projectName: 'P' },
    });
    await ctx.alice.ops.createProjectTask({
      path: { spaceId: space.spaceId, projectId: project.projectId },
      body: { taskTitle: 'Alpha project task' },
    });
  });

  type Query = NonNullable<Parameters<ApiClient['ops']['getAll']>[0]>['query'];
  const titles = async (query: Query, c: ApiClient = ctx.alice) =>
    (await c.ops.getAll({ query })).content.map((t) => t.taskTitle);
  const keys = async (query: Query) => {
    const page = await ctx.alice.ops.getAll({ query: { size: 100, ...query } });
    return page.content
      .map((t) => Object.entries(ids).find(([, id]) => id === t.taskId)?.[0])
      .sort();
  };

  it('lists the top-level personal tasks the caller created or owns, by id by default', async () => {
    expect(await keys({})).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo']);
    expect((await ctx.bob.ops.getAll()).content.map((t) => t.taskId).sort()).toEqual(
      [ids.charlie, ids.delta, ids.echo, ids.foxtrot].sort(),
    );
    const page = await ctx.alice.ops.getAll();
    expect(page.content.map((t) => t.taskId)).toEqual([
      ids.alpha,
      ids.bravo,
      ids.charlie,
      ids.delta,
      ids.echo,
    ]);
  });

  it('pages the Spring way, clamps size to 100 and refuses bad paging', async () => {
    const p1 = await ctx.alice.ops.getAll({ query: { page: 1, size: 2 } });
    expect(p1).toMatchObject({
      totalElements: 5,
      totalPages: 3,
      size: 2,
      number: 1,
      first: false,
      last: false,
      numberOfElements: 2,
      empty: false,
    });
    expect(p1.content.map((t) => t.taskId)).toEqual([ids.charlie, ids.delta]);
    const last = await ctx.alice.ops.getAll({ query: { page: 2, size: 2 } });
    expect(last).toMatchObject({ last: true, numberOfElements: 1 });
    const past = await ctx.alice.ops.getAll({ query: { page: 9, size: 2 } });
    expect(past).toMatchObject({ empty: true, content: [], totalElements: 5 });
    expect((await ctx.alice.ops.getAll({ query: { size: 500 } })).size).toBe(100);
    expect((await ctx.alice.ops.getAll()).size).toBe(20);
    expect((await ctx.raw('GET', '/v1/tasks?size=0')).fields).toContain('size');
    expect((await ctx.raw('GET', '/v1/tasks?page=-1')).fields).toContain('page');
  });

  it('sorts by several keys, nulls last, and refuses an unknown sort key', async () => {
    expect(await titles({ sort: ['taskTitle,desc'] })).toEqual([
      'Echo (bob, owned by alice)',
      'delta 100%_done',
      'Charlie report',
      'Bravo',
      'Alpha report',
    ]);
    const byPriority = await ctx.alice.ops.getAll({
      query: { sort: ['priority,asc', 'taskTitle,desc'] },
    });
    expect(byPriority.content.map((t) => t.taskTitle)).toEqual([
      'Charlie report',
      'Alpha report',
      'Bravo',
      'delta 100%_done',
      'Echo (bob, owned by alice)',
    ]);
    expect(await titles({ sort: ['dueDate,desc'] })).toEqual([
      'Echo (bob, owned by alice)',
      'Charlie report',
      'Alpha report',
      'Bravo',
      'delta 100%_done',
    ]);
    const bad = await ctx.raw('GET', '/v1/tasks?sort=owner,asc');
    expect(bad.status).toBe(400);
    expect(bad.fields).toContain('sort');
    await expect(ctx.alice.ops.getAll({ query: { sort: ['nope'] } })).rejects.toMatchObject({
      kind: 'validation',
    });
  });

  it('filters by title, status, priority, tags, creators and owners', async () => {
    expect(await keys({ title: 'REPORT' })).toEqual(['alpha', 'charlie']);
    expect(await keys({ title: '100%_' })).toEqual(['delta']);
    expect(await keys({ status: ['done', 'in progress'] })).toEqual(['bravo', 'charlie']);
    expect(await keys({ priority: ['high'] })).toEqual(['alpha', 'charlie']);
    expect(await keys({ tags: ['RED'] })).toEqual(['alpha', 'delta']);
    expect(await keys({ tags: ['green', 'blue'] })).toEqual(['bravo', 'delta']);
    expect(await keys({ creators: [ctx.server.users.bob] })).toEqual(['echo']);
    expect(await keys({ owners: [ctx.server.users.bob] })).toEqual(['charlie', 'delta']);
    expect(await keys({ owners: [ctx.server.users.alice], priority: ['Medium'] })).toEqual([
      'delta',
    ]);
  });

  it('filters by dates (same UTC day) and by overdue, pending, upcoming and dueDateSet', async () => {
    expect(await keys({ startDate: '2024-01-15' })).toEqual(['charlie']);
    expect(await keys({ dueDate: iso(t0 - DAY) })).toEqual(['alpha', 'bravo']);
    expect(await keys({ createdTime: iso(t0) })).toHaveLength(5);
    expect(await keys({ modifiedTime: '2001-01-01' })).toEqual([]);
    expect(await keys({ overdue: true })).toEqual(['alpha']);
    expect(await keys({ overdue: false })).toEqual(['bravo', 'charlie', 'delta', 'echo']);
    expect(await keys({ pending: false })).toEqual(['bravo']);
    expect(await keys({ pending: true })).toEqual(['alpha', 'charlie', 'delta', 'echo']);
    expect(await keys({ upcoming: true })).toEqual(['charlie']);
    expect(await keys({ dueDateSet: false })).toEqual(['delta']);
    expect(await keys({ dueDateSet: true, pending: true })).toEqual(['alpha', 'charlie', 'echo']);
    expect((await ctx.raw('GET', '/v1/tasks?dueDate=yesterday')).fields).toContain('dueDate');
    expect((await ctx.raw('GET', '/v1/tasks?overdue=maybe')).fields).toContain('overdue');
  });

  it('refuses a customFields parameter that is not valid JSON conditions', async () => {
    const bad = await ctx.raw(
      'GET',
      `/v1/tasks?customFields=${encodeURIComponent('[{"field":"x"')}`,
    );
    expect(bad.status).toBe(400);
    expect(bad.fields).toContain('customFields');
    const unknown = await ctx.raw(
      'GET',
      `/v1/tasks?customFields=${encodeURIComponent('[{"field":"x","condition":"LIKE","value":["a"]}]')}`,
    );
    expect(unknown.fields).toContain('customFields');
    // Personal tasks have no custom fields: ISEMPTY holds for all, IS for none.
    expect(
      await keys({
        customFields: JSON.stringify([{ field: 'Client', condition: 'ISEMPTY', value: [] }]),
      }),
    ).toHaveLength(5);
    expect(
      await keys({
        customFields: JSON.stringify([{ field: 'Client', condition: 'IS', value: ['x'] }]),
      }),
    ).toEqual([]);
  });
});
