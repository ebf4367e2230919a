/**
 * Lost creates on a service that ignores Idempotency-Key (the reference server's quirk): the
 * create whose answer was lost is found and adopted, never someone else's entity. Checked on
 * the server's data: how many tasks of that title exist, and which one the replica took.
 */
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { engineSetup, faults, serverIdOf, settle, sleep } from './engine-setup';
import { demoClient } from './support';

const setUp = engineSetup();
const quirky = () => setUp(0, ['ignore-idempotency-key']);

const titled = (s: RunningServer, title: string) =>
  s.deps.db
    .prepare('SELECT task_id AS id FROM tasks WHERE title = ? AND deleted = 0 ORDER BY task_id')
    .pluck()
    .all(title) as number[];

/** The same user on another device makes a task. */
const elsewhere = async (s: RunningServer, fields: { taskTitle: string; description?: string }) => {
  const other = await demoClient(s);
  const t = await other.ops.createTask({ body: fields });
  await other.close();
  return t.taskId;
};

const loseNextCreate = (s: RunningServer, count = 1) =>
  faults(s, { rules: [{ kind: 'drop', method: 'POST', pathPrefix: '/v1/tasks', count }] });

const create = (e: SyncEngine, taskTitle: string, description?: string) =>
  e.edit({
    kind: 'task.create',
    fields: description === undefined ? { taskTitle } : { taskTitle, description },
  });

describe('a lost create is adopted, never someone else’s entity', () => {
  it('takes its own entity, not the same-titled one made elsewhere just before it was sent', async () => {
    const { server: s, engine: e } = await quirky();
    const theirs = await elsewhere(s, { taskTitle: 'Same' });
    await sleep(200);
    await loseNextCreate(s);
    const mine = create(e, 'Same');
    await settle(e);
    const ids = titled(s, 'Same');
    expect(ids).toHaveLength(2);
    expect(serverIdOf(e, 'task', mine.id)).not.toBe(theirs);
    expect(e.status().notices).toEqual([]);
    // The user is told, in "Changes from sync", that the lost create was found and kept once.
    expect(e.changesFromSync()).toEqual([
      expect.objectContaining({
        kind: 'adopted',
        entity: `task:${serverIdOf(e, 'task', mine.id)}`,
        name: 'Same',
      }),
    ]);
  });

  it('matches the whole body: a same-titled task with another description is not its own', async () => {
    const { server: s, engine: e } = await quirky();
    await faults(s, {
      spec: 'latency=150-150',
      rules: [{ kind: 'drop', method: 'POST', pathPrefix: '/v1/tasks', count: 1 }],
    });
    const mine = create(e, 'Twin', 'mine');
    await sleep(60);
    // Made elsewhere while this create is on its way (its answer will be lost).
    const theirs = await elsewhere(s, { taskTitle: 'Twin', description: 'theirs' });
    await faults(s, { clear: true });
    await settle(e);
    expect(titled(s, 'Twin')).toHaveLength(2);
    expect(serverIdOf(e, 'task', mine.id)).not.toBe(theirs);
    expect(e.status().notices).toEqual([]);
  });

  it('two identical creates, both answers lost: each takes one, nothing made twice', async () => {
    const { server: s, engine: e } = await quirky();
    await faults(s, { rules: [{ kind: 'reset', count: 10_000 }] });
    const a = create(e, 'Milk');
    const b = create(e, 'Milk');
    await e.syncNow();
    await faults(s, {
      clear: true,
      rules: [{ kind: 'drop', method: 'POST', pathPrefix: '/v1/tasks', count: 2 }],
    });
    await settle(e);
    const ids = titled(s, 'Milk');
    expect(ids).toHaveLength(2);
    expect(new Set([serverIdOf(e, 'task', a.id), serverIdOf(e, 'task', b.id)])).toEqual(
      new Set(ids),
    );
    expect(e.status().notices).toEqual([]);
  });

  it('cannot tell its own from an identical one made at the same moment: sends again and says so', async () => {
    const { server: s, engine: e } = await quirky();
    // Its answer is lost, and the look for it waits (the export failing) while the same user
    // makes the very same task on another device.
    await faults(s, {
      rules: [
        { kind: 'drop', method: 'POST', pathPrefix: '/v1/tasks', count: 1 },
        { kind: '5xx', method: 'GET', pathPrefix: '/v1/bulk/tasks', count: 10_000 },
      ],
    });
    const mine = create(e, 'Report');
    for (let i = 0; i < 100 && titled(s, 'Report').length === 0; i++) await sleep(10);
    await elsewhere(s, { taskTitle: 'Report' });
    await faults(s, { clear: true });
    await settle(e);
    // A visible twin beats a silent loss: three on the server, one of them this engine's.
    const ids = titled(s, 'Report');
    expect(ids).toHaveLength(3);
    expect(ids).toContain(serverIdOf(e, 'task', mine.id));
    const notices = e.status().notices;
    expect(notices).toHaveLength(1);
    expect(notices[0]?.message).toMatch(/Task “Report” was sent again.*There may now be two/);
    e.dismissNotice(notices[0]?.noticeId ?? 0);
    expect(e.status().notices).toEqual([]);
  });
});
