/**
 * A task another member deleted while the user, offline, edited it and added a checklist item:
 * the edit is a conflict, the item's create is refused (its task is gone). Making the task
 * again must bring the item with it. Found by the model test's second client
 * (MODEL_SEED=523378625 MODEL_PATH=213:0:2:2:4:4:7:6:7:7:10:11): the item's create stayed
 * failed for good, on the old task.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { ApiClient } from '../../sync/api';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { testEngine } from './engine-setup';
import { demoClient, startDemoServer } from './support';

let server: RunningServer | undefined;
let mine: ApiClient | undefined;
let theirs: ApiClient | undefined;
let engine: SyncEngine | undefined;

afterEach(async () => {
  await engine?.close();
  await mine?.close();
  await theirs?.close();
  await server?.close();
  engine = mine = theirs = server = undefined;
});

describe('a deleted task made again', () => {
  it('brings back the checklist item added to it offline', async () => {
    server = await startDemoServer();
    mine = await demoClient(server, 2, 'demo');
    theirs = await demoClient(server, 2, 'other');
    engine = testEngine(mine, 'recreate-children-');
    engine.start();
    await engine.syncNow();
    const id = engine.replica.db
      .prepare(
        `SELECT task_id FROM tasks WHERE project_id IS NOT NULL AND parent_task_id IS NULL
         AND task_id > 0 ORDER BY task_id LIMIT 1`,
      )
      .pluck()
      .get() as number;
    const t = await theirs.ops.getTaskById({ path: { taskId: id } });
    engine.pause();
    engine.edit({ kind: 'task.update', taskId: id, patch: { priority: 'Low' } });
    engine.edit({ kind: 'checklist.create', taskId: id, name: 'Added offline' });
    await theirs.ops.deleteProjectTask({
      path: { spaceId: t.spaceId ?? 0, projectId: t.projectId ?? 0, taskId: id },
    });
    engine.resume();
    await engine.syncNow();
    await engine.syncNow();
    const conflict = engine.status().failed.find((f) => f.state === 'conflict');
    expect(conflict).toMatchObject({ entity: `task:${id}` });
    const made = engine.resolveConflict(conflict?.mutationId ?? 0, 'recreate');
    expect(made).not.toBeNull();
    for (let i = 0; i < 10 && engine.status().pending > 0; i++) await engine.syncNow();
    expect(engine.status().failed).toEqual([]);
    expect(engine.status().pending).toBe(0);
    const again = server.deps.db
      .prepare('SELECT task_id FROM tasks WHERE org_id = 2 AND title = ? AND deleted = 0')
      .pluck()
      .all(t.taskTitle) as number[];
    expect(again).toHaveLength(1);
    const items = server.deps.db
      .prepare('SELECT name FROM checklist_items WHERE task_id = ?')
      .pluck()
      .all(again[0]);
    expect(items).toEqual(['Added offline']);
    // Nothing left to resolve in "Changes from sync": the refused create went again.
    expect(engine.changesFromSync().filter((c) => !c.settled && c.kind === 'failed')).toEqual([]);
  });
});
