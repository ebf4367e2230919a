/**
 * Deleting a project or a space takes its tasks' timers with it on the server; the user's
 * running one there is stopped first, as a task's delete already does. Without the stop, the
 * next start on another task could reach the server while that timer still ran there (the
 * delete held back) and be refused: one running timer per user. Found by the soak (seed
 * 812705728).
 */
import { describe, expect, it } from 'vitest';
import { engineSetup, faults, settle } from './engine-setup';

const setUp = engineSetup();

describe.each([
  ['space', 'space_id'],
  ['project', 'project_id'],
] as const)("a timer running on a %s's task, the %s deleted", (kind, column) => {
  it('is stopped first: a start on another task is not refused', async () => {
    const { server, engine } = await setUp();
    const db = engine.replica.db;
    const t = db
      .prepare(
        `SELECT task_id AS id, ${column} AS holder FROM tasks
         WHERE project_id IS NOT NULL AND parent_task_id IS NULL AND task_id > 0 LIMIT 1`,
      )
      .get() as { id: number; holder: number };
    const other = db
      .prepare('SELECT task_id AS id FROM tasks WHERE project_id IS NULL AND task_id > 0 LIMIT 1')
      .get() as { id: number };
    engine.edit({ kind: 'timer.start', taskId: t.id });
    await settle(engine);
    // The delete's first try fails before the server applies it: the start goes first.
    await faults(server, { rules: [{ kind: '5xx', method: 'DELETE', count: 1 }] });
    engine.pause();
    engine.edit(
      kind === 'space'
        ? { kind: 'space.delete', spaceId: t.holder }
        : { kind: 'project.delete', projectId: t.holder },
    );
    engine.edit({ kind: 'timer.start', taskId: other.id });
    engine.resume();
    await settle(engine);
    const running = server.deps.db
      .prepare("SELECT task_id AS taskId FROM timers WHERE state = 'RUNNING'")
      .all() as { taskId: number }[];
    expect(running).toEqual([{ taskId: other.id }]);
  });
});
