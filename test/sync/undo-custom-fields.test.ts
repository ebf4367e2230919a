/**
 * Undo of a custom field's edit, against the reference server over HTTP. Found by the model
 * test (MODEL_SEED=524946669): a value given to a field that had none, undone, stayed.
 */
import { describe, expect, it } from 'vitest';
import { engineSetup, settle } from './engine-setup';

const setUp = engineSetup();

describe('undo of a custom field set', () => {
  it('clears a field that had no value before', async () => {
    const { server, engine } = await setUp();
    const db = engine.replica.db;
    // A project task and a TEXT field of its project (or space) it has no value for.
    const pick = db
      .prepare(
        `SELECT t.task_id AS taskId, f.field_id AS fieldId FROM tasks t
         JOIN custom_fields f ON f.project_id = t.project_id
           OR (f.project_id IS NULL AND f.space_id = t.space_id)
         WHERE t.task_id > 0 AND t.parent_task_id IS NULL AND f.field_type = 'TEXT'
           AND NOT EXISTS (SELECT 1 FROM custom_field_values v
                           WHERE v.task_id = t.task_id AND v.field_id = f.field_id)
         LIMIT 1`,
      )
      .get() as { taskId: number; fieldId: number };
    // The field's value on either side: the server's store and the replica share the table.
    const valueIn = (store: typeof db) =>
      store
        .prepare('SELECT value FROM custom_field_values WHERE task_id = ? AND field_id = ?')
        .pluck()
        .get(pick.taskId, pick.fieldId);
    const serverValue = () => valueIn(server.deps.db);
    const values = server.deps.db
      .prepare(
        'SELECT field_id, value FROM custom_field_values WHERE task_id = ? ORDER BY field_id',
      )
      .all(pick.taskId);
    engine.edit({
      kind: 'task.update',
      taskId: pick.taskId,
      patch: { customFieldValues: [{ taskCustomFieldId: pick.fieldId, value: 'given' }] },
    });
    await settle(engine);
    expect(serverValue()).toBe('"given"');
    expect(engine.undo()?.kind).toBe('task.update');
    const replicaValue = db
      .prepare('SELECT value FROM custom_field_values WHERE task_id = ? AND field_id = ?')
      .pluck()
      .get(pick.taskId, pick.fieldId);
    expect(replicaValue).toBeUndefined();
    await settle(engine);
    expect(serverValue()).toBeUndefined();
    // The task's other values are as they were.
    expect(
      server.deps.db
        .prepare(
          'SELECT field_id, value FROM custom_field_values WHERE task_id = ? ORDER BY field_id',
        )
        .all(pick.taskId),
    ).toEqual(values);
  });
});

describe('undo of a delete queued after a custom field was cleared', () => {
  it('keeps the field cleared: the queued edits come back item by item', async () => {
    const { server, engine } = await setUp();
    const db = engine.replica.db;
    // A task with a value for a field (the demo gives some).
    const pick = db
      .prepare(
        `SELECT v.task_id AS taskId, v.field_id AS fieldId FROM custom_field_values v
         JOIN tasks t ON t.task_id = v.task_id WHERE t.task_id > 0 AND t.parent_task_id IS NULL
         LIMIT 1`,
      )
      .get() as { taskId: number; fieldId: number };
    // The field's value on either side: the server's store and the replica share the table.
    const valueIn = (store: typeof db) =>
      store
        .prepare('SELECT value FROM custom_field_values WHERE task_id = ? AND field_id = ?')
        .pluck()
        .get(pick.taskId, pick.fieldId);
    const serverValue = () => valueIn(server.deps.db);
    expect(serverValue()).toBeDefined();
    // Nothing is sent until the undo: the delete cannot have reached the server.
    engine.pause();
    engine.edit({
      kind: 'task.update',
      taskId: pick.taskId,
      patch: { customFieldValues: [{ taskCustomFieldId: pick.fieldId, value: null }] },
    });
    engine.edit({ kind: 'task.delete', taskId: pick.taskId });
    expect(engine.undo()?.kind).toBe('task.delete');
    const replicaValue = () => valueIn(db);
    expect(replicaValue()).toBeUndefined();
    engine.resume();
    await settle(engine);
    expect(replicaValue()).toBeUndefined();
    expect(serverValue()).toBeUndefined();
  });
});
