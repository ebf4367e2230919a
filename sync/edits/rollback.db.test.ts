import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTimer } from '../db/queries/activity-read';
import { NOW } from '../db/queries/read.fixture';
import { searchTasks } from '../db/queries/search';
import { readTask } from '../db/queries/tasks-read';
import { readChecklist, readTaskAttachments, taskDetail } from '../db/queries/views';
import { discard, failPermanently, getMutation, markInflight, retryFailed } from '../outbox';
import { reapplyPending, rollBack } from '.';
import { type EditFixture, editFixture } from './test-support';
import { timerTruth } from './timers';
import { refreshCounts } from './write-tasks';

let f: EditFixture;
beforeEach(() => {
  f = editFixture();
});
afterEach(() => f.close());

const refused = {
  kind: 'validation' as const,
  failure: 'permanent' as const,
  status: 400,
  message: 'no',
};

const failAndRollBack = (mutationId: number | null) => {
  const id = mutationId ?? 0;
  markInflight(f.db, id, NOW);
  failPermanently(f.db, id, refused, NOW);
  const row = getMutation(f.db, id);
  if (row) rollBack(f.db, [row], NOW);
};

describe('rollBack', () => {
  it('a refused update gives the server row back, field for field', () => {
    const before = readTask(f.db, 2, NOW);
    const r = f.edit({ kind: 'task.update', taskId: 2, patch: { taskTitle: 'x', tags: ['t'] } });
    f.edit({ kind: 'task.update', taskId: 2, patch: { status: 'Done' } });
    failAndRollBack(r.mutationId);
    expect(readTask(f.db, 2, NOW)).toEqual(before);
    // The failed edit stays visible until the user retries or discards it.
    expect(f.rows().map((m) => m.state)).toEqual(['failed']);
  });

  it('a retried edit shows again once re-applied', () => {
    const r = f.edit({ kind: 'task.update', taskId: 2, patch: { taskTitle: 'again' } });
    failAndRollBack(r.mutationId);
    expect(readTask(f.db, 2, NOW)?.taskTitle).toBe('Review the SPEC');
    retryFailed(f.db, r.mutationId ?? 0, NOW);
    reapplyPending(f.db, new Set([`task:2`]), { now: NOW });
    expect(readTask(f.db, 2, NOW)?.taskTitle).toBe('again');
    expect(f.rows()[0]).toMatchObject({ state: 'pending', body: { taskTitle: 'again' } });
  });

  it('a discarded delete brings the task back with its subtasks, checklist and files', () => {
    // Counts as the server has them (the fixture leaves subtask 5's at 0).
    refreshCounts(f.db, [1, 5, 6]);
    const before = taskDetail(f.db, 1, NOW);
    const found = () => searchTasks(f.db, 'spec').map((h) => h.taskId);
    expect(found()).toContain(1);
    const r = f.edit({ kind: 'task.delete', taskId: 1 });
    expect(readTask(f.db, 1, NOW)).toBeNull();
    rollBack(f.db, discard(f.db, r.mutationId ?? 0).mutations, NOW);
    expect(taskDetail(f.db, 1, NOW)).toEqual(before);
    // The search index follows the rows (the triggers on tasks).
    expect(found()).toContain(1);
    expect(readChecklist(f.db, 5)).toHaveLength(2);
    expect(readTaskAttachments(f.db, 5)).toHaveLength(1);
  });

  it('a discarded create removes the local rows and those of edits depending on it', () => {
    const t = f.edit({ kind: 'task.create', parentTaskId: 9, fields: { taskTitle: 'tmp' } });
    const item = f.edit({ kind: 'checklist.create', taskId: t.id, name: 'on tmp' });
    const dropped = discard(f.db, t.mutationId ?? 0);
    expect(dropped.mutations).toHaveLength(2);
    expect(searchTasks(f.db, 'tmp').map((h) => h.taskId)).toEqual([t.id]);
    rollBack(f.db, dropped.mutations, NOW);
    expect(searchTasks(f.db, 'tmp')).toEqual([]);
    expect(readTask(f.db, t.id, NOW)).toBeNull();
    expect(readChecklist(f.db, t.id)).toEqual([]);
    expect(
      f.db.prepare('SELECT 1 FROM checklist_items WHERE checklist_id = ?').get(item.id),
    ).toBeUndefined();
    expect(readTask(f.db, 9, NOW)?.subtaskCount).toBe(1);
    expect(f.rows()).toEqual([]);
  });

  it('edits still queued for the entity go on top of the restored row', () => {
    const a = f.edit({ kind: 'checklist.update', checklistId: 72, patch: { name: 'Renamed' } });
    markInflight(f.db, a.mutationId ?? 0, NOW);
    // In flight, the row is not merged: the toggle queues behind it.
    f.edit({ kind: 'checklist.update', checklistId: 72, patch: { completed: true } });
    failPermanently(f.db, a.mutationId ?? 0, refused, NOW);
    rollBack(
      f.db,
      [getMutation(f.db, a.mutationId ?? 0)].filter((m) => m !== undefined),
      NOW,
    );
    // The toggle's body carries the full state it was made with (name included).
    expect(readChecklist(f.db, 1).find((c) => c.checklistId === 72)).toMatchObject({
      name: 'Renamed',
      completed: true,
      assigneeId: 1,
    });
  });

  it("a timer's record is rebuilt from the restored row and the moves still queued", () => {
    f.replica.transaction(() => {
      f.db
        .prepare(
          `INSERT INTO timers (track_id, task_id, user_id, state, start_time, duration_seconds, observed_at)
           VALUES (500, 10, 1, 'RUNNING', ?, 0, ?)`,
        )
        .run(NOW - 60_000, NOW - 60_000);
    });
    const pause = f.edit({ kind: 'timer.pause', trackId: 500 }, NOW);
    f.edit({ kind: 'timer.update', trackId: 500, patch: { notes: 'n' } }, NOW + 1000);
    markInflight(f.db, pause.mutationId ?? 0, NOW);
    failPermanently(f.db, pause.mutationId ?? 0, refused, NOW);
    rollBack(
      f.db,
      [getMutation(f.db, pause.mutationId ?? 0)].filter((m) => m !== undefined),
      NOW,
    );
    // Without the pause the timer runs on; the queued update still applies its notes.
    expect(timerTruth(f.db, 500, NOW + 60_000)).toMatchObject({ state: 'RUNNING', notes: 'n' });
    expect(readTimer(f.db, 500, NOW + 60_000)).toMatchObject({ state: 'RUNNING', notes: 'n' });
  });
});
