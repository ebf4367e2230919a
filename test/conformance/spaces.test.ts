/**
 * Spaces: the DTO (members, space-level custom fields), org-wide visibility, full-state
 * update, org scoping, and the delete cascade to projects and their tasks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../sync/api';
import { clientFor } from '../support/client';
import { insertCustomField, rawAs, rejection } from '../support/fixtures-work';
import { startTestServer, type TestServer } from '../support/server';

describe('Spaces', () => {
  let server: TestServer;
  let alice: ApiClient;
  let bob: ApiClient;
  let carol: ApiClient;
  let raw: Awaited<ReturnType<typeof rawAs>>;

  beforeAll(async () => {
    server = await startTestServer();
    alice = await clientFor(server, 'alice', 'acme');
    bob = await clientFor(server, 'bob', 'acme');
    carol = await clientFor(server, 'carol', 'globex');
    raw = await rawAs(server, 'alice', 'acme');
  });
  afterAll(async () => {
    await Promise.all([alice.close(), bob.close(), carol.close()]);
    await server.close();
  });

  it('creates a space with its creator as an Admin member', async () => {
    const s = await alice.ops.createSpace({
      body: { spaceName: ' Marketing ', description: 'All of it', color: '#ff0000' },
    });
    expect(s).toMatchObject({
      tenantId: server.orgs.acme,
      spaceName: 'Marketing',
      description: 'All of it',
      color: '#ff0000',
      spaceType: 'PUBLIC',
      deleted: false,
      archived: false,
      customFields: [],
    });
    expect(s.createdBy?.userId).toBe(server.users.alice);
    expect(s.spaceMembers).toHaveLength(1);
    expect(s.spaceMembers?.[0]).toMatchObject({
      spaceId: s.spaceId,
      user: { userId: server.users.alice, email: 'alice@example.com' },
      spaceRole: { spaceRoleName: 'Admin' },
      joined: true,
      hidden: false,
    });
  });

  it('lists every space of the org to every member, none of another org', async () => {
    const a = await alice.ops.createSpace({ body: { spaceName: 'A-list' } });
    const b = await bob.ops.createSpace({ body: { spaceName: 'B-list' } });
    const g = await carol.ops.createSpace({ body: { spaceName: 'Globex space' } });
    const seenByBob = (await bob.ops.getAllSpaces()).map((s) => s.spaceId);
    expect(seenByBob).toEqual(expect.arrayContaining([a.spaceId, b.spaceId]));
    expect(seenByBob).not.toContain(g.spaceId);
    expect((await alice.ops.getSpaceById({ path: { spaceId: b.spaceId } })).spaceName).toBe(
      'B-list',
    );
    expect((await rejection(alice.ops.getSpaceById({ path: { spaceId: g.spaceId } }))).status).toBe(
      404,
    );
    expect(
      (
        await rejection(
          carol.ops.updateSpace({ path: { spaceId: a.spaceId }, body: { spaceName: 'x' } }),
        )
      ).status,
    ).toBe(404);
    expect((await rejection(carol.ops.deleteSpace({ path: { spaceId: a.spaceId } }))).status).toBe(
      404,
    );
    expect((await raw('GET', '/v1/spaces/one')).status).toBe(400);
  });

  it('shows the space-level custom field definitions with their options', async () => {
    const s = await alice.ops.createSpace({ body: { spaceName: 'Fields' } });
    const p = await alice.ops.createProject({
      path: { spaceId: s.spaceId },
      body: { projectName: 'P' },
    });
    const now = server.deps.clock.now();
    const stage = insertCustomField(server.deps.db, {
      orgId: server.orgs.acme,
      createdBy: server.users.alice,
      name: 'Stage',
      type: 'DROPDOWN',
      spaceId: s.spaceId,
      options: ['Design', 'Build'],
      now,
    });
    insertCustomField(server.deps.db, {
      orgId: server.orgs.acme,
      createdBy: server.users.alice,
      name: 'Budget',
      type: 'NUMBER',
      spaceId: s.spaceId,
      projectId: p.projectId,
      now,
    });
    const got = await alice.ops.getSpaceById({ path: { spaceId: s.spaceId } });
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
    const s = await alice.ops.createSpace({
      body: { spaceName: 'Old', description: 'd', spaceType: 'PRIVATE', color: '#123456' },
    });
    const u = await bob.ops.updateSpace({
      path: { spaceId: s.spaceId },
      body: { spaceName: 'New' },
    });
    expect(u).toMatchObject({
      spaceName: 'New',
      description: '',
      spaceType: 'PUBLIC',
      color: '#123456',
    });
    expect(u.modifiedBy?.userId).toBe(server.users.bob);
    const blank = await raw('PUT', `/v1/spaces/${s.spaceId}`, { spaceName: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.fields).toContain('spaceName');
    expect((await raw('POST', '/v1/spaces', { description: 'no name' })).fields).toContain(
      'spaceName',
    );
    expect((await alice.ops.getSpaceById({ path: { spaceId: s.spaceId } })).spaceName).toBe('New');
  });

  it('deletes the space softly with its projects and their tasks', async () => {
    const s = await alice.ops.createSpace({ body: { spaceName: 'Doomed' } });
    const p = await alice.ops.createProject({
      path: { spaceId: s.spaceId },
      body: { projectName: 'P' },
    });
    const t = await alice.createProjectTaskResolved({
      path: { spaceId: s.spaceId, projectId: p.projectId },
      body: { taskTitle: 'T' },
    });
    const sub = await alice.ops.createProjectSubtask({
      path: { spaceId: s.spaceId, projectId: p.projectId, taskId: t.taskId },
      body: { taskTitle: 'S' },
    });
    const since = server.deps.clock.now();
    expect(await alice.ops.deleteSpace({ path: { spaceId: s.spaceId } })).toEqual({});
    expect((await rejection(alice.ops.getSpaceById({ path: { spaceId: s.spaceId } }))).status).toBe(
      404,
    );
    expect((await alice.ops.getAllSpaces()).map((x) => x.spaceId)).not.toContain(s.spaceId);
    expect(
      (
        await rejection(
          alice.ops.getProjectById({ path: { spaceId: s.spaceId, projectId: p.projectId } }),
        )
      ).status,
    ).toBe(404);
    for (const id of [t.taskId, sub.taskId])
      expect((await rejection(alice.ops.getTaskById({ path: { taskId: id } }))).status).toBe(404);
    const db = server.deps.db;
    expect(
      db.prepare('SELECT deleted, deleted_by FROM spaces WHERE space_id = ?').get(s.spaceId),
    ).toEqual({ deleted: 1, deleted_by: server.users.alice });
    expect(
      db.prepare('SELECT deleted FROM projects WHERE project_id = ?').get(p.projectId),
    ).toEqual({ deleted: 1 });
    // The tombstones reach a delta pull.
    const tasks = await alice.ops.bulkTasks({ query: { modifiedSince: since } });
    expect(
      tasks.items
        .filter((i) => i.deleted)
        .map((i) => i.taskId)
        .sort(),
    ).toEqual([t.taskId, sub.taskId].sort());
    const projects = await alice.ops.bulkProjects({ query: { modifiedSince: since } });
    expect(projects.items.map((i) => [i.projectId, i.deleted])).toEqual([[p.projectId, true]]);
    expect((await rejection(alice.ops.deleteSpace({ path: { spaceId: s.spaceId } }))).status).toBe(
      404,
    );
  });
});
