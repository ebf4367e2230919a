/**
 * "Changes from sync" over real HTTP: what a sync changed of the user's own work is listed with
 * both values, who and when; "restore mine" puts the user's value on the server; a clean sync
 * lists nothing.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../sync/api';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { sleep } from './engine-setup';
import { projectTaskOf, twoMembersSetup } from './two-members';

const setUp = twoMembersSetup('changes-');

const settle = async (e: SyncEngine) => {
  for (let i = 0; i < 20 && e.status().pending > 0; i++) await e.syncNow();
  expect(e.status().pending).toBe(0);
};

/** A project task of org 2 as the server has it, with the path and body its update takes. */
const projectTask = async (c: ApiClient, taskId: number) => {
  const { t, path } = await projectTaskOf(c, taskId);
  return {
    t,
    path,
    body: {
      taskTitle: t.taskTitle,
      ...(t.status ? { status: t.status } : {}),
      ...(t.priority ? { priority: t.priority } : {}),
      owners: (t.owners ?? []).map((o) => o.userId),
    },
  };
};

const someProjectTask = (e: SyncEngine, me: number): number =>
  e.replica.db
    .prepare(
      `SELECT t.task_id FROM tasks t JOIN task_owners o ON o.task_id = t.task_id AND o.user_id = ?
       WHERE t.project_id IS NOT NULL AND t.parent_task_id IS NULL AND t.task_id > 0
       ORDER BY t.task_id LIMIT 1`,
    )
    .pluck()
    .get(me) as number;

describe('changes from sync', () => {
  it('lists nothing after a clean sync of the user’s own edits', async () => {
    const { engine, me } = await setUp();
    const id = someProjectTask(engine, me);
    engine.edit({ kind: 'task.update', taskId: id, patch: { taskTitle: 'A clean edit' } });
    await settle(engine);
    await engine.syncNow();
    expect(engine.changesFromSync()).toEqual([]);
    expect(engine.status().changesUnseen).toBe(0);
  });

  it('lists a field another member changed after the user’s edit; restore mine wins it back', async () => {
    const { engine, theirs, me } = await setUp();
    const id = someProjectTask(engine, me);
    const events: string[] = [];
    engine.on((e) => {
      if (e.type === 'sync-changes') events.push(`${e.unseen}`);
    });
    engine.pause();
    engine.edit({ kind: 'task.update', taskId: id, patch: { taskTitle: 'Mine, offline' } });
    await sleep(20);
    const p = await projectTask(theirs, id);
    await theirs.ops.updateProjectTask({
      path: p.path,
      body: { ...p.body, taskTitle: 'Theirs, later' },
    });
    engine.resume();
    await engine.syncNow();
    await settle(engine);
    expect((await theirs.ops.getTaskById({ path: { taskId: id } })).taskTitle).toBe(
      'Theirs, later',
    );
    const [change, ...rest] = engine.changesFromSync();
    expect(rest).toEqual([]);
    expect(change).toMatchObject({
      kind: 'overwritten',
      entity: `task:${id}`,
      field: 'taskTitle',
      mine: 'Mine, offline',
      theirs: 'Theirs, later',
      byUser: theirs.session.user?.userId,
      settled: false,
      seen: false,
    });
    expect(change?.at).toBeGreaterThan(0);
    expect(engine.status().changesUnseen).toBe(1);
    await sleep(10);
    expect(events).toEqual(['1']);
    engine.seeChanges();
    expect(engine.status().changesUnseen).toBe(0);

    engine.resolveChange(change?.changeId ?? 0, 'restoreMine');
    await settle(engine);
    expect((await theirs.ops.getTaskById({ path: { taskId: id } })).taskTitle).toBe(
      'Mine, offline',
    );
    expect(engine.changesFromSync()[0]).toMatchObject({ settled: true });
  });

  it('lists a refused edit; keep theirs discards it and the replica shows the server’s', async () => {
    const { engine, me } = await setUp();
    const id = someProjectTask(engine, me);
    engine.edit({ kind: 'task.update', taskId: id, patch: { status: 'Blocked' } });
    await engine.syncNow();
    const [change] = engine.changesFromSync();
    expect(change).toMatchObject({ kind: 'failed', entity: `task:${id}`, settled: false });
    expect(change?.message).toMatch(/status/i);
    expect(engine.status().failed).toHaveLength(1);
    engine.resolveChange(change?.changeId ?? 0, 'keepTheirs');
    expect(engine.status().failed).toHaveLength(0);
    expect(engine.changesFromSync()[0]).toMatchObject({ settled: true });
  });

  it('lists the user’s task deleted by another member; restore mine makes it again', async () => {
    const { engine, theirs, me, server } = await setUp();
    const id = someProjectTask(engine, me);
    const p = await projectTask(theirs, id);
    await theirs.ops.deleteProjectTask({ path: p.path });
    await engine.syncNow();
    const [change] = engine.changesFromSync();
    expect(change).toMatchObject({
      kind: 'deleted',
      entity: `task:${id}`,
      name: p.t.taskTitle,
      settled: false,
    });
    expect(engine.canRestoreChange(change ?? ({} as never))).toBe(true);
    engine.resolveChange(change?.changeId ?? 0, 'restoreMine');
    await settle(engine);
    // The server's own store: a live task again, with the title, project and owners it had.
    const again = server.deps.db
      .prepare(
        `SELECT task_id AS taskId, project_id AS projectId, description FROM tasks
         WHERE org_id = 2 AND title = ? AND deleted = 0`,
      )
      .all(p.t.taskTitle) as { taskId: number; projectId: number; description: string }[];
    expect(again).toEqual([
      { taskId: expect.any(Number), projectId: p.t.projectId, description: p.t.description ?? '' },
    ]);
    const made = await theirs.ops.getTaskById({ path: { taskId: again[0]?.taskId ?? 0 } });
    expect(made.owners?.map((o) => o.userId).sort()).toEqual(p.body.owners.sort());
    expect(made.status).toBe(p.t.status);
  });

  it('forgets changes older than 30 days', async () => {
    const { engine } = await setUp();
    engine.replica.db
      .prepare(
        `INSERT INTO sync_changes (kind, entity, message, created_at) VALUES ('adopted', 'task:1', 'old', ?)`,
      )
      .run(Date.now() - 31 * 24 * 3600_000);
    expect(engine.changesFromSync()).toEqual([]);
  });
});
