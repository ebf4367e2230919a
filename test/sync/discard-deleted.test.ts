/**
 * An edit of a task another member deleted meanwhile is a conflict; letting it go must leave
 * the task gone here too. Found by the model test's second client (MODEL_SEED=522415013
 * MODEL_PATH=27:1:0:11:7:0:12:8:2:2:4): the discard rolled the replica back to the copy the
 * edit was made on, the task showed again, and no later pull took it away (the tombstone was
 * already behind the pull's cursor).
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

const setUp = async () => {
  server = await startDemoServer();
  mine = await demoClient(server, 2, 'demo');
  theirs = await demoClient(server, 2, 'other');
  engine = testEngine(mine, 'discard-deleted-');
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
  const path = { spaceId: t.spaceId ?? 0, projectId: t.projectId ?? 0, taskId: id };
  return { engine, theirs, id, path };
};

const has = (e: SyncEngine, id: number) =>
  e.replica.db.prepare('SELECT COUNT(*) FROM tasks WHERE task_id = ?').pluck().get(id) === 1;

describe('a conflicting edit of a task deleted elsewhere, let go', () => {
  it('leaves the task gone from the replica, after the next syncs too', async () => {
    const { engine, theirs, id, path } = await setUp();
    engine.pause();
    engine.edit({ kind: 'task.update', taskId: id, patch: { priority: 'Low' } });
    await theirs.ops.deleteProjectTask({ path });
    engine.resume();
    await engine.syncNow();
    const [conflict] = engine.status().failed;
    expect(conflict).toMatchObject({ entity: `task:${id}`, state: 'conflict' });
    engine.resolveConflict(conflict?.mutationId ?? 0, 'discard');
    expect(has(engine, id)).toBe(false);
    await engine.syncNow();
    await engine.syncNow();
    expect(engine.status().failed).toEqual([]);
    expect(has(engine, id)).toBe(false);
  });
});
