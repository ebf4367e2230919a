/**
 * The engine end to end over real HTTP: edits show at once, reach the server exactly once
 * when it can be reached, survive pulls (rebase, last writer wins per field), conflicts are
 * the user's to resolve, and timers end on the server as the user saw them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { ApiClient } from '../../sync/api';
import { readTask } from '../../sync/db/queries/tasks-read';
import { openEngine } from '../../sync/engine/engine';
import type { EngineEvent, SyncEngine } from '../../sync/engine/engine-api';
import { steppedClock } from '../support/stepped-clock';
import { admin, demoClient, startDemoServer, tempDir } from './support';

let server: RunningServer | undefined;
let client: ApiClient | undefined;
let other: ApiClient | undefined;
let engine: SyncEngine | undefined;

afterEach(async () => {
  await engine?.close();
  await client?.close();
  await other?.close();
  await server?.close();
  engine = undefined;
  client = undefined;
  other = undefined;
  server = undefined;
});

/** The demo server, two clients of it, and an engine not started yet (its events recorded). */
const openDemo = async (now?: () => number) => {
  server = await startDemoServer();
  client = await demoClient(server);
  other = await demoClient(server);
  engine = openEngine({
    dataDir: tempDir('engine-'),
    client,
    userId: client.session.user?.userId ?? 0,
    pullIntervalMs: 3_600_000,
    ...(now ? { now } : {}),
  });
  const events: EngineEvent[] = [];
  engine.on((e) => events.push(e));
  return { engine, server, client, other, events };
};

/** The same, started and through its first fill. */
const setUp = async (now?: () => number) => {
  const s = await openDemo(now);
  s.engine.start();
  await s.engine.syncNow();
  return s;
};

const offline = (s: RunningServer) =>
  admin(s, 'faults', { rules: [{ kind: 'reset', count: 10_000 }] });
const online = (s: RunningServer) => admin(s, 'faults', { clear: true });

/** Syncs until nothing is pending (retries are due at once with a generous clock). */
const settle = async (e: SyncEngine) => {
  for (let i = 0; i < 20 && e.status().pending > 0; i++) await e.syncNow();
  expect(e.status().pending).toBe(0);
};

const serverTask = (c: ApiClient, taskId: number) => c.ops.getTaskById({ path: { taskId } });

describe('engine', () => {
  it('shows a first fill as bootstrapping from its first progress to its end, without a gap', async () => {
    const { engine: e } = await openDemo();
    // What the host (and the UI's progress screen) would read at each progress event.
    const seen: { stream: string; bootstrapping: boolean }[] = [];
    e.on((event) => {
      if (event.type === 'pull-progress')
        seen.push({ stream: event.progress.stream, bootstrapping: e.status().bootstrap !== null });
    });
    e.start();
    await e.syncNow();
    // Streams report side by side (a delta of spaces among the task pages): the fill shows
    // until its last bootstrapping stream is done, then never again.
    const flips = seen.filter((s, i) => i > 0 && s.bootstrapping !== seen[i - 1]?.bootstrapping);
    expect(seen[0]?.bootstrapping).toBe(true);
    expect(new Set(seen.map((s) => s.stream)).size).toBeGreaterThan(2);
    expect(flips).toHaveLength(1);
    expect(e.status().bootstrap).toBeNull();
  });

  it('shows a fresh bootstrap (the server would not continue) before the rows go', async () => {
    const { engine: e, server: s } = await setUp();
    // What a view asking the engine right after the wipe would hear (the UI asks when an open
    // task has gone missing, to tell a refill from a deletion).
    const wipe = e.replica.wipeServerData.bind(e.replica);
    const afterWipe: (object | null)[] = [];
    e.replica.wipeServerData = () => {
      wipe();
      afterWipe.push(e.status().bootstrap);
    };
    await admin(s, 'faults', {
      rules: [{ kind: 'gone', method: 'GET', pathPrefix: '/v1/bulk/tasks', count: 1 }],
    });
    await e.syncNow();
    expect(afterWipe).toHaveLength(1);
    expect(afterWipe[0]).toMatchObject({ stream: 'tasks', mode: 'bootstrap', done: false });
    expect(e.status().bootstrap).toBeNull();
    expect(
      e.replica.db.prepare('SELECT COUNT(*) FROM tasks WHERE task_id > 0').pluck().get(),
    ).toBeGreaterThan(0);
  });

  it('shows an edit at once and sends it exactly once', async () => {
    const { engine, client } = await setUp();
    const r = engine.edit({ kind: 'task.create', fields: { taskTitle: 'from the engine' } });
    expect(r.id).toBeLessThan(0);
    expect(readTask(engine.replica.db, r.id, Date.now())?.taskTitle).toBe('from the engine');
    await settle(engine);
    const list = await client.ops.getAll({ query: { title: 'from the engine' } });
    expect(list.content).toHaveLength(1);
  });

  it('keeps edits made offline and sends them when the server is back', async () => {
    const clock = steppedClock();
    const { engine, server, client, events } = await setUp(clock.now);
    await offline(server);
    const a = engine.edit({ kind: 'task.create', fields: { taskTitle: 'offline A' } });
    engine.edit({ kind: 'task.update', taskId: a.id, patch: { priority: 'High' } });
    engine.edit({
      kind: 'checklist.create',
      taskId: a.id,
      name: 'step one',
      assigneeId: client.session.user?.userId ?? null,
    });
    await engine.syncNow();
    expect(engine.status().online).toBe(false);
    expect(engine.status().pending).toBeGreaterThan(0);
    await online(server);
    // Retries wait for their backoff (moved past, not waited out); a sync after it sends
    // everything.
    clock.advance(1_100);
    await settle(engine);
    expect(engine.status().online).toBe(true);
    const list = await client.ops.getAll({ query: { title: 'offline A' } });
    expect(list.content).toHaveLength(1);
    const id = list.content[0]?.taskId ?? 0;
    expect((await serverTask(client, id)).priority).toBe('High');
    const checklist = await client.ops.getAllCheckListsForTask({ path: { taskId: id } });
    expect(checklist.map((c) => c.name)).toEqual(['step one']);
    expect(events.some((e) => e.type === 'rekeyed')).toBe(true);
  });

  it('keeps the assignee when a checklist item is toggled', async () => {
    const { engine, client } = await setUp();
    const me = client.session.user?.userId ?? 0;
    const t = engine.edit({ kind: 'task.create', fields: { taskTitle: 'toggle me' } });
    const c = engine.edit({ kind: 'checklist.create', taskId: t.id, name: 'x', assigneeId: me });
    await settle(engine);
    for (let i = 0; i < 5; i++)
      engine.edit({
        kind: 'checklist.update',
        checklistId: c.id,
        patch: { completed: i % 2 === 0 },
      });
    await settle(engine);
    const task = (await client.ops.getAll({ query: { title: 'toggle me' } })).content[0];
    const items = await client.ops.getAllCheckListsForTask({ path: { taskId: task?.taskId ?? 0 } });
    expect(items[0]).toMatchObject({ completed: true, assigneeId: me });
  });

  it('keeps a pending edit through a pull, merging fields the server changed', async () => {
    const { engine, other } = await setUp();
    const t = engine.edit({ kind: 'task.create', fields: { taskTitle: 'merge me' } });
    await settle(engine);
    const id = engine.replica.db
      .prepare('SELECT server_id AS id FROM local_ids WHERE local_id = ?')
      .get(t.id) as { id: number };
    engine.pause();
    engine.edit({ kind: 'task.update', taskId: id.id, patch: { taskTitle: 'merged title' } });
    const before = await serverTask(other, id.id);
    await other.ops.updateTask({
      path: { taskId: id.id },
      body: { taskTitle: before.taskTitle, description: 'from elsewhere' },
    });
    engine.resume();
    await engine.syncNow();
    await settle(engine);
    const after = await serverTask(other, id.id);
    expect(after.taskTitle).toBe('merged title');
    expect(after.description).toBe('from elsewhere');
    expect(readTask(engine.replica.db, id.id, Date.now())).toMatchObject({
      taskTitle: 'merged title',
      description: 'from elsewhere',
    });
  });

  it('edits one custom field and keeps the others, and another writer’s, on the server', async () => {
    const { engine, other } = await setUp();
    const db = engine.replica.db;
    // A task with a text field and another field set: the user edits the text, someone else
    // clears the other.
    const pair = db
      .prepare(
        `SELECT v.task_id AS taskId, v.field_id AS mine, o.field_id AS theirs
         FROM custom_field_values v JOIN custom_fields f USING (field_id)
         JOIN custom_field_values o ON o.task_id = v.task_id AND o.field_id <> v.field_id
         WHERE f.field_type = 'TEXT' AND v.task_id > 0 LIMIT 1`,
      )
      .get() as { taskId: number; mine: number; theirs: number };
    const valuesOn = async (taskId: number) =>
      Object.fromEntries(
        ((await serverTask(other, taskId)).customFields ?? []).map((c) => [
          c.taskCustomFieldId,
          c.fieldValue?.find((v) => v.taskId === taskId)?.value ?? null,
        ]),
      );
    const before = await valuesOn(pair.taskId);
    expect(Object.values(before).filter((v) => v !== null).length).toBeGreaterThan(1);
    engine.pause();
    engine.edit({
      kind: 'task.update',
      taskId: pair.taskId,
      patch: { customFieldValues: [{ taskCustomFieldId: pair.mine, value: 'mine' }] },
    });
    // Another writer, after the user's edit, changes the other field (the whole set, as the API takes it).
    const now = await serverTask(other, pair.taskId);
    await other.ops.updateProjectTask({
      path: { spaceId: now.spaceId ?? 0, projectId: now.projectId ?? 0, taskId: pair.taskId },
      body: {
        taskTitle: now.taskTitle,
        ...(now.status ? { status: now.status } : {}),
        ...(now.priority ? { priority: now.priority } : {}),
        customFieldValues: Object.entries(before).map(([id, value]) => ({
          taskCustomFieldId: Number(id),
          value: Number(id) === pair.theirs ? null : (value as string | number | boolean | null),
        })),
      },
    });
    engine.resume();
    await engine.syncNow();
    await settle(engine);
    expect(await valuesOn(pair.taskId)).toEqual({
      ...before,
      [pair.mine]: 'mine',
      [pair.theirs]: null,
    });
  });

  it('turns an edit of something deleted on the server into a conflict the user resolves', async () => {
    const { engine, other } = await setUp();
    engine.edit({ kind: 'task.create', fields: { taskTitle: 'doomed' } });
    await settle(engine);
    const row = engine.replica.db
      .prepare('SELECT task_id AS id FROM tasks WHERE title = ?')
      .get('doomed') as { id: number };
    engine.pause();
    engine.edit({ kind: 'task.update', taskId: row.id, patch: { priority: 'Low' } });
    await other.ops.deleteTask({ path: { taskId: row.id } });
    engine.resume();
    await engine.syncNow();
    const failed = engine.status().failed;
    expect(failed).toHaveLength(1);
    expect(failed[0]?.state).toBe('conflict');
    engine.resolveConflict(failed[0]?.mutationId ?? 0, 'recreate');
    await settle(engine);
    const list = await other.ops.getAll({ query: { title: 'doomed' } });
    expect(list.content).toHaveLength(1);
    expect(list.content[0]?.priority).toBe('Low');
  });

  /**
   * A task made online, then offline its timer started, run ten minutes, paused for `pausedMs`
   * and resumed: the engine's clock (`at.clock`) moved by hand, from an hour ago.
   */
  const timerMovedOffline = async (title: string, pausedMs: number) => {
    const at = { clock: Date.now() - 3_600_000 };
    const s = await setUp(() => at.clock);
    const t = s.engine.edit({ kind: 'task.create', fields: { taskTitle: title } });
    await settle(s.engine);
    await offline(s.server);
    const started = at.clock;
    const timer = s.engine.edit({ kind: 'timer.start', taskId: t.id });
    at.clock += 10 * 60_000;
    s.engine.edit({ kind: 'timer.pause', trackId: timer.id });
    at.clock += pausedMs;
    s.engine.edit({ kind: 'timer.resume', trackId: timer.id });
    const onServer = async () => {
      const task = (await s.client.ops.getAll({ query: { title } })).content[0];
      return s.client.ops.getTaskTimers({ path: { taskId: task?.taskId ?? 0 } });
    };
    return { ...s, at, started, timer, onServer };
  };

  it('ends a timer moved offline with the start and duration the user saw', async () => {
    const { engine, server, at, started, timer, onServer } = await timerMovedOffline(
      'timed',
      5 * 60_000,
    );
    at.clock += 7 * 60_000;
    engine.edit({ kind: 'timer.stop', trackId: timer.id });
    await engine.syncNow();
    await online(server);
    // Past the retry's backoff (the engine's clock; still before the server's now).
    at.clock += 10 * 60_000;
    await settle(engine);
    const timers = await onServer();
    expect(timers).toHaveLength(1);
    expect(timers[0]).toMatchObject({
      state: 'STOPPED',
      startTime: started,
      durationSeconds: 17 * 60,
    });
  });

  it('corrects a running timer although this clock runs ahead of the server clock', async () => {
    const { engine, server, at, started, onServer } = await timerMovedOffline('skewed', 10_000);
    await engine.syncNow();
    await online(server);
    // Two minutes ahead of the server: the time the user saw running since the resume is
    // longer than the server has seen since the start (the pause was shorter than the skew).
    at.clock = Date.now() + 120_000;
    for (let i = 0; i < 3; i++) await engine.syncNow();
    expect(engine.status().failed).toEqual([]);
    expect(engine.status().pending).toBe(1);
    // The correction goes again once the server's clock has caught up.
    await admin(server, 'clock', { advanceMs: 180_000 });
    at.clock += 60_000;
    await settle(engine);
    expect(engine.status().failed).toEqual([]);
    const [record] = await onServer();
    // What the user's timer reads now: ten minutes, then the time since the resume.
    const seen = 10 * 60 + (at.clock - (started + 10 * 60_000 + 10_000)) / 1000;
    expect(record?.state).toBe('RUNNING');
    // The start goes to the server through the estimated clock offset: once in a CI run it
    // came back 1 ms off (rounding; the promise is to the second).
    expect(Math.abs((record?.startTime ?? 0) - started)).toBeLessThanOrEqual(1);
    expect(record?.durationSeconds).toBeGreaterThanOrEqual(Math.floor(seen) - 5);
    expect(record?.durationSeconds).toBeLessThanOrEqual(Math.ceil(seen) + 5);
  });

  it('uploads files with progress, restarts a cut upload cleanly, and never doubles it', async () => {
    const clock = steppedClock();
    const { engine, server, client, events } = await setUp(clock.now);
    const t = engine.edit({ kind: 'task.create', fields: { taskTitle: 'with files' } });
    await settle(engine);
    const big = Buffer.alloc(300_000, 7).toString('base64');
    await admin(server, 'faults', {
      rules: [{ kind: 'reset', method: 'POST', pathPrefix: '/v1/tasks/', count: 1 }],
    });
    const up = engine.edit({
      kind: 'attachment.upload',
      taskId: t.id,
      files: [
        { name: 'a.txt', dataBase64: Buffer.from('first').toString('base64') },
        { name: 'b.png', dataBase64: big },
        { name: 'c.md', dataBase64: Buffer.from('# third').toString('base64') },
      ],
    });
    expect(up.ids).toHaveLength(3);
    // Renamed before it was even uploaded: waits for the second file's server id.
    engine.edit({ kind: 'attachment.rename', attachmentId: up.ids[1] ?? 0, fileName: 'beta.png' });
    const local = engine.replica.db
      .prepare('SELECT file_name FROM attachments WHERE attachment_id < 0 ORDER BY file_name')
      .all() as { file_name: string }[];
    expect(local.map((a) => a.file_name)).toEqual(['a.txt', 'beta.png', 'c.md']);
    await engine.syncNow();
    // The cut upload's retry waits for its backoff: moved past, not waited out.
    clock.advance(1_100);
    await settle(engine);
    const task = (await client.ops.getAll({ query: { title: 'with files' } })).content[0];
    const files = await client.ops.getTaskAttachments({ path: { taskId: task?.taskId ?? 0 } });
    expect(files.map((f) => f.fileName).sort()).toEqual(['a.txt', 'beta.png', 'c.md']);
    // Every file's local id now names its server attachment.
    const rekeyed = events.filter((e) => e.type === 'rekeyed' && e.from.startsWith('attachment:'));
    expect(rekeyed).toHaveLength(3);
    const progress = events.filter((e) => e.type === 'upload-progress');
    expect(progress.length).toBeGreaterThan(0);
    const last = progress.at(-1);
    expect(last?.type === 'upload-progress' && last.completedBytes === last.totalSize).toBe(true);
    const rows = engine.replica.db
      .prepare('SELECT attachment_id FROM attachments WHERE task_id = ?')
      .all(task?.taskId ?? 0) as { attachment_id: number }[];
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.attachment_id > 0)).toBe(true);
  });

  it('waits calmly while the server stays unreachable past the pull interval', async () => {
    let clock = Date.now();
    const { engine, server } = await setUp(() => clock);
    // Offline first: an edit's push goes 15 ms after it, sooner than a loaded machine's fault.
    await offline(server);
    engine.edit({ kind: 'task.create', fields: { taskTitle: 'waits' } });
    await engine.syncNow();
    // Long past the last good pull: backoff must pace the attempts, not the stale interval.
    clock += 3_600_000 * 2;
    let statuses = 0;
    const off = engine.on((e) => {
      if (e.type === 'status') statuses++;
    });
    await new Promise((r) => setTimeout(r, 1_500));
    off();
    expect(statuses).toBeLessThan(15);
    expect(engine.status().online).toBe(false);
    expect(engine.status().pending).toBe(1);
  });

  it('shows a long push at most every 50 ms, and its end at once', async () => {
    const { engine } = await setUp();
    engine.pause();
    for (let i = 0; i < 60; i++)
      engine.edit({ kind: 'task.create', fields: { taskTitle: `burst ${i}` } });
    const seen: { at: number; pending: number; activity: string }[] = [];
    const off = engine.on((e) => {
      if (e.type === 'status')
        seen.push({
          at: performance.now(),
          pending: e.status.pending,
          activity: e.status.activity,
        });
    });
    engine.resume();
    const t0 = performance.now();
    await settle(engine);
    const pushed = performance.now() - t0;
    await new Promise((r) => setImmediate(r));
    off();
    const during = seen.filter((s) => s.activity === 'pushing' && s.pending > 0);
    // Progress shows, but not once per settled row: one per 50 ms, plus the push's start.
    expect(during.length).toBeGreaterThan(0);
    expect(during.length).toBeLessThanOrEqual(Math.ceil(pushed / 50) + 2);
    expect(seen.at(-1)).toMatchObject({ pending: 0 });
    expect(performance.now() - (seen.at(-1)?.at ?? 0)).toBeLessThan(50);
  });
});
