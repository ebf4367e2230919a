import { afterEach, describe, expect, it } from 'vitest';
import { ApiClientError } from './errors';
import { aProject, aTask, type Harness, harness, iso, NOW, ok, rejection } from './test-support';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const pageOf = (content: unknown[]) => ({
  content,
  totalElements: content.length,
  totalPages: 1,
  size: 50,
  number: 0,
  first: true,
  last: true,
  numberOfElements: content.length,
  empty: content.length === 0,
});

const path = { spaceId: 3, projectId: 4 };
const me = { userId: 7 };
const other = { userId: 8 };

describe('createProjectTaskResolved', () => {
  it('takes the task when the server answers the task', async () => {
    h = await harness((_req, res) => ok(res, aTask(41, { taskTitle: 'Write spec' })));
    const t = await h.client.createProjectTaskResolved({
      path,
      body: { taskTitle: 'Write spec' },
      idempotencyKey: 'op-1',
    });
    expect(t.taskId).toBe(41);
    expect(h.server.requests).toHaveLength(1);
    expect(h.server.requests[0]?.path).toBe('/v1/spaces/3/projects/4/tasks');
    expect(h.server.requests[0]?.headers['idempotency-key']).toBe('op-1');
  });

  it('finds the created task when the server answers the project', async () => {
    h = await harness((req, res) => {
      if (req.method === 'POST') return ok(res, aProject(4));
      return ok(
        res,
        pageOf([
          // Oldest first on purpose: the client sorts by itself.
          aTask(10, { taskTitle: 'Write spec', createdBy: me, createdTime: iso(NOW - 3_600_000) }),
          aTask(12, { taskTitle: 'Write spec v2', createdBy: me, createdTime: iso(NOW) }),
          aTask(13, { taskTitle: 'Write spec', createdBy: other, createdTime: iso(NOW + 1) }),
          aTask(11, { taskTitle: 'Write spec', createdBy: me, createdTime: iso(NOW - 1_000) }),
        ]),
      );
    });
    const t = await h.client.createProjectTaskResolved({
      path,
      body: { taskTitle: '  Write spec ' },
    });
    expect(t.taskId).toBe(11);
    const list = h.server.requests[1];
    expect(list?.method).toBe('GET');
    expect(list?.path).toBe('/v1/spaces/3/projects/4/tasks');
    expect(list?.query.get('title')).toBe('Write spec');
    expect(list?.query.getAll('creators')).toEqual(['7']);
    expect(list?.query.getAll('sort')).toEqual(['createdTime,desc']);
    expect(list?.headers['x-org-id']).toBe('1');
    // The title went out trimmed, as the body schema sends it.
    expect(JSON.parse(h.server.requests[0]?.body.toString() ?? '').taskTitle).toBe('Write spec');
  });

  it('fails with bad-response when the project answer hides the task', async () => {
    h = await harness((req, res) => {
      if (req.method === 'POST') return ok(res, aProject(4));
      return ok(
        res,
        pageOf([
          aTask(10, { taskTitle: 'Write spec', createdBy: me, createdTime: iso(NOW - 3_600_000) }),
        ]),
      );
    });
    const e = await rejection(
      h.client.createProjectTaskResolved({ path, body: { taskTitle: 'Write spec' } }),
    );
    expect(e).toBeInstanceOf(ApiClientError);
    expect((e as ApiClientError).kind).toBe('bad-response');
    expect((e as ApiClientError).message).toContain('Write spec');
  });

  it('honours a wider skew', async () => {
    h = await harness((req, res) => {
      if (req.method === 'POST') return ok(res, aProject(4));
      return ok(
        res,
        pageOf([aTask(10, { taskTitle: 'A', createdBy: me, createdTime: iso(NOW - 600_000) })]),
      );
    });
    const t = await h.client.createProjectTaskResolved(
      { path, body: { taskTitle: 'A' } },
      { skewMs: 900_000 },
    );
    expect(t.taskId).toBe(10);
  });

  it('refuses an invalid body before sending anything', async () => {
    h = await harness((_req, res) => ok(res, aTask(1)));
    const e = await rejection(
      h.client.createProjectTaskResolved({ path, body: { taskTitle: '' } }),
    );
    expect((e as ApiClientError).kind).toBe('validation');
    expect(h.server.requests).toHaveLength(0);
  });
});
