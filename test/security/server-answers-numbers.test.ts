/**
 * Issue 15, item 4: names and numbers from the server are hostile. What would corrupt the
 * replica is refused as a bad answer and nothing of it is written: ids that are not safe
 * integers, negative sizes, and a bulk cursor the client could never send back (which made
 * the engine take it for a refused cursor and wipe the replica for a fresh bootstrap).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../server/app';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { engineOn, type Rewrite, startProxy } from './hostile-proxy';

const opened: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const o of opened.reverse()) await o.close();
  opened.length = 0;
});

type Page = { data: { items: Record<string, unknown>[]; nextCursor: string | null } };

const hostile = async () => {
  const server = await startServer({ dataDir: null, admin: true, seed: { kind: 'demo' } });
  opened.push(server);
  const current: { rewrite: Rewrite } = { rewrite: () => undefined };
  const proxy = await startProxy(server.url, (e) => current.rewrite(e));
  opened.push(proxy);
  return { proxy, current };
};

/** Rewrites the first task of each bulk task page. */
const firstTask =
  (change: (t: Record<string, unknown>) => void): Rewrite =>
  (e) => {
    if (e.url.pathname !== '/v1/bulk/tasks' || e.status !== 200) return undefined;
    const page = e.json as Page;
    if (page.data.items[0]) change(page.data.items[0]);
    return page;
  };

const count = (e: SyncEngine, table: string) =>
  (e.replica.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('hostile names and numbers', () => {
  it.each([
    [
      'a task id past the safe integers',
      (t: Record<string, unknown>) => {
        t.taskId = 2 ** 53 + 2;
      },
      /taskId/,
    ],
    [
      'a negative id',
      (t: Record<string, unknown>) => {
        t.taskId = -5;
      },
      /taskId/,
    ],
    [
      'a negative attachment size',
      (t: Record<string, unknown>) => {
        t.attachments = [{ attachmentId: 1, fileName: 'a.txt', size: -1 }];
      },
      /size/,
    ],
    [
      'a fractional completion',
      (t: Record<string, unknown>) => {
        t.completion = 0.5;
      },
      /completion/,
    ],
  ] as const)(
    '%s fails the first fill, nothing written',
    async (_, change, field) => {
      const h = await hostile();
      h.current.rewrite = firstTask(change);
      const { engine } = await engineOn(h.proxy.url, opened);
      expect(engine.status().lastError).toMatch(/does not match the contract/);
      expect(engine.status().lastError).toMatch(field);
      expect(count(engine, 'tasks')).toBe(0);
    },
    30_000,
  );

  it('a cursor too long to send back fails the pull and wipes nothing', async () => {
    const h = await hostile();
    const { engine } = await engineOn(h.proxy.url, opened);
    expect(engine.status().lastError).toBeNull();
    const tasks = count(engine, 'tasks');
    expect(tasks).toBeGreaterThan(0);
    h.current.rewrite = (e) => {
      if (e.url.pathname !== '/v1/bulk/tasks' || e.status !== 200) return undefined;
      const page = e.json as Page;
      page.data.nextCursor = 'c'.repeat(501);
      return page;
    };
    await engine.syncNow();
    expect(engine.status().lastError).toMatch(/nextCursor/);
    expect(count(engine, 'tasks')).toBe(tasks);
    await engine.syncNow();
    expect(count(engine, 'tasks')).toBe(tasks);
  }, 30_000);
});
