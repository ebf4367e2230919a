import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeMethod } from '../../shared/bridge';
import { bridgeMethodNames } from '../../shared/bridge';
import { admin } from '../sync/support';
import { type BridgeFixture, eventually, openEvents, startBridgeFixture } from './support';

// Every read method of the bridge through the web binding, against the real engine and the
// reference server's demo data (signed in through `session.startDemo`, bootstrapped).
// edits-sync.test.ts covers edits, sync control and the session's changes.

const called = new Set<BridgeMethod>();

describe('bridge reads over HTTP (demo data, real engine)', () => {
  let f: BridgeFixture;
  const call: BridgeFixture['call'] = (method, input) => {
    called.add(method);
    return f.call(method, input);
  };
  let projectId = 0;

  beforeAll(async () => {
    f = await startBridgeFixture({ attachmentUrlTemplate: '/bridge/attachments/{id}' });
    const state = await call('session.startDemo', {});
    expect(state).toMatchObject({ signedIn: true, demo: true, currentOrgId: 1 });
    await call('sync.now', {});
  });
  afterAll(() => f.close());

  it('session.state and sync.status describe the signed-in demo after its first fill', async () => {
    const state = await call('session.state', {});
    expect(state.user?.email).toBe('demo@example.com');
    expect(state.organizations.map((o) => o.orgId)).toEqual([1, 2]);
    expect(state.bootstrapping).toBe(false);
    const status = await call('sync.status', {});
    expect(status).toMatchObject({ online: true, paused: false, pending: 0, bootstrap: null });
    expect(status?.lastSyncAt).toBeTypeOf('number');
  });

  it('spaces.tree, spaces.nav, projects.get, projects.board, customFields.forScope', async () => {
    const { spaces } = await call('spaces.tree', {});
    expect(spaces.length).toBeGreaterThan(0);
    const withProjects = spaces.find((s) => s.projects.length > 0);
    const project = withProjects?.projects[0];
    expect(project?.sync).toBe('synced');
    projectId = project?.projectId ?? 0;
    expect(withProjects?.spaceMembers?.length).toBeGreaterThan(0);

    // The navigation is the same tree, names and marks only.
    const nav = await call('spaces.nav', {});
    expect(nav.spaces).toEqual(
      spaces.map((s) => ({
        spaceId: s.spaceId,
        spaceName: s.spaceName,
        sync: s.sync,
        projects: s.projects.map((p) => ({
          projectId: p.projectId,
          spaceId: p.spaceId,
          projectName: p.projectName,
          sync: p.sync,
        })),
      })),
    );

    // The overview: the space's projects, each counting the top-level tasks its list shows.
    const overview = await call('spaces.overview', { spaceId: withProjects?.spaceId ?? 0 });
    expect(overview?.projects.map((p) => p.projectId)).toEqual(
      withProjects?.projects.map((p) => p.projectId),
    );
    const first = overview?.projects[0];
    const listed = (filter: { pending?: boolean; overdue?: boolean }) =>
      call('tasks.list', { scope: { kind: 'project', projectId }, filter, limit: 1 });
    expect(first?.tasks).toEqual({
      total: (await listed({})).total,
      done: (await listed({ pending: false })).total,
      overdue: (await listed({ overdue: true })).total,
    });
    expect(await call('spaces.overview', { spaceId: 987654 })).toBeNull();

    const got = await call('projects.get', { projectId });
    expect(got?.projectName).toBe(project?.projectName);
    expect(await call('projects.get', { projectId: 987654 })).toBeNull();

    const board = await call('projects.board', { projectId, perStatus: 3 });
    expect(board.total).toBeGreaterThan(0);
    expect(board.columns.reduce((n, c) => n + c.count, 0)).toBe(board.total);
    for (const c of board.columns) expect(c.tasks.length).toBe(Math.min(3, c.count));

    const scoped = await call('customFields.forScope', { projectId });
    const all = await call('customFields.forScope', {});
    expect(all.fields.length).toBeGreaterThanOrEqual(scoped.fields.length);
    for (const field of scoped.fields) expect(field.fieldName).toBeTypeOf('string');
  });

  it('tasks.list: scopes, filters, multi-key sort and a window with the total', async () => {
    const all = await call('tasks.list', { scope: { kind: 'project', projectId }, limit: 500 });
    expect(all.total).toBe(all.items.length);
    expect(all.items.every((t) => t.projectId === projectId && t.sync === 'synced')).toBe(true);

    const status = all.items[0]?.status ?? '';
    const filtered = await call('tasks.list', {
      scope: { kind: 'project', projectId },
      filter: { status: [status] },
      sort: [{ property: 'taskTitle', direction: 'desc' }],
    });
    expect(filtered.total).toBe(all.items.filter((t) => t.status === status).length);
    const titles = filtered.items.map((t) => t.taskTitle);
    expect(titles).toEqual([...titles].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));

    const page = await call('tasks.list', {
      scope: { kind: 'project', projectId },
      sort: [{ property: 'taskId' }],
      offset: 2,
      limit: 3,
    });
    const byId = [...all.items].sort((a, b) => a.taskId - b.taskId);
    expect(page.items.map((t) => t.taskId)).toEqual(byId.slice(2, 5).map((t) => t.taskId));
    expect(page.total).toBe(all.total);

    const mine = await call('tasks.list', { scope: { kind: 'my' }, limit: 500 });
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.items.every((t) => t.owners?.some((o) => o.userId === 1))).toBe(true);
    const personal = await call('tasks.list', { scope: { kind: 'personal' } });
    expect(personal.items.every((t) => !t.projectId && !t.parentTaskId)).toBe(true);
  });

  it('tasks.detail with subtasks, checklist, attachments, timers and marks', async () => {
    const mine = await call('tasks.list', { scope: { kind: 'my' }, limit: 500 });
    const parent = mine.items.find((t) => (t.subtaskCount ?? 0) > 0) ?? mine.items[0];
    const detail = await call('tasks.detail', { taskId: parent?.taskId ?? 0 });
    expect(detail?.task.taskId).toBe(parent?.taskId);
    expect(detail?.subtasks.length).toBe(parent?.subtaskCount ?? 0);
    expect(detail?.failedEdits).toEqual([]);
    const subs = await call('tasks.list', {
      scope: { kind: 'subtasks', parentTaskId: parent?.taskId ?? 0 },
    });
    expect(subs.total).toBeGreaterThanOrEqual(detail?.subtasks.length ?? 0);
    expect(await call('tasks.detail', { taskId: 99_999_999 })).toBeNull();
  });

  it('tasks.search, tasks.statusCounts', async () => {
    const { items } = await call('tasks.list', { scope: { kind: 'my' }, limit: 1 });
    const word = (items[0]?.taskTitle ?? '').split(/\s+/).find((w) => w.length > 4) ?? '';
    const { hits } = await call('tasks.search', { text: word, limit: 5 });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]?.segments.some((s) => s.hit)).toBe(true);
    expect((await call('tasks.search', { text: '   ' })).hits).toEqual([]);

    const counts = await call('tasks.statusCounts', { scope: { kind: 'project', projectId } });
    const total = counts.counts.reduce((n, c) => n + c.count, 0);
    const list = await call('tasks.list', { scope: { kind: 'project', projectId }, limit: 1 });
    expect(total).toBe(list.total);
    const mineCounts = await call('tasks.statusCounts', { scope: { kind: 'my' } });
    const mineList = await call('tasks.list', { scope: { kind: 'my' }, limit: 1 });
    expect(mineCounts.counts.reduce((n, c) => n + c.count, 0)).toBe(mineList.total);
  });

  it('users.list, notifications.list, notifications.unreadCount', async () => {
    const { users } = await call('users.list', {});
    expect(users.some((u) => u.email === 'demo@example.com')).toBe(true);
    const unread = await call('notifications.unreadCount', {});
    const list = await call('notifications.list', { unreadOnly: true, limit: 500 });
    expect(list.total).toBe(unread.count);
    expect(list.items.every((n) => !n.read)).toBe(true);
    const page = await call('notifications.list', { offset: 1, limit: 2 });
    expect(page.items.length).toBeLessThanOrEqual(2);
  });

  it('comments.list fetches from the server, then answers from the cache offline', async () => {
    const row = f.server.deps.db
      .prepare('SELECT task_id FROM comments WHERE org_id = 1 ORDER BY comment_id LIMIT 1')
      .get() as { task_id: number } | undefined;
    const taskId = row?.task_id ?? 0;
    const first = await call('comments.list', { taskId });
    expect(first.source).toBe('network');
    expect(first.items.length).toBeGreaterThan(0);
    await admin(f.server, 'faults', { spec: 'reset=1' });
    try {
      const offline = await call('comments.list', { taskId });
      expect(offline.source).toBe('cache');
      expect(offline.offlineReason).toBeTypeOf('string');
      expect(offline.items).toEqual(first.items);
    } finally {
      await admin(f.server, 'faults', { spec: '' });
    }
  });

  it('timesheet.range, timers.active, timers.recentTasks', async () => {
    const now = Date.now();
    const week = await call('timesheet.range', { from: now - 7 * 86_400_000, to: now });
    expect(week.days.length).toBeGreaterThanOrEqual(7);
    expect(week.days.reduce((n, d) => n + d.seconds, 0)).toBe(week.totalSeconds);
    expect(week.projects.reduce((n, p) => n + p.seconds, 0)).toBe(week.totalSeconds);
    const active = await call('timers.active', {});
    if (active.active) expect(active.active.timer.state).not.toBe('STOPPED');
    const recent = await call('timers.recentTasks', {});
    expect(recent.tasks.length).toBeLessThanOrEqual(5);
    const times = recent.tasks.map((t) => t.lastTimedAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('attachments.open downloads once into the cache; the web binding serves its bytes', async () => {
    const db = f.services.session.require().engine.replica.db;
    const row = db
      .prepare('SELECT attachment_id FROM attachments ORDER BY attachment_id LIMIT 1')
      .get() as { attachment_id: number } | undefined;
    const attachmentId = row?.attachment_id ?? 0;
    const opened = await call('attachments.open', { attachmentId });
    expect(opened.source).toBe('network');
    expect(existsSync(opened.path)).toBe(true);
    expect(opened.url).toBe(`/bridge/attachments/${attachmentId}`);
    expect((await call('attachments.open', { attachmentId })).source).toBe('cache');
    const res = await fetch(
      `${f.web.origin}/bridge/attachments/${attachmentId}?secret=${f.web.secret}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toMatch(/^sandbox/);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(readFileSync(opened.path));
    expect(await f.fail('attachments.open', { attachmentId: 999_999 })).toMatchObject({
      code: 'not-found',
    });
  });

  it('settings.get and settings.set validate and persist; every set is announced, a refused one not', async () => {
    const events = await openEvents(f.web);
    const heard: unknown[] = [];
    // A second transport (the tray's in-process endpoint) hears what a page set over HTTP.
    const off = f.services.hub.subscribe((event, payload) => {
      if (event === 'settings.changed') heard.push(payload);
    });
    try {
      expect((await call('settings.get', {})).theme).toBe('system');
      const set = await call('settings.set', { theme: 'dark', idleMinutes: 10 });
      expect(set).toMatchObject({ theme: 'dark', idleMinutes: 10 });
      const bad = await f.fail('settings.set', { theme: 'purple', idleMinutes: 0 });
      expect(bad.code).toBe('invalid-input');
      expect(bad.fieldErrors?.map((e) => e.field).sort()).toEqual(['idleMinutes', 'theme']);
      expect(await call('settings.get', {})).toMatchObject({ theme: 'dark', idleMinutes: 10 });
      const shortcut = await call('settings.set', { globalShortcut: null });
      const sse = await eventually(() => {
        const got = events.events.filter((e) => e.event === 'settings.changed');
        return got.length === 2 ? got : undefined;
      });
      expect(sse.map((e) => e.payload)).toEqual([set, shortcut]);
      expect(heard).toEqual([set, shortcut]);
    } finally {
      off();
      await events.close();
    }
  });

  it('app.diagnostics: versions, data folder, replica sizes, outbox counts; no secret', async () => {
    const d = await call('app.diagnostics', {});
    expect(d.versions.app).toMatch(/^\d+\.\d+\.\d+/);
    expect(d.versions.node).toBe(process.versions.node);
    expect(d.dataDir).toBe(f.dataDir);
    expect(d.logsDir).toBe(join(f.dataDir, 'logs'));
    expect(d.replicas.length).toBeGreaterThan(0);
    expect(d.replicas.every((r) => r.bytes > 0)).toBe(true);
    expect(d.outbox).toEqual({ pending: 0, failed: 0, pendingByKind: {} });
    expect(d.signedIn).toBe(true);
    expect(Array.isArray(d.lastErrors)).toBe(true);
    const text = JSON.stringify(d);
    const session = readFileSync(join(f.dataDir, 'session.json'), 'utf8');
    // The stored session's long strings: its tokens.
    const tokens = session.match(/[A-Za-z0-9._~+/=-]{16,}/g) ?? [];
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(text).not.toContain(token);
    expect(text).not.toMatch(/accessToken|refreshToken|password|bearer/i);
  });

  it('app.openLogsFolder: answers the folder (the desktop opens it), which exists', async () => {
    const r = await call('app.openLogsFolder', {});
    expect(r).toEqual({ path: join(f.dataDir, 'logs'), opened: false });
    expect(existsSync(r.path)).toBe(true);
    expect(await call('app.openDataFolder', {})).toEqual({ path: f.dataDir, opened: false });
  });

  it('every method of the contract is called: reads above, the rest in the write tests', () => {
    const writes = ['edits-sync.test.ts', 'history.test.ts', 'changes.test.ts']
      .map((file) => readFileSync(join(import.meta.dirname, file), 'utf8'))
      .join('\n');
    const calledThere = (m: string) =>
      new RegExp(`f\\.(call|fail)\\('${m.replace('.', '\\.')}'`).test(writes);
    expect(bridgeMethodNames.filter((m) => !called.has(m) && !calledThere(m))).toEqual([]);
  });
});
