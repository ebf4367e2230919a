/**
 * A timer stopped by the next start, then deleted, all while offline: the stop must still go
 * before the next start. Found by the model test (MODEL_SEED=528976928): the delete replaced
 * the stop queued before it (as it replaces a deleted entity's queued edits), so the next
 * start reached the server while the first timer still ran there, and was refused (409: one
 * running or paused timer per user).
 */
import { describe, expect, it } from 'vitest';
import { engineSetup, serverIdOf, settle } from './engine-setup';

const setUp = engineSetup();

describe('a stopped timer deleted while a later start waits', () => {
  it('stops it on the server before the next start; nothing fails', async () => {
    const { server, engine } = await setUp();
    const tasks = engine.replica.db
      .prepare('SELECT task_id FROM tasks WHERE parent_task_id IS NULL AND task_id > 0 LIMIT 2')
      .pluck()
      .all() as number[];
    const [one, two] = tasks;
    if (one === undefined || two === undefined) throw new Error('the demo has tasks');
    const first = engine.edit({ kind: 'timer.start', taskId: one });
    await settle(engine);
    const firstId = serverIdOf(engine, 'timer', first.id);
    engine.pause();
    // The second start stops the first; the user then deletes the first, stopped, entry.
    const second = engine.edit({ kind: 'timer.start', taskId: two });
    engine.edit({ kind: 'timer.delete', trackId: firstId });
    engine.resume();
    await settle(engine);
    const rows = server.deps.db
      .prepare('SELECT track_id, state FROM timers WHERE track_id IN (?, ?)')
      .all(firstId, serverIdOf(engine, 'timer', second.id));
    expect(rows).toEqual([{ track_id: serverIdOf(engine, 'timer', second.id), state: 'RUNNING' }]);
  });
});
