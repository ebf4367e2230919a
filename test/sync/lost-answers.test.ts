/**
 * Issue 14's symptoms, each through real parts (the reference server over HTTP, a real replica
 * file), checked on the server's data: a lost answer never lets the user's earlier value beat
 * their later one, and a skewed server clock decides nothing. Timers: timer-truth.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { engineSetup, faults, settle, sleep, taskWithItem } from './engine-setup';

const setUp = engineSetup();

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
    const { server: s, engine: e } = await setUp(600_000);
    await taskWithItem(e, 'both edit');
    const taskId = Number(
      e.replica.db.prepare("SELECT task_id FROM tasks WHERE title = 'both edit'").pluck().get(),
    );
    await faults(s, { rules: [{ kind: 'reset', count: 10_000 }] });
    // Offline, the user has not seen it: someone else renames the task, a second before the
    // user does (the server stamps it ten minutes "later" than this machine's clock). Waited
    // out: stamped a second back, it would fall before the engine's last pull and go unseen.
    s.deps.db
      .prepare('UPDATE tasks SET title = ?, modified_time = ? WHERE task_id = ?')
      .run('their title', s.deps.clock.now(), taskId);
    await sleep(1_000);
    e.edit({ kind: 'task.update', taskId, patch: { taskTitle: 'my title' } });
    await faults(s, { clear: true });
    await settle(e);
    expect(serverTask(s, taskId).title).toBe('my title');
    // And a change someone makes after the user's edit wins over it. It lands while this
    // machine is still cut off: with no conditional writes in /v1, a change landing between
    // the engine's pull and its PUT is a window no client can close (ARCHITECTURE.md, guarantees).
    await faults(s, { rules: [{ kind: 'reset', count: 10_000 }] });
    e.edit({ kind: 'task.update', taskId, patch: { taskTitle: 'my second title' } });
    // A second after the user's edit, stamped rather than waited out.
    s.deps.db
      .prepare('UPDATE tasks SET title = ?, modified_time = ? WHERE task_id = ?')
      .run('their later title', s.deps.clock.now() + 1_000, taskId);
    await faults(s, { clear: true });
    await settle(e);
    expect(serverTask(s, taskId).title).toBe('their later title');
  });
});

describe('an edit that waited goes again only after a pull', () => {
  it('a failed pull does not let a waiting edit overwrite a change it has not seen', async () => {
    const { server: s, engine: e } = await setUp(600_000);
    await taskWithItem(e, 'waited');
    const taskId = Number(
      e.replica.db.prepare("SELECT task_id FROM tasks WHERE title = 'waited'").pluck().get(),
    );
    await faults(s, { rules: [{ kind: 'reset', count: 10_000 }] });
    e.edit({ kind: 'task.update', taskId, patch: { taskTitle: 'my offline title' } });
    await sleep(1_000);
    s.deps.db
      .prepare('UPDATE tasks SET title = ?, modified_time = ? WHERE task_id = ?')
      .run('their later title', s.deps.clock.now(), taskId);
    // Back online, but pulls fail: the edit must not go on what it last saw.
    await faults(s, { clear: true, rules: [{ kind: '5xx', method: 'GET', count: 10_000 }] });
    await sleep(500);
    expect(s.deps.faults.state().hits['5xx GET']).toBeGreaterThan(1);
    expect(serverTask(s, taskId).title).toBe('their later title');
    expect(e.status().pending).toBe(1);
    await faults(s, { clear: true });
    await settle(e);
    expect(serverTask(s, taskId).title).toBe('their later title');
  });
});

describe('an edit made while its task’s create is on its way', () => {
  it('keeps the user’s value though its send failed and someone else changed another field', async () => {
    const { server: s, engine: e } = await setUp();
    // The create commits at the server and its answer waits there.
    await faults(s, {
      rules: [{ kind: 'hold', method: 'POST', pathPrefix: '/v1/tasks', count: 1 }],
    });
    const t = e.edit({ kind: 'task.create', fields: { taskTitle: 'draft' } });
    for (let i = 0; i < 200 && s.deps.faults.state().held === 0; i++) await sleep(10);
    expect(s.deps.faults.state().held).toBe(1);
    // The rename queues behind the create.
    e.edit({ kind: 'task.update', taskId: t.id, patch: { taskTitle: 'renamed' } });
    // Someone else changes the new task's description a moment later.
    await sleep(50);
    const taskId = Number(
      s.deps.db.prepare("SELECT task_id FROM tasks WHERE title = 'draft'").pluck().get(),
    );
    s.deps.db
      .prepare('UPDATE tasks SET description = ?, modified_time = ? WHERE task_id = ?')
      .run('their notes', s.deps.clock.now(), taskId);
    // The create's answer arrives; the rename goes at once and fails.
    await faults(s, { rules: [{ kind: '5xx', method: 'PUT', count: 10_000 }] });
    await faults(s, { release: true });
    for (let i = 0; i < 200 && !s.deps.faults.state().hits['5xx PUT']; i++) await sleep(10);
    await faults(s, { clear: true });
    await settle(e);
    const server = s.deps.db
      .prepare('SELECT title, description FROM tasks WHERE task_id = ?')
      .get(taskId) as { title: string; description: string };
    expect(server).toEqual({ title: 'renamed', description: 'their notes' });
  });
});
