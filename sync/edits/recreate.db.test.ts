import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NOW } from '../db/queries/read.fixture';
import { readTask } from '../db/queries/tasks-read';
import { applyTaskItems } from '../db/queries/tasks-write';
import { readChecklist } from '../db/queries/views';
import { markConflict } from '../outbox';
import { installRebase, recreate } from '.';
import { EditError } from './state';
import { type EditFixture, editFixture, serverTask } from './test-support';

let f: EditFixture;
beforeEach(() => {
  f = editFixture();
  installRebase(f.replica, () => NOW);
});
afterEach(() => f.close());

const serverDeletes = (...taskIds: number[]) =>
  f.replica.transaction(() => {
    applyTaskItems(
      f.db,
      taskIds.map((id) => serverTask(id, { deleted: true })),
    );
    f.replica.noteServerWrite(taskIds.map((id) => `task:${id}`));
  });

describe('recreate', () => {
  it('an edited task deleted on the server comes back as a create with the edits', () => {
    const u = f.edit({ kind: 'task.update', taskId: 10, patch: { taskTitle: 'Call again' } });
    const item = f.edit({ kind: 'checklist.create', taskId: 10, name: 'number' });
    serverDeletes(10);
    expect(f.rows().find((r) => r.mutationId === u.mutationId)?.state).toBe('conflict');
    const r = recreate(f.db, u.mutationId ?? 0, NOW);
    expect(r.id).toBeLessThan(0);
    const rows = f.rows();
    expect(rows.map((m) => [m.kind, m.operationId])).toEqual([
      ['checklist.create', 'createCheckListForTask'],
      ['task.create', 'createTask'],
    ]);
    expect(rows[1]?.body).toMatchObject({ taskTitle: 'Call again', owners: [1] });
    // The item created on the old task now waits for the new one.
    expect(rows[0]).toMatchObject({ path: { taskId: r.id }, dependsOn: [`task:${r.id}`] });
    expect(readTask(f.db, r.id, NOW)?.taskTitle).toBe('Call again');
    expect(readChecklist(f.db, r.id).map((c) => c.checklistId)).toEqual([item.id]);
  });

  it('a ticked item comes back as a create and the tick', () => {
    const u = f.edit({ kind: 'checklist.update', checklistId: 73, patch: { completed: true } });
    markConflict(
      f.db,
      u.mutationId ?? 0,
      { kind: 'not-found', failure: 'conflict', status: 404, message: 'gone' },
      NOW,
    );
    // The pusher met the 404 before any pull: the replica still shows the old item.
    const r = recreate(f.db, u.mutationId ?? 0, NOW);
    expect(f.rows().map((m) => [m.operationId, m.path, m.body])).toEqual([
      ['createCheckListForTask', { taskId: 1 }, { name: 'Write draft', assigneeId: null }],
      [
        'updateCheckListForTask',
        { taskId: 1, checklistId: r.id },
        { name: 'Write draft', completed: true, assigneeId: null },
      ],
    ]);
    expect(readChecklist(f.db, 1).find((c) => c.checklistId === r.id)?.completed).toBe(true);
    expect(readChecklist(f.db, 1).map((c) => c.checklistId)).not.toContain(73);
  });

  it('refuses what cannot come back, and changes nothing', () => {
    const item = f.edit({ kind: 'checklist.update', checklistId: 81, patch: { completed: true } });
    serverDeletes(5);
    expect(() => recreate(f.db, item.mutationId ?? 0, NOW)).toThrow(/parent is gone/);
    expect(f.rows()[0]?.state).toBe('conflict');
    const ren = f.edit({ kind: 'attachment.rename', attachmentId: 91, fileName: 'x' });
    expect(() => recreate(f.db, ren.mutationId ?? 0, NOW)).toThrow(/not in conflict/);
    markConflict(
      f.db,
      ren.mutationId ?? 0,
      { kind: 'not-found', failure: 'conflict', message: 'gone' },
      NOW,
    );
    expect(() => recreate(f.db, ren.mutationId ?? 0, NOW)).toThrow(EditError);
    expect(f.rows().map((m) => m.state)).toEqual(['conflict', 'conflict']);
  });
});
