/**
 * Issue 14's symptoms, each through real parts (the reference server over HTTP, a real replica
 * file), checked on the server's data: a lost answer never lets the user's earlier value beat
 * their later one, and a skewed server clock decides nothing. Timers: timer-truth.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { ApiClient } from '../../sync/api';
import { openEngine } from '../../sync/engine/engine';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { admin, demoClient, startDemoServer, tempDir } from './support';

let server: RunningServer | undefined;
let client: ApiClient | undefined;
let engine: SyncEngine | undefined;

afterEach(async () => {
  await engine?.close();
  await client?.close();
  await server?.close();
  engine = undefined;
  client = undefined;
  server = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The demo server (its clock `skewMs` off), an engine through its first fill, fast retries. */
const setUp = async (skewMs = 0) => {
  server = await startDemoServer();
  if (skewMs !== 0) await admin(server, 'clock', { offsetMs: skewMs });
  client = await demoClient(server);
  engine = openEngine({
    dataDir: tempDir('lost-'),
    client,
    userId: client.session.user?.userId ?? 0,
    pullIntervalMs: 3_600_000,
    backoff: { baseMs: 20, capMs: 100 },
  });
  engine.start();
  await engine.syncNow();
  return { server, client, engine };
};

const faults = (s: RunningServer, body: unknown) => admin(s, 'faults', body);

/** Syncs until nothing is pending or failed (fast backoff: retries come due quickly). */
const settle = async (e: SyncEngine) => {
  for (let i = 0; i < 100 && e.status().pending > 0; i++) {
    await e.syncNow();
    if (e.status().pending > 0) await sleep(30);
  }
  expect(e.status().failed).toEqual([]);
  expect(e.status().pending).toBe(0);
};

/** A task with one checklist item, on the server. */
const taskWithItem = async (e: SyncEngine, title: string) => {
  const t = e.edit({ kind: 'task.create', fields: { taskTitle: title } });
  const c = e.edit({ kind: 'checklist.create', taskId: t.id, name: 'item' });
  await settle(e);
  const ids = (kind: string, id: number) =>
    (
      e.replica.db
        .prepare('SELECT server_id FROM local_ids WHERE entity_kind = ? AND local_id = ?')
        .get(kind, id) as { server_id: number }
    ).server_id;
  return { taskId: ids('task', t.id), checklistId: ids('checklist', c.id) };
};

const serverItem = (s: RunningServer, id: number) =>
  s.deps.db.prepare('SELECT completed FROM checklist_items WHERE checklist_id = ?').get(id) as {
    completed: number;
  };
const serverTask = (s: RunningServer, id: number) =>
  s.deps.db.prepare('SELECT title, status, priority FROM tasks WHERE task_id = ?').get(id) as {
    title: string;
    status: string;
    priority: string;
  };

describe('a lost answer never makes the user’s last value lose to their earlier one', () => {
  it('a toggle on, its answer lost while the user toggles off again, ends off', async () => {
    const { server: s, engine: e } = await setUp();
    const { checklistId } = await taskWithItem(e, 'toggled');
    // The toggle's request waits at the server (latency), commits, and its answer is lost.
    await faults(s, {
      spec: 'latency=200-200',
      rules: [{ kind: 'drop', method: 'PUT', pathPrefix: '/v1/tasks/', count: 1 }],
    });
    e.edit({ kind: 'checklist.update', checklistId, patch: { completed: true } });
    await sleep(80);
    e.edit({ kind: 'checklist.update', checklistId, patch: { completed: false } });
    await sleep(400);
    await faults(s, { clear: true });
    await settle(e);
    expect(serverItem(s, checklistId).completed).toBe(0);
    const replica = e.replica.db
      .prepare('SELECT completed FROM checklist_items WHERE checklist_id = ?')
      .get(checklistId) as { completed: number };
    expect(replica.completed).toBe(0);
  });

  it('a task left To Do/Urgent ends To Do/Urgent, its earlier edit’s answer lost, the server clock 10 min ahead', async () => {
    const { server: s, engine: e } = await setUp(600_000);
    const t = e.edit({ kind: 'task.create', fields: { taskTitle: 'skewed' } });
    await settle(e);
    const taskId = Number(
      e.replica.db.prepare("SELECT task_id FROM tasks WHERE title = 'skewed'").pluck().get(),
    );
    expect(t.id).toBeLessThan(0);
    await faults(s, { rules: [{ kind: 'drop', method: 'PUT', count: 1 }] });
    e.edit({ kind: 'task.update', taskId, patch: { status: 'In Progress', priority: 'High' } });
    // Its answer was lost: the edit waits to go again.
    for (let i = 0; i < 50 && !e.status().lastError; i++) await sleep(20);
    expect(serverTask(s, taskId)).toMatchObject({ status: 'In Progress', priority: 'High' });
    e.edit({ kind: 'task.update', taskId, patch: { status: 'To Do', priority: 'Urgent' } });
    await settle(e);
    expect(serverTask(s, taskId)).toMatchObject({ status: 'To Do', priority: 'Urgent' });
  });
});

describe('"later" is judged in the server’s clock', () => {
  it('an edit made after someone else’s change wins, though the server clock runs 10 min ahead', async () => {
    const { server: s, engine: e, client: c } = await setUp(600_000);
    await taskWithItem(e, 'both edit');
    const taskId = Number(
      e.replica.db.prepare("SELECT task_id FROM tasks WHERE title = 'both edit'").pluck().get(),
    );
    const body = await c.ops.getTaskById({ path: { taskId } });
    await faults(s, { rules: [{ kind: 'reset', count: 10_000 }] });
    // Offline, the user has not seen it: someone else renames the task, a second before the
    // user does (the server stamps it ten minutes "later" than this machine's clock).
    s.deps.db
      .prepare('UPDATE tasks SET title = ?, modified_time = ? WHERE task_id = ?')
      .run('their title', s.deps.clock.now(), taskId);
    await sleep(1_000);
    e.edit({ kind: 'task.update', taskId, patch: { taskTitle: 'my title' } });
    await faults(s, { clear: true });
    await settle(e);
    expect(serverTask(s, taskId).title).toBe('my title');
    // And a change someone makes after the user's edit wins over it.
    await faults(s, { rules: [{ kind: 'reset', count: 10_000 }] });
    e.edit({ kind: 'task.update', taskId, patch: { taskTitle: 'my second title' } });
    await sleep(1_000);
    await faults(s, { clear: true });
    const other = await demoClient(s);
    await other.ops.updateTask({
      path: { taskId },
      body: {
        taskTitle: 'their later title',
        status: body.status ?? undefined,
        priority: body.priority ?? undefined,
      },
    });
    await settle(e);
    expect(serverTask(s, taskId).title).toBe('their later title');
    await other.close();
  });
});
