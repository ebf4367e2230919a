import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../sync/support';
import { type BridgeFixture, eventually, startBridgeFixture } from './support';

// Issue 14 through the host, as the UI drives it: edits queued while the server refuses writes
// survive org switches, a sign-out and a sign-in, and each lands in its own org only (the
// server's database says so, not the client's marks). Real engine, reference server.

describe('edits queued across org switches and a sign-out', () => {
  let f: BridgeFixture;

  beforeAll(async () => {
    f = await startBridgeFixture();
  }, 60_000);
  afterAll(async () => {
    await f.close();
  });

  const signIn = () =>
    f.call('session.signIn', {
      serverUrl: f.server.url,
      email: 'demo@example.com',
      password: 'demo1234',
    });
  const firstTask = async () => {
    const { items } = await f.call('tasks.list', { scope: { kind: 'my' }, limit: 1 });
    const taskId = items[0]?.taskId;
    if (taskId === undefined) throw new Error('no task of mine in this org');
    return taskId;
  };
  /** Syncs the current org until nothing is pending; nothing may have failed. */
  const drain = async () => {
    const status = await eventually(async () => {
      const s = await f.call('sync.now', {});
      return s && (s.pending === 0 || s.failed.length > 0) ? s : undefined;
    }, 30_000);
    expect(status).toMatchObject({ pending: 0, failed: [] });
  };
  const taskOnServer = (taskId: number) =>
    f.server.deps.db.prepare('SELECT org_id, title FROM tasks WHERE task_id = ?').get(taskId) as {
      org_id: number;
      title: string;
    };
  const titled = (title: string) =>
    f.server.deps.db.prepare('SELECT org_id, task_id FROM tasks WHERE title = ?').all(title);
  const attachments = (name: string) =>
    (
      f.server.deps.db
        .prepare('SELECT org_id, task_id, stored_name FROM attachments WHERE file_name = ?')
        .all(name) as { org_id: number; task_id: number; stored_name: string }[]
    ).map((a) => ({
      orgId: a.org_id,
      taskId: a.task_id,
      text: readFileSync(join(f.server.deps.filesDir, a.stored_name), 'utf8'),
    }));

  it('every edit lands in its own org, none in the other', { timeout: 120_000 }, async () => {
    expect(await signIn()).toMatchObject({ currentOrgId: 1 });
    await f.call('sync.now', {});
    const task1 = await firstTask();
    await f.call('session.switchOrg', { orgId: 2 });
    await f.call('sync.now', {});
    const task2 = await firstTask();
    await f.call('session.switchOrg', { orgId: 1 });

    await admin(f.server, 'faults', {
      rules: [
        // Every write of a task (personal or project) and its uploads; sign-in still works.
        { kind: '5xx', method: 'POST', pathPrefix: '/v1/tasks', count: 10_000 },
        { kind: '5xx', method: 'POST', pathPrefix: '/v1/spaces', count: 10_000 },
        { kind: '5xx', method: 'PUT', pathPrefix: '/v1/', count: 10_000 },
      ],
    });
    await f.call('edits.apply', {
      kind: 'task.update',
      taskId: task1,
      patch: { taskTitle: 'Edited in org 1 while offline' },
    });
    await f.call('edits.apply', {
      kind: 'attachment.upload',
      taskId: task1,
      files: [{ name: 'notes.txt', dataBase64: Buffer.from('org 1 notes').toString('base64') }],
    });
    expect(await f.call('sync.now', {})).toMatchObject({ pending: 2, failed: [] });

    await f.call('session.switchOrg', { orgId: 2 });
    await f.call('edits.apply', {
      kind: 'task.update',
      taskId: task2,
      patch: { taskTitle: 'Edited in org 2 while offline' },
    });
    expect(await f.call('sync.now', {})).toMatchObject({ pending: 1, failed: [] });
    await f.call('session.switchOrg', { orgId: 1 });
    await f.call('session.signOut', {});
    expect(await signIn()).toMatchObject({ currentOrgId: 1 });

    await admin(f.server, 'faults', { clear: true });
    await drain();
    await f.call('session.switchOrg', { orgId: 2 });
    await drain();

    expect(taskOnServer(task1)).toEqual({ org_id: 1, title: 'Edited in org 1 while offline' });
    expect(taskOnServer(task2)).toEqual({ org_id: 2, title: 'Edited in org 2 while offline' });
    expect(titled('Edited in org 1 while offline')).toEqual([{ org_id: 1, task_id: task1 }]);
    expect(titled('Edited in org 2 while offline')).toEqual([{ org_id: 2, task_id: task2 }]);
    expect(attachments('notes.txt')).toEqual([{ orgId: 1, taskId: task1, text: 'org 1 notes' }]);
  });
});
