import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { ApiClient } from '../../sync/api';
import { Replica } from '../../sync/db/replica';
import { LazyData } from '../../sync/engine/lazy';
import { pullAll } from '../../sync/engine/pull';
import { demoClient, startDemoServer, tempDir } from './support';

let server: RunningServer;
let client: ApiClient;
let replica: Replica;
let lazy: LazyData;
const dir = tempDir();

beforeAll(async () => {
  server = await startDemoServer();
  client = await demoClient(server);
  replica = Replica.openFile(join(dir, 'replica.sqlite'));
  await pullAll(replica, client);
  lazy = new LazyData(replica, client, dir);
});
afterAll(async () => {
  replica.close();
  await client.close();
  await server.close();
});

const taskWithComments = () =>
  server.deps.db
    .prepare(
      'SELECT c.task_id AS id, COUNT(*) AS n FROM comments c JOIN tasks t ON t.task_id = c.task_id WHERE t.org_id = 1 GROUP BY c.task_id ORDER BY n DESC LIMIT 1',
    )
    .get() as {
    id: number;
    n: number;
  };

describe('lazy data', () => {
  it('fetches comments on demand, keeps them, and serves a fresh copy from the cache', async () => {
    const { id, n } = taskWithComments();
    const first = await lazy.comments(id);
    expect(first.source).toBe('network');
    expect(first.value).toHaveLength(n);
    const again = await lazy.comments(id, { maxAgeMs: 60_000 });
    expect(again.source).toBe('cache');
    expect(again.value).toEqual(first.value);
  });

  it('fetches a timesheet and an attachment’s content, and keeps the bytes on disk', async () => {
    const now = server.deps.clock.now();
    const sheet = await lazy.timesheet({ kind: 'timesheet', from: now - 30 * 86_400_000, to: now });
    expect(sheet.source).toBe('network');
    expect(sheet.value.entries.length).toBeGreaterThan(0);
    const att = server.deps.db
      .prepare(
        'SELECT attachment_id AS id, stored_name AS name, size FROM attachments WHERE org_id = 1 AND task_id IS NOT NULL LIMIT 1',
      )
      .get() as {
      id: number;
      name: string;
      size: number;
    };
    const file = await lazy.attachmentContent(att.id);
    expect(file.source).toBe('network');
    expect(file.size).toBe(att.size);
    expect(readFileSync(file.path)).toEqual(readFileSync(join(server.deps.filesDir, att.name)));
    expect((await lazy.attachmentContent(att.id)).source).toBe('cache');
  });

  it('serves what it kept when the server is gone, and says why; fails what it never had', async () => {
    const { id } = taskWithComments();
    const now = server.deps.clock.now();
    const q = { kind: 'timesheet' as const, from: now - 30 * 86_400_000, to: now };
    await lazy.timesheet(q);
    const other = server.deps.db
      .prepare('SELECT task_id AS id FROM comments WHERE task_id <> ? LIMIT 1')
      .get(id) as { id: number };
    await server.close();
    const offline = await lazy.comments(id);
    expect(offline.source).toBe('cache');
    expect(offline.offlineReason).toBeTruthy();
    expect((await lazy.timesheet(q)).source).toBe('cache');
    await expect(lazy.comments(other.id)).rejects.toMatchObject({ kind: 'network' });
  });
});
