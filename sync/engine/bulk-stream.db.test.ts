import { afterEach, describe, expect, it } from 'vitest';
import { aTask, fail, type Harness, harness, iso, NOW, sendJson } from '../api/test-support';
import { openTestReplica, type TestReplica } from '../db/queries/read.fixture';
import { pullBulkStream } from './bulk-stream';
import { openPageDecoder } from './page-decoder';

let h: Harness | null = null;
let r: TestReplica | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
  r?.close();
  r = null;
});

/** A page of the task export, with envelope fields of the caller's after `data`. */
const page = (
  items: unknown[],
  nextCursor: string | null,
  after: Record<string, unknown> = {},
) => ({
  success: true,
  message: 'OK',
  code: 200,
  data: { items, nextCursor, serverTime: NOW },
  ...after,
  timestamp: iso(NOW),
});

describe("a first fill's pages", () => {
  it('ask for the next page with the cursor read ahead, and again when the checked page differs', async () => {
    h = await harness((req, res) => {
      if (req.path !== '/v1/bulk/tasks') return fail(res, 404, 'NOT_FOUND', 'no such route');
      const cursor = req.query.get('cursor');
      // The first page's tail names another nextCursor (a key of a later envelope field): the
      // read-ahead takes it; the page's own, once checked, is the one that counts.
      if (cursor === null)
        return sendJson(
          res,
          200,
          page([aTask(2), aTask(1)], 'c2', { meta: { nextCursor: 'decoy' } }),
        );
      if (cursor === 'c2') return sendJson(res, 200, page([aTask(3)], null));
      return fail(res, 400, 'BAD_REQUEST', 'invalid cursor', {
        errors: [{ field: 'cursor', message: 'not a cursor of this export' }],
      });
    });
    r = openTestReplica();
    const result = await pullBulkStream(r.replica, h.client, 'tasks', {
      decoder: openPageDecoder(null),
    });
    const asked = h.server.requests.map((q) => q.query.get('cursor'));
    expect(asked).toContain('decoy');
    expect(asked.filter((c) => c === 'c2')).toHaveLength(1);
    expect(result).toMatchObject({ mode: 'bootstrap', upserted: 3, pages: 2 });
    expect(
      r.replica.db.prepare('SELECT task_id FROM tasks ORDER BY task_id').pluck().all(),
    ).toEqual([1, 2, 3]);
  });
});
