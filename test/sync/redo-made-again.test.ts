/**
 * Redo of a step on something a redo made again: the step names the entity by an id of its
 * past. Found by the model test (soak seed 1842135039): a task made offline, an item added to
 * it, the item undone and redone once the task had its server id (the redo named the task by
 * it), then both undone and redone: the task was made again under a new id, and the item's
 * redo was skipped, "task N is not in the replica".
 */
import { describe, expect, it } from 'vitest';
import { engineSetup, serverIdOf, settle } from './engine-setup';

const setUp = engineSetup();

describe('redo after the entity was made again', () => {
  it('an item redone on a task the redo made again lands on the new task', async () => {
    const { server, engine } = await setUp();
    const task = engine.edit({ kind: 'task.create', fields: { taskTitle: 'made twice' } });
    engine.edit({ kind: 'checklist.create', taskId: task.id, name: 'on it' });
    // The item undone and redone once the task reached the server: the redo names the task by
    // its server id.
    expect(engine.undo()?.kind).toBe('checklist.create');
    await settle(engine);
    expect(engine.redo()?.kind).toBe('checklist.create');
    await settle(engine);
    const first = serverIdOf(engine, 'task', task.id);
    // Both undone (the task deleted on the server), then both redone.
    expect(engine.undo()?.kind).toBe('checklist.create');
    expect(engine.undo()?.kind).toBe('task.create');
    await settle(engine);
    expect(engine.redo()?.kind).toBe('task.create');
    const again = engine.redo();
    expect(again?.kind).toBe('checklist.create');
    expect(again?.label).not.toMatch(/skipped/);
    await settle(engine);
    const rows = server.deps.db
      .prepare(
        `SELECT t.task_id AS taskId, t.deleted AS deleted FROM checklist_items c
         JOIN tasks t ON t.task_id = c.task_id WHERE c.name = ?`,
      )
      .all('on it') as { taskId: number; deleted: number }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]?.taskId).not.toBe(first);
    expect(rows[0]?.deleted).toBe(0);
    expect(
      server.deps.db
        .prepare('SELECT title FROM tasks WHERE task_id = ?')
        .pluck()
        .get(rows[0]?.taskId),
    ).toBe('made twice');
  });
});
