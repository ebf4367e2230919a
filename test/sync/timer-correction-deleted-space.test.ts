/**
 * A timer paused offline on a project's task, then the project's space deleted: the pause's
 * answer (later than the user's pause) would be corrected with an updateTimer, which reaches
 * the server after the space's delete took the timer with it. Found by the model test
 * (MODEL_SEED=529117886): the correction met a 404 and stayed a conflict.
 */
import { describe, expect, it } from 'vitest';
import { engineSetup, settle, sleep } from './engine-setup';

const setUp = engineSetup();

describe("a timer correction after its task's space is deleted", () => {
  it('is not queued: nothing fails', async () => {
    const { engine } = await setUp();
    const t = engine.replica.db
      .prepare(
        `SELECT task_id AS id, space_id AS spaceId FROM tasks
         WHERE project_id IS NOT NULL AND parent_task_id IS NULL AND task_id > 0 LIMIT 1`,
      )
      .get() as { id: number; spaceId: number };
    const started = engine.edit({ kind: 'timer.start', taskId: t.id });
    await settle(engine);
    engine.pause();
    engine.edit({ kind: 'timer.pause', trackId: started.id });
    // The pause reaches the server well after the user pressed it: its answer differs.
    await sleep(1_500);
    engine.edit({ kind: 'space.delete', spaceId: t.spaceId });
    engine.resume();
    await settle(engine);
    expect(engine.status().failed).toEqual([]);
  });
});
