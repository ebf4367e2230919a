/**
 * Projects: the DTO (vocabulary objects with defaults, tags, members with the creator always
 * in, contact, spaceName, custom fields of the project and its space), completion by status
 * category, field errors, path consistency, the list with every filter, and the cascade.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProjectCreateRequest } from '../../shared/api';
import type { ApiClient } from '../../sync/api';
import { clientFor } from '../support/client';
import {
  DAY,
  insertContact,
  insertCustomField,
  iso,
  rawAs,
  rejection,
} from '../support/fixtures-work';
import { aliceBobCarol, signedIn, suiteServer } from './support';

describe('Projects', () => {
  const ctx = suiteServer({ ...aliceBobCarol, raw: (server) => rawAs(server, 'alice', 'acme') });
  let spaceId: number;

  beforeAll(async () => {
    spaceId = (await ctx.alice.ops.createSpace({ body: { spaceName: 'Work' } })).spaceId;
  });

  it('creates a project with the org defaults, the creator as a member and no contact', async () => {
    const p = await ctx.alice.ops.createProject({
      path: { spaceId },
      body: { projectName: 'Launch' },
    });
    expect(p).toMatchObject({
      tenantId: ctx.server.orgs.acme,
      spaceId,
      projectName: 'Launch',
      description: '',
      completion: 0,
      public: true,
      deleted: false,
      archived: false,
      overdue: false,
      contact: null,
      spaceName: 'Work',
      projectStatus: {
        projectStatusName: 'Not Started',
        projectStatusCategory: 'NOT_STARTED',
        default: true,
      },
      projectPriority: { priorityLabel: 'Medium', default: true },
      projectHealth: { healthLabel: 'On Track', default: true },
      projectTags: [],
      customFields: [],
    });
    expect(p.completedTime ?? null).toBeNull();
    expect(p.projectMembers?.map((m) => m.user?.userId)).toEqual([ctx.server.users.alice]);
    expect(p.createdBy?.userId).toBe(ctx.server.users.alice);
  });

  it('takes names without case, tags, members and a contact of the org', async () => {
    const contactId = insertContact(
      ctx.server.deps.db,
      ctx.server.orgs.acme,
      { contactName: 'Jane Roe', email: 'jane@client.test', city: 'Oslo' },
      ctx.server.deps.clock.now(),
    );
    const p = await ctx.alice.ops.createProject({
      path: { spaceId },
      body: {
        projectName: 'Client work',
        description: 'for Jane',
        status: 'active',
        priority: 'HIGH',
        health: 'at risk',
        tags: ['Alpha', 'alpha', 'Beta'],
        members: [ctx.server.users.bob],
        public: false,
        contactId,
        startDate: '2030-01-01T00:00:00Z',
        dueDate: '2030-02-01T00:00:00Z',
        completion: 25,
      },
    });
    expect(p).toMatchObject({
      projectStatus: { projectStatusName: 'Active', projectStatusCategory: 'ACTIVE' },
      projectPriority: { priorityLabel: 'High' },
      projectHealth: { healthLabel: 'At Risk' },
      public: false,
      completion: 25,
      startDate: '2030-01-01T00:00:00.000Z',
      dueDate: '2030-02-01T00:00:00.000Z',
      contact: {
        contactId,
        contactName: 'Jane Roe',
        email: 'jane@client.test',
        city: 'Oslo',
        tenantId: ctx.server.orgs.acme,
      },
    });
    expect(p.projectTags?.map((t) => t.tagName)).toEqual(['Alpha', 'Beta']);
    expect(p.projectMembers?.map((m) => [m.user?.userId, m.role?.projectRoleName])).toEqual([
      [ctx.server.users.alice, 'Owner'],
      [ctx.server.users.bob, 'Member'],
    ]);
    expect(p.projectMembers?.[1]?.invitedBy?.userId).toBe(ctx.server.users.alice);
  });

  it('refuses unknown vocabulary, non-members and foreign contacts with field errors', async () => {
    const globexContact = insertContact(
      ctx.server.deps.db,
      ctx.server.orgs.globex,
      { contactName: 'G' },
      ctx.server.deps.clock.now(),
    );
    const cases: [ProjectCreateRequest, string][] = [
      [{ projectName: 'x', status: 'Sleeping' }, 'status'],
      [{ projectName: 'x', priority: 'Meh' }, 'priority'],
      [{ projectName: 'x', health: 'Sick' }, 'health'],
      [{ projectName: 'x', members: [ctx.server.users.carol] }, 'members'],
      [{ projectName: 'x', contactId: globexContact }, 'contactId'],
    ];
    const before = (await ctx.alice.ops.getAll_2({ path: { spaceId } })).totalElements;
    for (const [body, field] of cases) {
      const e = await rejection(ctx.alice.ops.createProject({ path: { spaceId }, body }));
      expect(e.status).toBe(400);
      expect(e.fieldErrors.map((f) => f.field)).toEqual([field]);
    }
    expect(
      (await ctx.raw('POST', `/v1/spaces/${spaceId}/projects`, { projectName: ' ' })).fields,
    ).toContain('projectName');
    expect((await ctx.alice.ops.getAll_2({ path: { spaceId } })).totalElements).toBe(before);
  });

  it('is complete in a COMPLETED status: completedTime set, never overdue; leaving clears it', async () => {
    const p = await ctx.alice.ops.createProject({
      path: { spaceId },
      body: { projectName: 'Old', dueDate: iso(ctx.server.deps.clock.now() - DAY) },
    });
    expect(p.overdue).toBe(true);
    const done = await ctx.alice.ops.updateProject({
      path: { spaceId, projectId: p.projectId },
      body: {
        projectName: 'Old',
        status: 'completed',
        dueDate: iso(ctx.server.deps.clock.now() - DAY),
      },
    });
    expect(done).toMatchObject({
      overdue: false,
      projectStatus: { projectStatusCategory: 'COMPLETED' },
    });
    expect(done.completedTime).toBeTruthy();
    const again = await ctx.alice.ops.updateProject({
      path: { spaceId, projectId: p.projectId },
      body: { projectName: 'Old', status: 'Completed' },
    });
    expect(again.completedTime).toBe(done.completedTime);
    const reopened = await ctx.alice.ops.updateProject({
      path: { spaceId, projectId: p.projectId },
      body: { projectName: 'Old', status: 'On Hold' },
    });
    expect(reopened.completedTime ?? null).toBeNull();
  });

  it('updates as the full state; the creator stays a member; tags and members are replaced', async () => {
    const p = await ctx.alice.ops.createProject({
      path: { spaceId },
      body: {
        projectName: 'Keep',
        tags: ['one', 'two'],
        members: [ctx.server.users.bob],
        priority: 'Low',
        public: false,
      },
    });
    const u = await ctx.bob.ops.updateProject({
      path: { spaceId, projectId: p.projectId },
      body: { projectName: 'Kept', tags: ['TWO', 'three'] },
    });
    expect(u.projectMembers?.map((m) => m.user?.userId)).toEqual([ctx.server.users.alice]);
    expect(u.projectTags?.map((t) => t.tagName)).toEqual(['two', 'three']);
    // The kept tag keeps its id.
    expect(u.projectTags?.[0]?.projectTagId).toBe(
      p.projectTags?.find((t) => t.tagName === 'two')?.projectTagId,
    );
    expect(u).toMatchObject({
      projectName: 'Kept',
      public: true,
      projectPriority: { priorityLabel: 'Medium' },
      description: '',
    });
    expect(u.modifiedBy?.userId).toBe(ctx.server.users.bob);
    expect(Date.parse(u.modifiedTime ?? '')).toBeGreaterThan(Date.parse(p.modifiedTime ?? '') - 1);
  });

  it('404s for another org, another space and a deleted project', async () => {
    const p = await ctx.alice.ops.createProject({
      path: { spaceId },
      body: { projectName: 'Scoped' },
    });
    const other = (await ctx.alice.ops.createSpace({ body: { spaceName: 'Other' } })).spaceId;
    const globexSpace = (await ctx.carol.ops.createSpace({ body: { spaceName: 'G' } })).spaceId;
    const wrong = [
      ctx.alice.ops.getProjectById({ path: { spaceId: other, projectId: p.projectId } }),
      ctx.alice.ops.updateProject({
        path: { spaceId: other, projectId: p.projectId },
        body: { projectName: 'x' },
      }),
      ctx.alice.ops.deleteProject({ path: { spaceId: other, projectId: p.projectId } }),
      ctx.carol.ops.getProjectById({ path: { spaceId, projectId: p.projectId } }),
      ctx.carol.ops.getProjectById({ path: { spaceId: globexSpace, projectId: p.projectId } }),
      ctx.carol.ops.getAll_2({ path: { spaceId } }),
      ctx.carol.ops.createProject({ path: { spaceId }, body: { projectName: 'x' } }),
      ctx.alice.ops.getProjectById({ path: { spaceId, projectId: 777_777 } }),
    ];
    for (const call of wrong) expect((await rejection(call)).status).toBe(404);
    expect(
      (await ctx.bob.ops.getProjectById({ path: { spaceId, projectId: p.projectId } })).projectName,
    ).toBe('Scoped');
  });

  it('shows the custom fields of the project and of its space', async () => {
    const s = await ctx.alice.ops.createSpace({ body: { spaceName: 'CF' } });
    const p1 = await ctx.alice.ops.createProject({
      path: { spaceId: s.spaceId },
      body: { projectName: 'P1' },
    });
    const p2 = await ctx.alice.ops.createProject({
      path: { spaceId: s.spaceId },
      body: { projectName: 'P2' },
    });
    const base = {
      orgId: ctx.server.orgs.acme,
      createdBy: ctx.server.users.alice,
      spaceId: s.spaceId,
      now: ctx.server.deps.clock.now(),
    };
    const spaceField = insertCustomField(ctx.server.deps.db, {
      ...base,
      name: 'Client',
      type: 'TEXT',
    });
    const p1Field = insertCustomField(ctx.server.deps.db, {
      ...base,
      name: 'Due',
      type: 'DATE',
      projectId: p1.projectId,
    });
    insertCustomField(ctx.server.deps.db, {
      ...base,
      name: 'Other',
      type: 'TEXT',
      projectId: p2.projectId,
    });
    const got = await ctx.alice.ops.getProjectById({
      path: { spaceId: s.spaceId, projectId: p1.projectId },
    });
    expect(got.customFields?.map((f) => [f.taskCustomFieldId, f.fieldName, f.fieldType])).toEqual([
      [spaceField.fieldId, 'Client', 'TEXT'],
      [p1Field.fieldId, 'Due', 'DATE'],
    ]);
  });

  it('deletes softly with its tasks and subtasks', async () => {
    const p = await ctx.alice.ops.createProject({
      path: { spaceId },
      body: { projectName: 'Gone' },
    });
    const path = { spaceId, projectId: p.projectId };
    const t = await ctx.alice.createProjectTaskResolved({ path, body: { taskTitle: 'T' } });
    const s = await ctx.alice.ops.createProjectSubtask({
      path: { ...path, taskId: t.taskId },
      body: { taskTitle: 'S' },
    });
    const since = ctx.server.deps.clock.now();
    expect(await ctx.alice.ops.deleteProject({ path })).toEqual({});
    expect((await rejection(ctx.alice.ops.getProjectById({ path }))).status).toBe(404);
    expect((await rejection(ctx.alice.ops.getAllTasksInProject_1({ path }))).status).toBe(404);
    const rows = ctx.server.deps.db
      .prepare('SELECT task_id, deleted FROM tasks WHERE project_id = ? ORDER BY task_id')
      .all(p.projectId);
    expect(rows).toEqual([
      { task_id: t.taskId, deleted: 1 },
      { task_id: s.taskId, deleted: 1 },
    ]);
    const delta = await ctx.alice.ops.bulkProjects({ query: { modifiedSince: since } });
    expect(delta.items.find((i) => i.projectId === p.projectId)).toMatchObject({ deleted: true });
    expect(delta.items.find((i) => i.projectId === p.projectId)?.deletedTime).toBeTruthy();
    expect(
      (await ctx.alice.ops.getAll_2({ path: { spaceId } })).content.map((x) => x.projectId),
    ).not.toContain(p.projectId);
  });
});

describe('Projects: the list', () => {
  const ctx = suiteServer({
    alice: signedIn('alice', 'acme'),
    raw: (server) => rawAs(server, 'alice', 'acme'),
  });
  let spaceId: number;
  const ids: Record<string, number> = {};
  let t0: number;

  beforeAll(async () => {
    const bob = await clientFor(ctx.server, 'bob', 'acme');
    t0 = ctx.server.deps.clock.now();
    spaceId = (await ctx.alice.ops.createSpace({ body: { spaceName: 'L' } })).spaceId;
    const other = (await ctx.alice.ops.createSpace({ body: { spaceName: 'Elsewhere' } })).spaceId;
    await ctx.alice.ops.createProject({
      path: { spaceId: other },
      body: { projectName: 'Alpha elsewhere' },
    });
    const make = async (
      c: ApiClient,
      key: string,
      body: Parameters<ApiClient['ops']['createProject']>[0]['body'],
    ) => {
      ids[key] = (await c.ops.createProject({ path: { spaceId }, body })).projectId;
    };
    await make(ctx.alice, 'alpha', {
      projectName: 'Alpha site',
      status: 'Active',
      priority: 'High',
      health: 'Off Track',
      tags: ['web'],
      dueDate: iso(t0 - DAY),
    });
    await make(ctx.alice, 'beta', {
      projectName: 'Beta app',
      status: 'Completed',
      priority: 'Low',
      tags: ['Mobile', 'web'],
      dueDate: iso(t0 - DAY),
      public: false,
    });
    await make(bob, 'gamma', {
      projectName: 'Gamma site',
      members: [ctx.server.users.alice],
      dueDate: iso(t0 + 3 * DAY),
      startDate: '2024-05-05T08:00:00Z',
    });
    await make(bob, 'delta', { projectName: 'Delta', priority: 'high', health: 'At Risk' });
    await bob.close();
  });

  type Query = NonNullable<Parameters<ApiClient['ops']['getAll_2']>[0]['query']>;
  const keys = async (query: Query) => {
    const page = await ctx.alice.ops.getAll_2({
      path: { spaceId },
      query: { size: 100, ...query },
    });
    return page.content
      .map((p) => Object.entries(ids).find(([, id]) => id === p.projectId)?.[0])
      .sort();
  };

  it('lists the projects of the space only, paged and sorted', async () => {
    const page = await ctx.alice.ops.getAll_2({
      path: { spaceId },
      query: { size: 3, sort: ['projectName,desc'] },
    });
    expect(page).toMatchObject({
      totalElements: 4,
      totalPages: 2,
      number: 0,
      first: true,
      last: false,
      numberOfElements: 3,
    });
    expect(page.content.map((p) => p.projectName)).toEqual(['Gamma site', 'Delta', 'Beta app']);
    const byDue = await ctx.alice.ops.getAll_2({
      path: { spaceId },
      query: { sort: ['dueDate,asc', 'projectId,desc'] },
    });
    expect(byDue.content.map((p) => p.projectName)).toEqual([
      'Beta app',
      'Alpha site',
      'Gamma site',
      'Delta',
    ]);
    const bad = await ctx.raw('GET', `/v1/spaces/${spaceId}/projects?sort=status,asc`);
    expect(bad.status).toBe(400);
    expect(bad.fields).toContain('sort');
  });

  it('filters by title, status, priority, health, tags, creators, members and isPublic', async () => {
    expect(await keys({ title: 'SITE' })).toEqual(['alpha', 'gamma']);
    expect(await keys({ status: ['not started'] })).toEqual(['delta', 'gamma']);
    expect(await keys({ status: ['Active', 'Completed'] })).toEqual(['alpha', 'beta']);
    expect(await keys({ priority: ['HIGH'] })).toEqual(['alpha', 'delta']);
    expect(await keys({ health: ['at risk', 'off track'] })).toEqual(['alpha', 'delta']);
    expect(await keys({ tags: ['WEB'] })).toEqual(['alpha', 'beta']);
    expect(await keys({ tags: ['mobile'] })).toEqual(['beta']);
    expect(await keys({ creators: [ctx.server.users.bob] })).toEqual(['delta', 'gamma']);
    expect(await keys({ members: [ctx.server.users.alice] })).toEqual(['alpha', 'beta', 'gamma']);
    expect(await keys({ isPublic: false })).toEqual(['beta']);
    expect(await keys({ isPublic: true })).toEqual(['alpha', 'delta', 'gamma']);
  });

  it('filters by dates and by overdue, pending, upcoming and dueDateSet', async () => {
    expect(await keys({ overdue: true })).toEqual(['alpha']);
    expect(await keys({ pending: false })).toEqual(['beta']);
    expect(await keys({ upcoming: true })).toEqual(['gamma']);
    expect(await keys({ dueDateSet: false })).toEqual(['delta']);
    expect(await keys({ dueDate: iso(t0 - DAY) })).toEqual(['alpha', 'beta']);
    expect(await keys({ startDate: '2024-05-05' })).toEqual(['gamma']);
    expect(await keys({ createdTime: iso(t0) })).toHaveLength(4);
    expect(await keys({ modifiedTime: '1999-12-31' })).toEqual([]);
    expect((await ctx.raw('GET', `/v1/spaces/${spaceId}/projects?isPublic=yes`)).fields).toContain(
      'isPublic',
    );
  });
});
