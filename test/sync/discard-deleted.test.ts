/**
 * An edit of a task another member deleted meanwhile is a conflict; letting it go must leave
 * the task gone here too. Found by the model test's second client (MODEL_SEED=522415013
 * MODEL_PATH=27:1:0:11:7:0:12:8:2:2:4): the discard rolled the replica back to the copy the
 * edit was made on, the task showed again, and no later pull took it away (the tombstone was
 * already behind the pull's cursor).
 */
import { describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { firstProjectTask, projectTaskOf, twoMembersSetup } from './two-members';

const start = twoMembersSetup('discard-deleted-');

const setUp = async () => {
  const { engine, theirs } = await start();
  const id = firstProjectTask(engine);
  const { path } = await projectTaskOf(theirs, id);
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
