/**
 * Spaces: the DTO (members, space-level custom fields), org-wide visibility, full-state
 * update, org scoping, and the delete cascade to projects and their tasks.
 */
import { describe, expect, it } from 'vitest';
import { insertCustomField, rawAs, rejection } from '../support/fixtures-work';
import { aliceBobCarol, suiteServer } from './support';

describe('Spaces', () => {
  const ctx = suiteServer({ ...aliceBobCarol, raw: (server) => rawAs(server, 'alice', 'acme') });

  it('creates a space with its creator as an Admin member', async () => {
    const s = await ctx.alice.ops.createSpace({
      body: { spaceName: ' Marketing ', description: 'All of it', color: '#ff0000' },
    });
    expect(s).toMatchObject({
      tenantId: ctx.server.orgs.acme,
      spaceName: 'Marketing',
      description: 'All of it',
      color: '#ff0000',
      spaceType: 'PUBLIC',
      deleted: false,
      archived: false,
      customFields: [],
    });
    expect(s.createdBy?.userId).toBe(ctx.server.users.alice);
    expect(s.spaceMembers).toHaveLength(1);
    expect(s.spaceMembers?.[0]).toMatchObject({
      spaceId: s.spaceId,
      user: { userId: ctx.server.users.alice, email: 'alice@example.com' },
      spaceRole: { spaceRoleName: 'Admin' },
      joined: true,
      hidden: false,
    });
  });

  it('lists every space of the org to every member, none of another org', async () => {
    const a = await ctx.alice.ops.createSpace({ body: { spaceName: 'A-list' } });
    const b = await ctx.bob.ops.createSpace({ body: { spaceName: 'B-list' } });
    const g = await ctx.carol.ops.createSpace({ body: { spaceName: 'Globex space' } });
    const seenByBob = (await ctx.bob.ops.getAllSpaces()).map((s) => s.spaceId);
    expect(seenByBob).toEqual(expect.arrayContaining([a.spaceId, b.spaceId]));
    expect(seenByBob).not.toContain(g.spaceId);
    expect((await ctx.alice.ops.getSpaceById({ path: { spaceId: b.spaceId } })).spaceName).toBe(
      'B-list',
    );
    expect(
      (await rejection(ctx.alice.ops.getSpaceById({ path: { spaceId: g.spaceId } }))).status,
    ).toBe(404);
    expect(
      (
        await rejection(
          ctx.carol.ops.updateSpace({ path: { spaceId: a.spaceId }, body: { spaceName: 'x' } }),
        )
      ).status,
    ).toBe(404);
    expect(
      (await rejection(ctx.carol.ops.deleteSpace({ path: { spaceId: a.spaceId } }))).status,
    ).toBe(404);
    expect((await ctx.raw('GET', '/v1/spaces/one')).status).toBe(400);
  });

  it('shows the space-level custom field definitions with their options', async () => {
    const s = await ctx.alice.ops.createSpace({ body: { spaceName: 'Fields' } });
    const p = await ctx.alice.ops.createProject({
      path: { spaceId: s.spaceId },
      body: { projectName: 'P' },
    });
    const now = ctx.server.deps.clock.now();
    const stage = insertCustomField(ctx.server.deps.db, {
      orgId: ctx.server.orgs.acme,
      createdBy: ctx.server.users.alice,
      name: 'Stage',
      type: 'DROPDOWN',
      spaceId: s.spaceId,
      options: ['Design', 'Build'],
      now,
    });
    insertCustomField(ctx.server.deps.db, {
      orgId: ctx.server.orgs.acme,
      createdBy: ctx.server.users.alice,
      name: 'Budget',
      type: 'NUMBER',
      spaceId: s.spaceId,
      projectId: p.projectId,
      now,
    });
    const got = await ctx.alice.ops.getSpaceById({ path: { spaceId: s.spaceId } });
    expect(got.customFields).toHaveLength(1);
    expect(got.customFields?.[0]).toMatchObject({
      taskCustomFieldId: stage.fieldId,
      fieldName: 'Stage',
      fieldType: 'DROPDOWN',
      spaceId: s.spaceId,
      projectId: null,
      fieldValue: [],
      customFieldOption: [
        { optionId: stage.options.Design, optionName: 'Design', taskCustomFieldId: stage.fieldId },
        { optionId: stage.options.Build, optionName: 'Build' },
      ],
    });
  });

  it('updates name, description and type as the full state', async () => {
    const s = await ctx.alice.ops.createSpace({
      body: { spaceName: 'Old', description: 'd', spaceType: 'PRIVATE', color: '#123456' },
    });
    const u = await ctx.bob.ops.updateSpace({
      path: { spaceId: s.spaceId },
      body: { spaceName: 'New' },
    });
    expect(u).toMatchObject({
      spaceName: 'New',
      description: '',
      spaceType: 'PUBLIC',
      color: '#123456',
    });
    expect(u.modifiedBy?.userId).toBe(ctx.server.users.bob);
    const blank = await ctx.raw('PUT', `/v1/spaces/${s.spaceId}`, { spaceName: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.fields).toContain('spaceName');
    expect((await ctx.raw('POST', '/v1/spaces', { description: 'no name' })).fields).toContain(
      'spaceName',
    );
    expect((await ctx.alice.ops.getSpaceById({ path: { spaceId: s.spaceId } })).spaceName).toBe(
      'New',
    );
  });

  it('deletes the space softly with its projects and their tasks', async () => {
    const s = await ctx.alice.ops.createSpace({ body: { spaceName: 'Doomed' } });
    const p = await ctx.alice.ops.createProject({
      path: { spaceId: s.spaceId },
      body: { projectName: 'P' },
    });
    const t = await ctx.alice.createProjectTaskResolved({
      path: { spaceId: s.spaceId, projectId: p.projectId },
      body: { taskTitle: 'T' },
    });
    const sub = await ctx.alice.ops.createProjectSubtask({
      path: { spaceId: s.spaceId, projectId: p.projectId, taskId: t.taskId },
      body: { taskTitle: 'S' },
    });
    const since = ctx.server.deps.clock.now();
    expect(await ctx.alice.ops.deleteSpace({ path: { spaceId: s.spaceId } })).toEqual({});
    expect(
      (await rejection(ctx.alice.ops.getSpaceById({ path: { spaceId: s.spaceId } }))).status,
    ).toBe(404);
    expect((await ctx.alice.ops.getAllSpaces()).map((x) => x.spaceId)).not.toContain(s.spaceId);
    expect(
      (
        await rejection(
          ctx.alice.ops.getProjectById({ path: { spaceId: s.spaceId, projectId: p.projectId } }),
        )
      ).status,
    ).toBe(404);
    for (const id of [t.taskId, sub.taskId])
      expect((await rejection(ctx.alice.ops.getTaskById({ path: { taskId: id } }))).status).toBe(
        404,
      );
    const db = ctx.server.deps.db;
    expect(
      db.prepare('SELECT deleted, deleted_by FROM spaces WHERE space_id = ?').get(s.spaceId),
    ).toEqual({ deleted: 1, deleted_by: ctx.server.users.alice });
    expect(
      db.prepare('SELECT deleted FROM projects WHERE project_id = ?').get(p.projectId),
    ).toEqual({ deleted: 1 });
    // The tombstones reach a delta pull.
    const tasks = await ctx.alice.ops.bulkTasks({ query: { modifiedSince: since } });
    expect(
      tasks.items
        .filter((i) => i.deleted)
        .map((i) => i.taskId)
        .sort(),
    ).toEqual([t.taskId, sub.taskId].sort());
    const projects = await ctx.alice.ops.bulkProjects({ query: { modifiedSince: since } });
    expect(projects.items.map((i) => [i.projectId, i.deleted])).toEqual([[p.projectId, true]]);
    expect(
      (await rejection(ctx.alice.ops.deleteSpace({ path: { spaceId: s.spaceId } }))).status,
    ).toBe(404);
  });
});
