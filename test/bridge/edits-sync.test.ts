import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addNotice } from '../../sync/outbox/notices';
import { demoClient } from '../sync/support';
import { type BridgeFixture, eventually, openEvents, startBridgeFixture } from './support';

// Edits, sync control and session changes through the web binding, against the real engine
// and the reference server: what the user does, and what the UI hears about it (SSE).

describe('bridge edits and sync control over HTTP', () => {
  let f: BridgeFixture;
  let events: Awaited<ReturnType<typeof openEvents>>;
  const rows = (table: 'outbox' | 'tasks') =>
    (
      f.services.session
        .require()
        .engine.replica.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`)
        .get() as { n: number }
    ).n;

  beforeAll(async () => {
    f = await startBridgeFixture();
    events = await openEvents(f.web);
  });
  afterAll(async () => {
    await events.close();
    await f.close();
  });

  it('session.signIn refuses a malformed URL and wrong credentials, and says why', async () => {
    const url = await f.fail('session.signIn', {
      serverUrl: 'ftp://example.com',
      email: 'demo@example.com',
      password: 'x',
    });
    expect(url).toMatchObject({ code: 'invalid-input', status: 400 });
    expect(url.fieldErrors?.[0]?.field).toBe('serverUrl');
    const wrong = await f.fail('session.signIn', {
      serverUrl: f.server.url,
      email: 'demo@example.com',
      password: 'not-the-password',
    });
    expect(wrong).toMatchObject({ code: 'unauthorized', message: 'wrong email or password' });
    expect((await f.call('session.state', {})).signedIn).toBe(false);
  });

  it('session.signIn signs in, stores the tokens 0600, and tells the UI', async () => {
    const state = await f.call('session.signIn', {
      serverUrl: f.server.url,
      email: 'demo@example.com',
      password: 'demo1234',
    });
    expect(state).toMatchObject({ signedIn: true, demo: false, currentOrgId: 1 });
    await f.call('sync.now', {});
    const vault = join(f.dataDir, 'session.json');
    await eventually(() => existsSync(vault));
    expect(statSync(vault).mode & 0o777).toBe(0o600);
    expect(readFileSync(vault, 'utf8')).toContain('refreshToken');
    await eventually(() => events.events.some((e) => e.event === 'session.changed'));
    await eventually(() => events.events.some((e) => e.event === 'sync.status'));
  });

  it('invalid edits are refused with field errors and change nothing', async () => {
    const before = { outbox: rows('outbox'), tasks: rows('tasks') };
    for (const bad of [
      { kind: 'task.create', fields: { taskTitle: '   ' } },
      { kind: 'task.update', taskId: 0, patch: {} },
      { kind: 'timer.manual', taskId: 1, hours: 25, minutes: 0, startTime: 0 },
      { kind: 'task.explode', taskId: 1 },
      { fields: { taskTitle: 'no kind' } },
    ]) {
      const r = await f.fail('edits.apply', bad);
      expect(r.code, JSON.stringify(bad)).toBe('invalid-input');
      expect(r.status).toBe(400);
      expect(r.fieldErrors?.length).toBeGreaterThan(0);
    }
    // Well-formed, but naming what the replica does not hold: not-found, in the edit layer's words.
    expect(
      await f.fail('edits.apply', {
        kind: 'task.update',
        taskId: 987_654,
        patch: { taskTitle: 'x' },
      }),
    ).toMatchObject({
      code: 'not-found',
      status: 404,
      message: 'task 987654 is not in the replica',
    });
    expect(
      await f.fail('edits.apply', { kind: 'checklist.delete', checklistId: 987_654 }),
    ).toMatchObject({ code: 'not-found', message: 'checklist item 987654 is not in the replica' });
    // Well-formed and naming what exists, yet not applicable: still the input's fault.
    const [task] = (await f.call('tasks.list', { scope: { kind: 'my' }, limit: 1 })).items;
    expect(
      await f.fail('edits.apply', {
        kind: 'attachment.upload',
        taskId: task?.taskId ?? 0,
        files: [{ path: join(f.dataDir, 'no-such-file.txt') }],
      }),
    ).toMatchObject({ code: 'invalid-input', status: 400 });
    expect(await f.fail('sync.retry', { mutationId: 987_654 })).toMatchObject({ code: 'rejected' });
    expect({ outbox: rows('outbox'), tasks: rows('tasks') }).toEqual(before);
  });

  it('an edit applies at once (pending mark), syncs, and the UI hears changed + rekeyed', async () => {
    await f.call('sync.pause', {});
    const made = await f.call('edits.apply', {
      kind: 'task.create',
      fields: { taskTitle: 'Written through the bridge', status: 'To Do' },
    });
    expect(made.id).toBeLessThan(0);
    const local = await f.call('tasks.detail', { taskId: made.id });
    expect(local?.task).toMatchObject({ taskTitle: 'Written through the bridge', sync: 'pending' });
    const paused = await f.call('sync.status', {});
    expect(paused).toMatchObject({ paused: true, pending: 1 });

    const resumed = await f.call('sync.resume', {});
    expect(resumed.paused).toBe(false);
    await f.call('sync.now', {});
    const rekeyed = await eventually(() =>
      events.events.find(
        (e) =>
          e.event === 'entity.rekeyed' &&
          (e.payload as { from: string }).from === `task:${made.id}`,
      ),
    );
    const serverId = Number((rekeyed.payload as { to: string }).to.split(':')[1]);
    expect(events.events.some((e) => e.event === 'replica.changed')).toBe(true);
    const synced = await f.call('tasks.detail', { taskId: serverId });
    expect(synced?.task.sync).toBe('synced');
    const onServer = f.server.deps.db
      .prepare('SELECT title FROM tasks WHERE task_id = ?')
      .get(serverId) as { title: string } | undefined;
    expect(onServer?.title).toBe('Written through the bridge');

    const timer = await f.call('edits.apply', { kind: 'timer.start', taskId: serverId });
    const active = await f.call('timers.active', {});
    expect(active.active?.timer.trackId).toBe(timer.id);
    expect(active.active?.taskTitle).toBe('Written through the bridge');
    expect((await f.call('timers.recentTasks', {})).tasks[0]?.taskId).toBe(serverId);
    await f.call('edits.apply', { kind: 'timer.stop', trackId: timer.id });
    expect((await f.call('timers.active', {})).active).toBeNull();
  });

  it('a list total follows every change of the replica, though totals are kept', async () => {
    const total = async () =>
      (await f.call('tasks.list', { scope: { kind: 'personal' }, limit: 1 })).total;
    const before = await total();
    expect(await total()).toBe(before);
    const made = await f.call('edits.apply', {
      kind: 'task.create',
      fields: { taskTitle: 'Counted once' },
    });
    expect(await total()).toBe(before + 1);
    await f.call('edits.apply', { kind: 'task.delete', taskId: made.id });
    expect(await total()).toBe(before);
  });

  it('failed and conflicting edits: retry, discard, resolveConflict', async () => {
    const made = await f.call('edits.apply', {
      kind: 'task.create',
      fields: { taskTitle: 'Deleted elsewhere' },
    });
    await f.call('sync.now', {});
    const taskId = await eventually(async () => {
      const d = f.server.deps.db
        .prepare("SELECT task_id FROM tasks WHERE title = 'Deleted elsewhere'")
        .get() as { task_id: number } | undefined;
      return d?.task_id;
    });
    expect(taskId).not.toBe(made.id);
    // Another device deletes the task; this one, not knowing yet, edits it.
    const other = await demoClient(f.server);
    await other.ops.deleteTask({ path: { taskId } });
    await other.close();
    await f.call('sync.pause', {});
    const update = await f.call('edits.apply', {
      kind: 'task.update',
      taskId,
      patch: { taskTitle: 'Renamed too late' },
    });
    const item = await f.call('edits.apply', { kind: 'checklist.create', taskId, name: 'item' });
    await f.call('sync.resume', {});
    await f.call('sync.now', {});
    const status = await eventually(async () => {
      const s = await f.call('sync.status', {});
      return s && s.failed.length >= 2 ? s : undefined;
    });
    const conflict = status.failed.find((e) => e.mutationId === update.mutationId);
    const failed = status.failed.find((e) => e.mutationId === item.mutationId);
    expect(conflict?.state).toBe('conflict');
    expect(failed?.state).toBe('failed');
    expect(failed?.error?.message).toBeTypeOf('string');

    const retried = await f.call('sync.retry', { mutationId: item.mutationId ?? 0 });
    expect(retried.failed.some((e) => e.mutationId === item.mutationId)).toBe(false);
    await f.call('sync.now', {});
    await eventually(async () =>
      (await f.call('sync.status', {}))?.failed.some((e) => e.mutationId === item.mutationId),
    );
    const discarded = await f.call('sync.discard', { mutationId: item.mutationId ?? 0 });
    expect(discarded.failed.some((e) => e.mutationId === item.mutationId)).toBe(false);
    const resolved = await f.call('sync.resolveConflict', {
      mutationId: update.mutationId ?? 0,
      choice: 'discard',
    });
    expect(resolved.failed).toEqual([]);
    expect(resolved.pending).toBe(0);
  });

  it('sync.status shows a notice about an edit already sent until sync.dismissNotice', async () => {
    const engine = f.services.session.current?.engine;
    if (!engine) throw new Error('signed in');
    // What the outbox leaves when it sent a create again (test/sync/lost-creates.test.ts).
    addNotice(engine.replica.db, 'task:-9', 'Task “Twin” was sent again.', Date.now());
    const status = await f.call('sync.status', {});
    const notice = status?.notices.find((n) => n.entity === 'task:-9');
    expect(notice?.message).toBe('Task “Twin” was sent again.');
    const after = await f.call('sync.dismissNotice', { noticeId: notice?.noticeId ?? 0 });
    expect(after.notices.some((n) => n.entity === 'task:-9')).toBe(false);
  });

  it('sync.cancelBootstrap stops and pauses; resume goes on', async () => {
    const cancelled = await f.call('sync.cancelBootstrap', {});
    expect(cancelled).toMatchObject({ paused: true, bootstrap: null });
    expect((await f.call('sync.resume', {})).paused).toBe(false);
  });

  it('session.switchOrg opens the other org (its own replica); a foreign org is refused', async () => {
    const before = await f.call('tasks.list', { scope: { kind: 'my' }, limit: 1 });
    const state = await f.call('session.switchOrg', { orgId: 2 });
    expect(state.currentOrgId).toBe(2);
    await f.call('sync.now', {});
    const after = await f.call('tasks.list', { scope: { kind: 'my' }, limit: 1 });
    expect(after.items[0]?.taskId).not.toBe(before.items[0]?.taskId);
    expect(await f.fail('session.switchOrg', { orgId: 99 })).toMatchObject({ code: 'not-found' });
    expect((await f.call('session.state', {})).currentOrgId).toBe(2);
  });

  it('session.signOut stops the engine and wipes the stored tokens', async () => {
    const state = await f.call('session.signOut', {});
    expect(state).toMatchObject({ signedIn: false, user: null, currentOrgId: null });
    expect(existsSync(join(f.dataDir, 'session.json'))).toBe(false);
    expect(await f.fail('sync.now', {})).toMatchObject({ code: 'not-signed-in' });
    expect(await f.call('sync.status', {})).toBeNull();
  });
});
