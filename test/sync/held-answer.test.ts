/**
 * A crash between the server's commit and the client's record of the answer, made certain: the
 * server holds the answer to one request (fault `hold`) while the test SIGKILLs the process
 * that sent it; the engine, opened again on the same replica, must end with the edit applied
 * exactly once. For a create, an update, a delete, a checklist toggle, a timer move and an
 * upload, on a server that honours Idempotency-Key and on one that ignores it. Checked on the
 * server's database.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/app';
import type { EditCommand } from '../../shared/edits/commands';
import type { ApiClient } from '../../sync/api';
import { openEngine } from '../../sync/engine/engine';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { bundleForNode } from '../support/node-bundle';
import { serverIdOf, settle, sleep } from './engine-setup';
import { admin, demoClient, tempDir } from './support';

let childScript = '';
const servers: Record<'honours' | 'ignores', RunningServer | undefined> = {
  honours: undefined,
  ignores: undefined,
};

beforeAll(async () => {
  const outdir = join(import.meta.dirname, '../../node_modules/.cache/worktray-held');
  await bundleForNode({ child: join(import.meta.dirname, 'held-answer-child.ts') }, outdir);
  childScript = join(outdir, 'child.js');
  const start = (quirks: 'ignore-idempotency-key'[]) =>
    startServer({ dataDir: null, admin: true, seed: { kind: 'demo' }, quirks });
  servers.honours = await start([]);
  servers.ignores = await start(['ignore-idempotency-key']);
}, 60_000);

afterAll(async () => {
  await servers.honours?.close();
  await servers.ignores?.close();
});

const heldNow = (s: RunningServer) => s.deps.faults.state().held;

/**
 * Runs `command` in a child process; once the server holds the answer of a request matching
 * `rule`, kills the child with SIGKILL. Fails if the request never comes.
 */
const killWhileHeld = async (
  s: RunningServer,
  dataDir: string,
  command: EditCommand,
  rule: { method: 'POST' | 'PUT' | 'DELETE'; pathPrefix: string },
) => {
  await admin(s, 'faults', { rules: [{ kind: 'hold', count: 1, ...rule }] });
  const p = spawn(process.execPath, [childScript, dataDir, s.url, JSON.stringify(command)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  p.stdout.on('data', (d) => {
    out += String(d);
  });
  p.stderr.on('data', (d) => {
    out += String(d);
  });
  const exited = new Promise((resolve) => p.on('exit', resolve));
  try {
    for (let i = 0; i < 400 && heldNow(s) === 0; i++) await sleep(25);
    expect(heldNow(s), out).toBe(1);
  } finally {
    p.kill('SIGKILL');
    await exited;
  }
  // The connection closed with the process: the answer is gone with it.
  for (let i = 0; i < 100 && heldNow(s) > 0; i++) await sleep(10);
  expect(heldNow(s)).toBe(0);
};

/** An engine on `dataDir` (the same replica the child used), through a sync. */
const reopen = async (s: RunningServer, dataDir: string) => {
  const client = await demoClient(s);
  const engine = openEngine({
    dataDir,
    client,
    userId: client.session.user?.userId ?? 0,
    pullIntervalMs: 3_600_000,
    backoff: { baseMs: 20, capMs: 100 },
  });
  engine.start();
  await engine.syncNow();
  return { client, engine };
};

const done = async (o: { client: ApiClient; engine: SyncEngine }) => {
  await o.engine.close();
  await o.client.close();
};

/** A replica with a task (a checklist item on it, a running timer) on the server. */
const prepared = async (s: RunningServer, title: string) => {
  const dataDir = tempDir('held-');
  const o = await reopen(s, dataDir);
  const t = o.engine.edit({ kind: 'task.create', fields: { taskTitle: title } });
  const c = o.engine.edit({ kind: 'checklist.create', taskId: t.id, name: 'item' });
  const timer = o.engine.edit({ kind: 'timer.start', taskId: t.id });
  await settle(o.engine);
  const ids = {
    taskId: serverIdOf(o.engine, 'task', t.id),
    checklistId: serverIdOf(o.engine, 'checklist', c.id),
    trackId: serverIdOf(o.engine, 'timer', timer.id),
  };
  await done(o);
  return { dataDir, ...ids };
};

const row = <T>(s: RunningServer, sql: string, ...args: unknown[]) =>
  s.deps.db.prepare(sql).all(...args) as T[];

describe.each([
  ['honours Idempotency-Key', 'honours'],
  ['ignores Idempotency-Key', 'ignores'],
] as const)('killed while the server holds the answer (a server that %s)', (_name, mode) => {
  const server = () => {
    const s = servers[mode];
    if (!s) throw new Error('no server');
    return s;
  };
  let n = 0;
  const title = (what: string) => `held-${mode}-${what}-${++n}`;

  it('a create ends on the server once', async () => {
    const s = server();
    const { dataDir } = await prepared(s, title('base'));
    const made = title('create');
    await killWhileHeld(
      s,
      dataDir,
      { kind: 'task.create', fields: { taskTitle: made } },
      {
        method: 'POST',
        pathPrefix: '/v1/tasks',
      },
    );
    expect(row(s, 'SELECT 1 FROM tasks WHERE title = ?', made)).toHaveLength(1);
    const o = await reopen(s, dataDir);
    await settle(o.engine);
    expect(row(s, 'SELECT 1 FROM tasks WHERE title = ? AND deleted = 0', made)).toHaveLength(1);
    expect(o.engine.status().notices).toEqual([]);
    await done(o);
  });

  it('an update ends as the user left it', async () => {
    const s = server();
    const { dataDir, taskId } = await prepared(s, title('update'));
    await killWhileHeld(
      s,
      dataDir,
      { kind: 'task.update', taskId, patch: { priority: 'Urgent' } },
      {
        method: 'PUT',
        pathPrefix: `/v1/tasks/${taskId}`,
      },
    );
    const o = await reopen(s, dataDir);
    await settle(o.engine);
    expect(row(s, 'SELECT priority FROM tasks WHERE task_id = ?', taskId)).toEqual([
      { priority: 'Urgent' },
    ]);
    await done(o);
  });

  it('a delete is done, not a conflict', async () => {
    const s = server();
    const { dataDir, taskId } = await prepared(s, title('delete'));
    await killWhileHeld(
      s,
      dataDir,
      { kind: 'task.delete', taskId },
      {
        method: 'DELETE',
        pathPrefix: `/v1/tasks/${taskId}`,
      },
    );
    const o = await reopen(s, dataDir);
    await settle(o.engine);
    expect(row(s, 'SELECT deleted FROM tasks WHERE task_id = ?', taskId)).toEqual([{ deleted: 1 }]);
    await done(o);
  });

  it('a checklist toggle ends as the user left it', async () => {
    const s = server();
    const { dataDir, checklistId } = await prepared(s, title('toggle'));
    await killWhileHeld(
      s,
      dataDir,
      { kind: 'checklist.update', checklistId, patch: { completed: true } },
      { method: 'PUT', pathPrefix: '/v1/tasks/' },
    );
    const o = await reopen(s, dataDir);
    await settle(o.engine);
    expect(
      row(s, 'SELECT completed FROM checklist_items WHERE checklist_id = ?', checklistId),
    ).toEqual([{ completed: 1 }]);
    await done(o);
  });

  it('a timer move is done once (its second sending finds it done)', async () => {
    const s = server();
    const { dataDir, trackId } = await prepared(s, title('timer'));
    await killWhileHeld(
      s,
      dataDir,
      { kind: 'timer.pause', trackId },
      {
        method: 'PUT',
        pathPrefix: `/v1/time-track/${trackId}/pause`,
      },
    );
    const o = await reopen(s, dataDir);
    await settle(o.engine);
    expect(row(s, 'SELECT state FROM timers WHERE track_id = ?', trackId)).toEqual([
      { state: 'PAUSED' },
    ]);
    await done(o);
  });

  it('an upload ends on the server once, with its bytes', async () => {
    const s = server();
    const { dataDir, taskId } = await prepared(s, title('upload'));
    const bytes = Buffer.from(`held upload ${mode}\n`);
    await killWhileHeld(
      s,
      dataDir,
      {
        kind: 'attachment.upload',
        taskId,
        files: [{ name: 'held.txt', dataBase64: bytes.toString('base64') }],
      },
      { method: 'POST', pathPrefix: `/v1/tasks/${taskId}/attachments` },
    );
    const o = await reopen(s, dataDir);
    await settle(o.engine);
    const files = row<{ size: number }>(
      s,
      "SELECT size FROM attachments WHERE task_id = ? AND file_name = 'held.txt'",
      taskId,
    );
    expect(files).toEqual([{ size: bytes.byteLength }]);
    await done(o);
  });
});
