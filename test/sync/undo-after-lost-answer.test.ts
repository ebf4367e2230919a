/**
 * A delete whose first answer was lost after the server applied it (a 5xx after the commit),
 * then a 429 on the next attempt, then an undo: the task must be on the server again. The 429
 * said nothing of the first attempt, yet the row kept only the last error: the undo took the
 * delete for never sent, dropped it and showed the task again, and the next pull took it away
 * (deleted on the server all along): an undo lost.
 */
import { describe, expect, it } from 'vitest';
import { engineSetup, faults, settle, sleep } from './engine-setup';

const setUp = engineSetup();

describe('undo of a delete whose answer was lost, then rate-limited', () => {
  it('has the task on the server again, and in the replica', async () => {
    const { server, engine } = await setUp();
    const t = engine.replica.db
      .prepare(
        `SELECT task_id AS id, title FROM tasks WHERE task_id > 0 AND parent_task_id IS NULL
         ORDER BY task_id LIMIT 1`,
      )
      .get() as { id: number; title: string };
    await faults(server, {
      rules: [
        { kind: 'late5xx', method: 'DELETE', count: 1 },
        { kind: '429', method: 'DELETE', count: 1, retryAfterSec: 1 },
      ],
    });
    engine.edit({ kind: 'task.delete', taskId: t.id });
    const lastFailure = () => {
      const raw = engine.replica.db
        .prepare('SELECT last_error FROM outbox ORDER BY mutation_id DESC LIMIT 1')
        .pluck()
        .get() as string | null;
      return raw ? (JSON.parse(raw) as { failure: string }).failure : null;
    };
    for (let i = 0; i < 50 && lastFailure() !== 'rate-limited'; i++) {
      await engine.syncNow();
      await sleep(20);
    }
    expect(lastFailure()).toBe('rate-limited');
    const deleted = () =>
      server.deps.db
        .prepare(`SELECT COUNT(*) FROM tasks WHERE deleted = 1 AND task_id = ?`)
        .pluck()
        .get(t.id) === 1;
    expect(deleted()).toBe(true);
    expect(engine.undo()).not.toBeNull();
    await faults(server, { clear: true });
    await settle(engine);
    await engine.syncNow();
    const live = server.deps.db
      .prepare('SELECT COUNT(*) FROM tasks WHERE deleted = 0 AND title = ?')
      .pluck()
      .get(t.title);
    expect(live).toBe(1);
    const shown = engine.replica.db
      .prepare('SELECT COUNT(*) FROM tasks WHERE title = ?')
      .pluck()
      .get(t.title);
    expect(shown).toBe(1);
  });
});
