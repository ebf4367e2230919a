/**
 * Issue 15, item 4: a service that leaves null fields out of its answers (Spring's NON_NULL)
 * syncs exactly like one that sends them. Two engines on one reference server, one straight,
 * one through a proxy that strips every null member of every answer: after a first fill, edits
 * of each kind, and delta pulls, their replicas hold the same rows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/app';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { serverIdOf, settle } from '../sync/engine-setup';
import { engineOn, type HostileProxy, startProxy, stripNulls } from './hostile-proxy';

const opened: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const o of opened.reverse()) await o.close();
  opened.length = 0;
});

/** What the replica learned from the server: every row of its tables, in a stable order. */
const serverTables = [
  'attachments',
  'checklist_items',
  'comments',
  'custom_field_values',
  'custom_fields',
  'notifications',
  'project_members',
  'project_tags',
  'projects',
  'space_members',
  'spaces',
  'task_owners',
  'task_tags',
  'tasks',
  'timers',
  'users',
];
/**
 * A column holding server JSON keeps it as sent: the same but for its null members, which
 * every reader takes as absent (an empty leftover is no leftover).
 */
const nullFree = (_key: string, v: unknown): unknown => {
  if (typeof v !== 'string' || !/^[{[]/.test(v)) return v;
  const json = JSON.stringify(stripNulls(JSON.parse(v)));
  return json === '{}' ? null : json;
};

/**
 * Timers are not exported in bulk: a replica knows the active ones and those it made, and when
 * it last saw each (`observed_at`, its own clock). Those of the engine that made them are
 * compared with the other's where both know them.
 */
const dump = (e: SyncEngine, timerIds?: number[]) =>
  Object.fromEntries(
    serverTables.map((t) => [
      t,
      (e.replica.db.prepare(`SELECT * FROM ${t}`).all() as Record<string, unknown>[])
        .filter((r) => t !== 'timers' || !timerIds || timerIds.includes(r.track_id as number))
        .map(({ observed_at: _, ...r }) => JSON.stringify(r, nullFree))
        .sort(),
    ]),
  );
const timerIdsOf = (e: SyncEngine) =>
  (e.replica.db.prepare('SELECT track_id FROM timers').all() as { track_id: number }[]).map(
    (r) => r.track_id,
  );

/** Every kind of edit, made through `e` and sent; what they made, by server id. */
const editEverything = async (e: SyncEngine) => {
  const serverId = (kind: string, id: number) => serverIdOf(e, kind, id);
  const space = e.edit({ kind: 'space.create', fields: { spaceName: 'Null-free space' } });
  e.edit({ kind: 'space.update', spaceId: space.id, patch: { description: 'described' } });
  const project = e.edit({
    kind: 'project.create',
    spaceId: space.id,
    fields: { projectName: 'Null-free project' },
  });
  e.edit({ kind: 'project.update', projectId: project.id, patch: { description: 'd' } });
  const task = e.edit({ kind: 'task.create', fields: { taskTitle: 'Personal, no nulls' } });
  e.edit({ kind: 'task.update', taskId: task.id, patch: { priority: 'High', tags: ['x'] } });
  const inProject = e.edit({
    kind: 'task.create',
    projectId: project.id,
    fields: { taskTitle: 'In a project' },
  });
  e.edit({ kind: 'task.create', parentTaskId: inProject.id, fields: { taskTitle: 'Sub' } });
  const gone = e.edit({ kind: 'task.create', fields: { taskTitle: 'To delete' } });
  const item = e.edit({ kind: 'checklist.create', taskId: task.id, name: 'item' });
  e.edit({ kind: 'checklist.update', checklistId: item.id, patch: { completed: true } });
  const item2 = e.edit({ kind: 'checklist.create', taskId: task.id, name: 'item 2' });
  e.edit({ kind: 'checklist.delete', checklistId: item2.id });
  const file = { name: 'a.txt', contentType: 'text/plain', dataBase64: btoa('hello') };
  e.edit({ kind: 'attachment.upload', taskId: task.id, files: [file, { ...file, name: 'b.txt' }] });
  const now = Date.now();
  e.edit({
    kind: 'timer.range',
    taskId: task.id,
    startTime: now - 7_200_000,
    endTime: now - 3_600_000,
  });
  e.edit({
    kind: 'timer.manual',
    taskId: inProject.id,
    hours: 1,
    minutes: 5,
    startTime: now - 9e6,
  });
  const timer = e.edit({ kind: 'timer.start', taskId: task.id, notes: null });
  e.edit({ kind: 'timer.pause', trackId: timer.id });
  e.edit({ kind: 'timer.resume', trackId: timer.id });
  e.edit({ kind: 'timer.stop', trackId: timer.id });
  await settle(e);
  const files = e.replica.db
    .prepare('SELECT attachment_id AS id FROM attachments WHERE task_id = ? ORDER BY 1')
    .all(serverId('task', task.id)) as { id: number }[];
  expect(files).toHaveLength(2);
  e.edit({ kind: 'attachment.rename', attachmentId: files[0]?.id ?? 0, fileName: 'renamed' });
  e.edit({ kind: 'attachment.delete', attachmentId: files[1]?.id ?? 0 });
  e.edit({ kind: 'timer.update', trackId: serverId('timer', timer.id), patch: { notes: 'n' } });
  e.edit({ kind: 'task.delete', taskId: gone.id });
  const running = e.edit({ kind: 'timer.start', taskId: inProject.id });
  const notices = e.replica.db
    .prepare('SELECT notification_id AS id FROM notifications ORDER BY 1')
    .all() as { id: number }[];
  if (notices[0]) e.edit({ kind: 'notification.read', notificationId: notices[0].id });
  if (notices[1]) e.edit({ kind: 'notification.delete', notificationId: notices[1].id });
  await settle(e);
  e.edit({ kind: 'timer.delete', trackId: serverId('timer', running.id) });
  e.edit({ kind: 'project.delete', projectId: serverId('project', project.id) });
  await settle(e);
  return { taskId: serverId('task', task.id) };
};

describe('answers without their null fields (NON_NULL)', () => {
  let server: RunningServer;
  let proxy: HostileProxy;

  it('fill, edits of every kind and delta pulls leave the same replica as full answers', async () => {
    server = await startServer({ dataDir: null, admin: true, seed: { kind: 'demo' } });
    opened.push(server);
    let stripped = 0;
    proxy = await startProxy(server.url, ({ json }) => {
      const out = stripNulls(json);
      if (JSON.stringify(out) !== JSON.stringify(json)) stripped++;
      return out;
    });
    opened.push(proxy);

    const plain = await engineOn(server.url, opened);
    const nonNull = await engineOn(proxy.url, opened);
    expect(nonNull.engine.status().lastError).toBeNull();
    expect(plain.engine.status().lastError).toBeNull();
    expect(stripped).toBeGreaterThan(0);
    expect((dump(nonNull.engine).tasks ?? []).length).toBeGreaterThan(0);
    expect(dump(nonNull.engine)).toEqual(dump(plain.engine));

    // Edits through the stripping proxy: every answer they get has its nulls left out.
    const { taskId } = await editEverything(nonNull.engine);
    // And some through the straight engine, for the other's delta pull to bring.
    const t = plain.engine.edit({ kind: 'task.create', fields: { taskTitle: 'From A' } });
    plain.engine.edit({ kind: 'checklist.create', taskId: t.id, name: 'from A' });
    await settle(plain.engine);
    await nonNull.engine.syncNow();
    await plain.engine.syncNow();
    expect(nonNull.engine.status().lastError).toBeNull();
    expect(plain.engine.status().lastError).toBeNull();
    const known = timerIdsOf(plain.engine);
    expect(timerIdsOf(nonNull.engine)).toEqual(expect.arrayContaining(known));
    expect(dump(nonNull.engine, known)).toEqual(dump(plain.engine));

    const comments = await nonNull.engine.lazy.comments(taskId);
    expect(comments.value).toEqual(stripNulls((await plain.engine.lazy.comments(taskId)).value));
    const seeded = (
      server.deps.db.prepare('SELECT task_id FROM comments LIMIT 1').get() as
        | { task_id: number }
        | undefined
    )?.task_id;
    if (seeded !== undefined)
      expect((await nonNull.engine.lazy.comments(seeded)).value).toEqual(
        stripNulls((await plain.engine.lazy.comments(seeded)).value),
      );
  }, 60_000);
});
