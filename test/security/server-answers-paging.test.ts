/**
 * Issue 15, item 4: paging that never ends is bounded. A proxy in front of the reference server
 * makes each paged read loop (bulk cursors it already gave, comment and notification pages
 * that never say last, a page number it ignores); the engine's read fails with a clear error,
 * asks a bounded number of pages, and keeps nothing of the read that failed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/app';
import type { Quirk } from '../../server/deps';
import { getComments } from '../../sync/db/queries/lazy-cache';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { admin } from '../sync/support';
import { type Exchange, engineOn, type Rewrite, startProxy } from './hostile-proxy';

const opened: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const o of opened.reverse()) await o.close();
  opened.length = 0;
});

type Json = Record<string, unknown> & { data: Record<string, unknown> };

/** The reference server behind a proxy whose rewrite can be swapped while it runs. */
const hostile = async (quirks: Quirk[] = []) => {
  const server: RunningServer = await startServer({
    dataDir: null,
    admin: true,
    seed: { kind: 'demo' },
    quirks,
  });
  opened.push(server);
  const current: { rewrite: Rewrite } = { rewrite: () => undefined };
  const proxy = await startProxy(server.url, (e) => current.rewrite(e));
  opened.push(proxy);
  const asked = (path: string) => proxy.requests.filter((p) => p.startsWith(path)).length;
  return { server, proxy, current, asked };
};

const rows = (e: SyncEngine, table: string) =>
  (e.replica.db.prepare(`SELECT * FROM ${table}`).all() as object[]).map((r) => JSON.stringify(r));

/** A Spring page that never ends: every page after the first says the first's items again. */
const endless = (path: string): Rewrite => {
  let content: unknown = null;
  return (e) => {
    if (e.url.pathname !== path || e.status !== 200) return undefined;
    const page = e.json as Json;
    content ??= page.data.content;
    Object.assign(page.data, { content, last: false, empty: false });
    return page;
  };
};

/** Bulk answers of `path` whose cursor loops: each names 'again', which answers the same. */
const loopingCursor = (path: string): Rewrite => {
  let firstPage: Json | null = null;
  return (e) => {
    if (e.url.pathname !== path) return undefined;
    // The server refuses the made-up cursor: the proxy answers it with the first page again.
    if (e.url.searchParams.get('cursor') === 'again' && firstPage) {
      e.status = 200;
      return firstPage;
    }
    if (e.status !== 200) return undefined;
    const page = e.json as Json;
    page.data.nextCursor = 'again';
    firstPage = page;
    return page;
  };
};

const bulkPage = (e: Exchange, path: string): Json | null =>
  e.url.pathname === path && e.status === 200 ? (e.json as Json) : null;

describe('paging a hostile server', () => {
  it('a first fill whose bulk task cursor loops fails, and moves nothing in', async () => {
    const h = await hostile();
    let first: unknown = null;
    h.current.rewrite = (e) => {
      const page = bulkPage(e, '/v1/bulk/tasks');
      if (!page) return undefined;
      if (!e.url.searchParams.has('cursor')) first = page.data.nextCursor;
      else page.data.nextCursor = first;
      return page;
    };
    const { engine } = await engineOn(h.proxy.url, opened);
    expect(first).toEqual(expect.any(String));
    expect(engine.status().lastError).toMatch(/bulkTasks|cursor it already gave/);
    expect(engine.status().lastError).toMatch(/cursor it already gave/);
    expect(h.asked('/v1/bulk/tasks')).toBeLessThanOrEqual(3);
    expect(rows(engine, 'tasks')).toEqual([]);
  }, 30_000);

  it('a delta whose bulk project cursor loops fails, and changes no project', async () => {
    const h = await hostile();
    const { engine } = await engineOn(h.proxy.url, opened);
    expect(engine.status().lastError).toBeNull();
    const before = rows(engine, 'projects');
    h.current.rewrite = loopingCursor('/v1/bulk/projects');
    const start = h.asked('/v1/bulk/projects');
    await engine.syncNow();
    expect(engine.status().lastError).toMatch(/cursor it already gave/);
    expect(h.asked('/v1/bulk/projects') - start).toBeLessThanOrEqual(3);
    expect(rows(engine, 'projects')).toEqual(before);
  }, 30_000);

  it('notifications that never say last fail the pull, and keep the ones held', async () => {
    const h = await hostile();
    const { engine } = await engineOn(h.proxy.url, opened);
    const before = rows(engine, 'notifications');
    expect(before.length).toBeGreaterThan(0);
    h.current.rewrite = endless('/v1/notifications');
    const start = h.asked('/v1/notifications');
    await engine.syncNow();
    expect(engine.status().lastError).toMatch(/pages past the end/);
    expect(h.asked('/v1/notifications') - start).toBeLessThanOrEqual(3);
    expect(rows(engine, 'notifications')).toEqual(before);
  }, 30_000);

  it('comments that never end, or a page number ignored, fail and cache nothing', async () => {
    const h = await hostile();
    const { engine } = await engineOn(h.proxy.url, opened);
    const taskId = (
      h.server.deps.db.prepare('SELECT task_id FROM comments WHERE org_id = 1 LIMIT 1').get() as {
        task_id: number;
      }
    ).task_id;
    const path = `/v1/tasks/${taskId}/comments`;
    h.current.rewrite = endless(path);
    await expect(engine.lazy.comments(taskId)).rejects.toThrow(/pages past the end/);
    expect(h.asked(path)).toBeLessThanOrEqual(3);
    expect(getComments(engine.replica.db, taskId)).toBeNull();

    const sameAgain = endless(path);
    h.current.rewrite = (e) => {
      const page = sameAgain(e) as Json | undefined;
      if (page) Object.assign(page.data, { number: 0, first: true });
      return page;
    };
    await expect(engine.lazy.comments(taskId)).rejects.toThrow(
      /answered page 0 when asked for page 1/,
    );
    expect(getComments(engine.replica.db, taskId)).toBeNull();
    // The same server, honest again: the comments come.
    h.current.rewrite = () => undefined;
    expect((await engine.lazy.comments(taskId)).value.length).toBeGreaterThan(0);
  }, 30_000);

  it('looking for a lost create in a bulk export that loops fails, and adopts nothing', async () => {
    // A service that ignores Idempotency-Key: a create whose answer is lost is looked for.
    const h = await hostile(['ignore-idempotency-key']);
    const { engine } = await engineOn(h.proxy.url, opened);
    await admin(h.server, 'faults', {
      rules: [{ kind: 'drop', method: 'POST', pathPrefix: '/v1/tasks', count: 1 }],
    });
    const lost = engine.edit({ kind: 'task.create', fields: { taskTitle: 'Lost' } });
    await engine.syncNow();
    h.current.rewrite = loopingCursor('/v1/bulk/tasks');
    const start = h.asked('/v1/bulk/tasks');
    await engine.syncNow();
    await engine.syncNow();
    expect(engine.status().lastError).toMatch(/cursor it already gave/);
    expect(h.asked('/v1/bulk/tasks') - start).toBeLessThanOrEqual(8);
    const mapped = engine.replica.db
      .prepare('SELECT server_id FROM local_ids WHERE entity_kind = ? AND local_id = ?')
      .get('task', lost.id);
    expect(mapped).toBeUndefined();
  }, 30_000);
});
