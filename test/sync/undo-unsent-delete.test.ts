/**
 * A delete undone before it was sent: the engine drops it and rolls the replica back, and the
 * edits queued before it go to the server as if it never was. Found by the model test
 * (MODEL_SEED=524946669): a project task's field set, then its space deleted, then undone.
 */
import { describe, expect, it } from 'vitest';
import { engineSetup, faults, settle } from './engine-setup';

const setUp = engineSetup();

/** A task of the demo's in a project (with custom field values, as the demo's are). */
const projectTask = (db: Awaited<ReturnType<typeof setUp>>['engine']['replica']['db']) =>
  db
    .prepare(
      `SELECT task_id AS id, project_id AS projectId, space_id AS spaceId FROM tasks
       WHERE project_id IS NOT NULL AND parent_task_id IS NULL AND task_id > 0 LIMIT 1`,
    )
    .get() as { id: number; projectId: number; spaceId: number };

describe('undo of a delete that was never sent', () => {
  it.each(['space', 'project'] as const)(
    "of the task's %s: the task is back, its edit reaches the server",
    async (holder) => {
      const { server, engine } = await setUp();
      const db = engine.replica.db;
      const t = projectTask(db);
      // Nothing is sent until the undo: the delete cannot have reached the server.
      engine.pause();
      engine.edit({ kind: 'task.update', taskId: t.id, patch: { taskTitle: 'kept through' } });
      engine.edit(
        holder === 'space'
          ? { kind: 'space.delete', spaceId: t.spaceId }
          : { kind: 'project.delete', projectId: t.projectId },
      );
      expect(engine.undo()?.kind).toBe(`${holder}.delete`);
      const title = () => db.prepare('SELECT title FROM tasks WHERE task_id = ?').pluck().get(t.id);
      expect(title()).toBe('kept through');
      engine.resume();
      await settle(engine);
      expect(title()).toBe('kept through');
      expect(
        server.deps.db.prepare('SELECT title, deleted FROM tasks WHERE task_id = ?').get(t.id),
      ).toEqual({ title: 'kept through', deleted: 0 });
    },
  );

  // The task's edit is answered while the delete waits: the delete's base held the task as it
  // was before the edit. And a pull re-reads the base from the replica (the server sent the
  // space again): the projects and tasks the delete had removed here were missing from it.
  it.each(['space', 'project'] as const)(
    "of the task's %s, with a pull while it waited: the task is back",
    async (holder) => {
      const { server, engine } = await setUp();
      const db = engine.replica.db;
      const t = projectTask(db);
      // Refused unprocessed (429): the delete waits, and cannot have reached the server.
      await faults(server, { rules: [{ kind: '429', method: 'DELETE', count: 1000 }] });
      engine.edit({ kind: 'task.update', taskId: t.id, patch: { taskTitle: 'kept through' } });
      engine.edit(
        holder === 'space'
          ? { kind: 'space.delete', spaceId: t.spaceId }
          : { kind: 'project.delete', projectId: t.projectId },
      );
      await engine.syncNow();
      await engine.syncNow();
      expect(engine.undo()?.kind).toBe(`${holder}.delete`);
      const title = () => db.prepare('SELECT title FROM tasks WHERE task_id = ?').pluck().get(t.id);
      expect(title()).toBe('kept through');
      await faults(server, { clear: true });
      await settle(engine);
      expect(title()).toBe('kept through');
      expect(
        server.deps.db.prepare('SELECT title, deleted FROM tasks WHERE task_id = ?').get(t.id),
      ).toEqual({ title: 'kept through', deleted: 0 });
    },
  );
});
