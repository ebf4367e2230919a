/**
 * An update whose answer was lost, then a delete of the same task: the delete must reach the
 * server. Found by the model test (MODEL_PROJECT_DELETES=1 MODEL_SEED=512039266): a pull that
 * wrote the spaces re-applied the update of a project task (its path names the space), found
 * the task absent (deleted here, by the queued delete) and took it for deleted on the server;
 * the update became a conflict and the delete never went.
 */
import { describe, expect, it } from 'vitest';
import { engineSetup, faults, settle, sleep } from './engine-setup';

const setUp = engineSetup();

describe('an update with a lost answer, then a delete', () => {
  it('deletes the task on the server; nothing ends as a conflict', async () => {
    const { server, engine } = await setUp();
    const t = engine.replica.db
      .prepare(
        `SELECT task_id AS id, project_id AS projectId, space_id AS spaceId FROM tasks
         WHERE project_id IS NOT NULL AND parent_task_id IS NULL AND task_id > 0 LIMIT 1`,
      )
      .get() as { id: number; projectId: number; spaceId: number };
    // The update is on its way (slow) when the user deletes the task, so the two cannot fold
    // into one; its answer is then lost, though the server applied it.
    await faults(server, {
      spec: 'latency=200-200',
      rules: [{ kind: 'drop', method: 'PUT', count: 1 }],
    });
    engine.edit({ kind: 'task.update', taskId: t.id, patch: { priority: 'Low' } });
    const pushing = engine.syncNow();
    const inflight = () =>
      engine.replica.db
        .prepare("SELECT COUNT(*) FROM outbox WHERE state = 'inflight'")
        .pluck()
        .get();
    for (let i = 0; i < 400 && inflight() === 0; i++) await sleep(5);
    expect(inflight()).toBe(1);
    engine.edit({ kind: 'task.delete', taskId: t.id });
    expect(engine.status().pending).toBe(2);
    await pushing;
    await faults(server, { clear: true });
    // Every pull writes the spaces; the rows naming the task's space are applied again.
    await settle(engine);
    const row = server.deps.db.prepare('SELECT deleted FROM tasks WHERE task_id = ?').get(t.id) as
      | { deleted: number }
      | undefined;
    expect(row === undefined || row.deleted === 1).toBe(true);
    expect(engine.changesFromSync()).toEqual([]);
  });
});
