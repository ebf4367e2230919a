/**
 * Each (server, user, org) replica keeps its files (staged uploads, cached attachment content)
 * in its own folder: opening one org's engine never touches another's, and an upload queued
 * offline in one org survives org switches and lands in that org only (issue 14). Real engines
 * on one data dir, as the host opens them on an org switch, against the reference server.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { ApiClient } from '../../sync/api';
import { openEngine } from '../../sync/engine/engine';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { admin, demoClient, startDemoServer, tempDir } from './support';

const servers: RunningServer[] = [];
const clients: ApiClient[] = [];
const engines: SyncEngine[] = [];

afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) await s.close();
});

const server = async () => {
  const s = await startDemoServer();
  servers.push(s);
  return s;
};

const client = async (s: RunningServer, orgId: number) => {
  const c = await demoClient(s, orgId);
  clients.push(c);
  return c;
};

/** An engine on `dataDir` (not started), with retries due soon after a failure. */
const open = (dataDir: string, c: ApiClient) => {
  const e = openEngine({
    dataDir,
    client: c,
    userId: c.session.user?.userId ?? 0,
    pullIntervalMs: 3_600_000,
    backoff: { baseMs: 20, capMs: 100 },
  });
  engines.push(e);
  return e;
};

const close = async (e: SyncEngine) => {
  engines.splice(engines.indexOf(e), 1);
  await e.close();
};

/** Writes to tasks (uploads included) answer 503 until `heal`. */
const failWrites = (s: RunningServer) =>
  admin(s, 'faults', {
    rules: [
      { kind: '5xx', method: 'POST', pathPrefix: '/v1/tasks', count: 10_000 },
      { kind: '5xx', method: 'PUT', pathPrefix: '/v1/tasks', count: 10_000 },
    ],
  });
const heal = (s: RunningServer) => admin(s, 'faults', { clear: true });

/** Syncs until nothing is pending, and nothing failed on the way. */
const settle = async (e: SyncEngine) => {
  for (let i = 0; i < 40 && e.status().pending > 0; i++) {
    await e.syncNow();
    if (e.status().pending > 0) await new Promise((r) => setTimeout(r, 50));
  }
  expect(e.status()).toMatchObject({ pending: 0, failed: [] });
};

/** A top-level task of the engine's replica (filled by a first sync). */
const someTask = (e: SyncEngine): number =>
  (
    e.replica.db
      .prepare(
        'SELECT task_id FROM tasks WHERE task_id > 0 AND parent_task_id IS NULL ORDER BY task_id LIMIT 1',
      )
      .get() as { task_id: number }
  ).task_id;

const upload = (e: SyncEngine, taskId: number, name: string, bytes: Buffer) =>
  e.edit({
    kind: 'attachment.upload',
    taskId,
    files: [{ name, dataBase64: bytes.toString('base64') }],
  });

/** What the server holds of attachments named `name`: org, task and bytes. */
const onServer = (s: RunningServer, name: string) =>
  (
    s.deps.db
      .prepare(
        'SELECT org_id, task_id, stored_name FROM attachments WHERE file_name = ? ORDER BY attachment_id',
      )
      .all(name) as { org_id: number; task_id: number | null; stored_name: string }[]
  ).map((r) => ({
    orgId: r.org_id,
    taskId: r.task_id,
    bytes: readFileSync(join(s.deps.filesDir, r.stored_name)).toString('utf8'),
  }));

/** Every file under `dir`, as paths relative to it. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => statSync(join(dir, p)).isFile())
    .sort();

const NOTES = Buffer.from('notes of org 1: the known bytes\n');
const ORG2 = Buffer.from('a file queued in org 2\n');

describe('replica folders', () => {
  it('an upload queued offline in org 1 survives a switch to org 2 and back, and lands once in org 1', {
    timeout: 60_000,
  }, async () => {
    const s = await server();
    const dataDir = tempDir('wt-folders-');
    const [c1, c2] = [await client(s, 1), await client(s, 2)];

    let e1 = open(dataDir, c1);
    e1.start();
    await e1.syncNow();
    const task1 = someTask(e1);
    await failWrites(s);
    upload(e1, task1, 'notes.txt', NOTES);
    await e1.syncNow();
    expect(e1.status()).toMatchObject({ pending: 1, failed: [] });
    await close(e1);

    // The org switch: org 2's engine opens on the same data dir, queues an upload of its own.
    let e2 = open(dataDir, c2);
    e2.start();
    await e2.syncNow();
    const task2 = someTask(e2);
    upload(e2, task2, 'org2.txt', ORG2);
    await e2.syncNow();
    expect(e2.status()).toMatchObject({ pending: 1, failed: [] });
    await close(e2);

    e1 = open(dataDir, c1);
    e1.start();
    await heal(s);
    await settle(e1);
    expect(onServer(s, 'notes.txt')).toEqual([
      { orgId: 1, taskId: task1, bytes: NOTES.toString('utf8') },
    ]);
    // Org 2's upload waits for org 2's engine, whatever org 1's did meanwhile.
    expect(onServer(s, 'org2.txt')).toEqual([]);
    await close(e1);

    e2 = open(dataDir, c2);
    e2.start();
    await settle(e2);
    expect(onServer(s, 'org2.txt')).toEqual([
      { orgId: 2, taskId: task2, bytes: ORG2.toString('utf8') },
    ]);
    expect(onServer(s, 'notes.txt')).toHaveLength(1);
  });

  it('an upgrade moves the files a replica queued into the shared folder into its own; other files stay', {
    timeout: 60_000,
  }, async () => {
    const s = await server();
    const dataDir = tempDir('wt-upgrade-');
    const [c1, c2] = [await client(s, 1), await client(s, 2)];
    await failWrites(s);
    const queue = async (c: ApiClient, name: string, bytes: Buffer) => {
      const e = open(dataDir, c);
      e.start();
      await e.syncNow();
      const taskId = someTask(e);
      upload(e, taskId, name, bytes);
      await e.syncNow();
      expect(e.status()).toMatchObject({ pending: 1, failed: [] });
      await close(e);
      return taskId;
    };
    const task1 = await queue(c1, 'notes.txt', NOTES);
    const task2 = await queue(c2, 'org2.txt', ORG2);

    // What an older build left: every replica's staged copies in one `<dataDir>/outbox-files/`
    // (the rows' relative paths are the same `outbox-files/<name>`), plus a file of a replica
    // that is not on this machine's list any more.
    const shared = join(dataDir, 'outbox-files');
    const staged = filesUnder(dataDir).filter((p) => p.includes('outbox-files'));
    expect(staged).toHaveLength(2);
    mkdirSync(shared, { recursive: true });
    for (const p of staged) {
      if (p.startsWith('outbox-files')) continue;
      renameSync(join(dataDir, p), join(shared, basename(p)));
    }
    writeFileSync(join(shared, '1-0-0d7a1c5e-someone-else'), 'not this replica');
    const before = Object.fromEntries(
      readdirSync(shared).map((n) => [n, readFileSync(join(shared, n), 'utf8')]),
    );
    expect(Object.keys(before)).toHaveLength(3);
    const org2Copy = Object.keys(before).find((n) => before[n] === ORG2.toString('utf8'));

    await heal(s);
    const e1 = open(dataDir, c1);
    e1.start();
    await settle(e1);
    expect(onServer(s, 'notes.txt')).toEqual([
      { orgId: 1, taskId: task1, bytes: NOTES.toString('utf8') },
    ]);
    // Org 2's copy and the stranger's are where they were, as they were.
    const left = Object.fromEntries(
      readdirSync(shared).map((n) => [n, readFileSync(join(shared, n), 'utf8')]),
    );
    expect(left).toEqual({
      '1-0-0d7a1c5e-someone-else': 'not this replica',
      [org2Copy ?? '']: ORG2.toString('utf8'),
    });
    await close(e1);

    const e2 = open(dataDir, c2);
    e2.start();
    await settle(e2);
    expect(onServer(s, 'org2.txt')).toEqual([
      { orgId: 2, taskId: task2, bytes: ORG2.toString('utf8') },
    ]);
    expect(readdirSync(shared)).toEqual(['1-0-0d7a1c5e-someone-else']);
  });

  it('two servers with an attachment of the same id: each replica serves its own bytes', {
    timeout: 60_000,
  }, async () => {
    const [a, b] = [await server(), await server()];
    const dataDir = tempDir('wt-cache-');
    const att = a.deps.db
      .prepare(
        'SELECT attachment_id AS id, stored_name AS name FROM attachments WHERE org_id = 1 AND task_id IS NOT NULL ORDER BY attachment_id LIMIT 1',
      )
      .get() as { id: number; name: string };
    // The same demo data on both, but server B's copy of that attachment has other bytes of
    // the same size (a size check alone cannot tell them apart).
    const bytesA = readFileSync(join(a.deps.filesDir, att.name));
    const bytesB = Buffer.from(bytesA.map((x) => x ^ 0xff));
    writeFileSync(join(b.deps.filesDir, att.name), bytesB);

    const ea = open(dataDir, await client(a, 1));
    const eb = open(dataDir, await client(b, 1));
    for (const e of [ea, eb]) {
      e.start();
      await e.syncNow();
    }
    const fromA = await ea.lazy.attachmentContent(att.id);
    expect(readFileSync(fromA.path)).toEqual(bytesA);
    const fromB = await eb.lazy.attachmentContent(att.id);
    expect(fromB.source).toBe('network');
    expect(readFileSync(fromB.path)).toEqual(bytesB);
    const againA = await ea.lazy.attachmentContent(att.id);
    expect(againA.source).toBe('cache');
    expect(readFileSync(againA.path)).toEqual(bytesA);
    expect(againA.path).not.toBe(fromB.path);
  });
});
