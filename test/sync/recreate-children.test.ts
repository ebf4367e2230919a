/**
 * A task another member deleted while the user, offline, edited it and added a checklist item:
 * the edit is a conflict, the item's create is refused (its task is gone). Making the task
 * again must bring the item with it. Found by the model test's second client
 * (MODEL_SEED=523378625 MODEL_PATH=213:0:2:2:4:4:7:6:7:7:10:11): the item's create stayed
 * failed for good, on the old task.
 */
import { describe, expect, it } from 'vitest';
import { firstProjectTask, projectTaskOf, twoMembersSetup } from './two-members';

const setUp = twoMembersSetup('recreate-children-');

describe('a deleted task made again', () => {
  it('brings back the checklist item added to it offline', async () => {
    const { server, engine, theirs } = await setUp();
    const id = firstProjectTask(engine);
    const { t, path } = await projectTaskOf(theirs, id);
    engine.pause();
    engine.edit({ kind: 'task.update', taskId: id, patch: { priority: 'Low' } });
    engine.edit({ kind: 'checklist.create', taskId: id, name: 'Added offline' });
    await theirs.ops.deleteProjectTask({ path });
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
