import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EditCommand } from '../../shared/edits/commands';
import { CLIENT, DEADLINE, NOW } from '../db/queries/read.fixture';
import { readTask } from '../db/queries/tasks-read';
import { readChecklist, taskDetail } from '../db/queries/views';
import { Replica } from '../db/replica';
import { applyEdit } from '../edits';
import { type EditFixture, editFixture } from '../edits/test-support';
import { refreshCounts } from '../edits/write-tasks';
import { markConflict, markInflight, retryLater, settle } from '../outbox';
import { editRecorded, HISTORY_LIMIT, type HistoryIo, redo, undo } from '.';

let f: EditFixture;
let io: HistoryIo;
beforeEach(() => {
  f = editFixture();
  io = { db: f.db, now: NOW, userId: 1, filesDir: f.dir, apply: (c) => applyEdit(f.db, c, f.ctx) };
});
afterEach(() => f.close());

const edit = (...commands: EditCommand[]) => editRecorded(io, commands);
const title = (id: number) => readTask(f.db, id, NOW)?.taskTitle;
const steps = () => f.db.prepare('SELECT count(*) AS n FROM history_steps').get() as { n: number };

describe('history: updates', () => {
  it('undo sets the fields back through the outbox; redo sets them again', () => {
    edit({ kind: 'task.update', taskId: 2, patch: { taskTitle: 'New name' } });
    expect(undo(io)).toMatchObject({ label: 'Renamed “Review the SPEC” to “New name”' });
    expect(title(2)).toBe('Review the SPEC');
    // The undo is an edit like any: merged into the queued update, which now sends the old name.
    expect(f.rows()).toHaveLength(1);
    expect(f.rows()[0]?.body).toMatchObject({ taskTitle: 'Review the SPEC' });
    expect(redo(io)).toMatchObject({ entities: ['task:2'] });
    expect(title(2)).toBe('New name');
    expect(undo(io)).not.toBeNull();
    expect(undo(io)).toBeNull();
  });

  it("never reverts another writer's later change of a field", () => {
    edit({ kind: 'task.update', taskId: 2, patch: { taskTitle: 'Mine', priority: 'Low' } });
    // Someone else's title arrives (a pull writes the replica).
    f.db.prepare("UPDATE tasks SET title = 'Theirs' WHERE task_id = 2").run();
    const step = undo(io);
    expect(title(2)).toBe('Theirs');
    expect(readTask(f.db, 2, NOW)?.priority).toBe('Medium');
    expect(step?.label).toContain('taskTitle changed since, left as it is');
  });

  it('is a no-op, said in the label, when every field changed since', () => {
    edit({ kind: 'checklist.update', checklistId: 72, patch: { name: 'Mine' } });
    f.db.prepare("UPDATE checklist_items SET name = 'Theirs' WHERE checklist_id = 72").run();
    const before = f.rows();
    expect(undo(io)?.label).toContain('nothing was undone');
    expect(f.rows()).toEqual(before);
  });

  it('an edit that changes nothing is no step (a field committed again on blur)', () => {
    edit({ kind: 'task.update', taskId: 2, patch: { taskTitle: 'Once' } });
    edit({ kind: 'task.update', taskId: 2, patch: { taskTitle: 'Once' } });
    undo(io);
    expect(title(2)).toBe('Review the SPEC');
  });

  it('a new edit clears the redo stack', () => {
    edit({ kind: 'task.update', taskId: 2, patch: { taskTitle: 'a' } });
    undo(io);
    edit({ kind: 'task.update', taskId: 2, patch: { taskTitle: 'b' } });
    expect(redo(io)).toBeNull();
    expect(title(2)).toBe('b');
  });

  it(`keeps the last ${HISTORY_LIMIT} steps`, () => {
    for (let i = 0; i < HISTORY_LIMIT + 5; i++)
      edit({ kind: 'task.update', taskId: 2, patch: { taskTitle: `t${i}` } });
    expect(steps().n).toBe(HISTORY_LIMIT);
  });
});

describe('history: creates', () => {
  it('a create still queued and its undo send nothing; redo makes it again', () => {
    const [made] = edit({ kind: 'task.create', fields: { taskTitle: 'Tmp' } });
    edit({ kind: 'checklist.create', taskId: made?.id ?? 0, name: 'item' });
    undo(io);
    expect(f.rows().map((r) => r.kind)).toEqual(['task.create']);
    undo(io);
    expect(f.rows()).toEqual([]);
    expect(readTask(f.db, made?.id ?? 0, NOW)).toBeNull();
    redo(io);
    redo(io);
    // The item's step named the first local id: it finds the task made again.
    const again = f.rows();
    expect(again.map((r) => r.kind)).toEqual(['task.create', 'checklist.create']);
    expect(again[1]?.path.taskId).toBe(again[0]?.path.taskId ?? again[1]?.path.taskId);
    const id = Number(again[0]?.entity.split(':')[1]);
    expect(readChecklist(f.db, id).map((c) => c.name)).toEqual(['item']);
  });

  it('a batch is one step, undone all together', () => {
    edit(
      { kind: 'task.update', taskId: 2, patch: { status: 'Done' } },
      { kind: 'task.update', taskId: 7, patch: { status: 'Done' } },
    );
    expect(undo(io)?.label).toBe('Changed 2 tasks');
    expect(readTask(f.db, 2, NOW)?.status).toBe('In Progress');
    expect(readTask(f.db, 7, NOW)?.status).toBe('In Review');
  });
});

describe('history: deletes', () => {
  it('a delete still queued: the row goes, the task comes back whole, nothing is sent', () => {
    refreshCounts(f.db, [1, 5, 6]);
    const before = taskDetail(f.db, 1, NOW);
    edit({ kind: 'task.delete', taskId: 1 });
    expect(readTask(f.db, 1, NOW)).toBeNull();
    const step = undo(io);
    expect(step?.entities).toContain('task:1');
    expect(taskDetail(f.db, 1, NOW)).toEqual(before);
    expect(readChecklist(f.db, 5)).toHaveLength(2);
    expect(f.rows()).toEqual([]);
  });

  const failedOnce = (mutationId: number | null, message: string) => {
    markInflight(f.db, mutationId ?? 0, NOW);
    retryLater(f.db, mutationId ?? 0, { kind: 'network', failure: 'retry', message }, NOW, NOW);
  };

  it('a delete tried once while the server could not be reached is dropped, not sent', () => {
    const [del] = edit({ kind: 'task.delete', taskId: 2 });
    failedOnce(del?.mutationId ?? null, 'network error: connect ECONNREFUSED 127.0.0.1:9');
    undo(io);
    expect(f.rows()).toEqual([]);
    expect(title(2)).toBe('Review the SPEC');
  });

  it('a delete whose attempt may have reached the server is undone by a recreate', () => {
    const [del] = edit({ kind: 'task.delete', taskId: 2 });
    failedOnce(del?.mutationId ?? null, 'network error: other side closed');
    undo(io);
    expect(f.rows().map((r) => r.kind)).toEqual(['task.delete', 'task.create']);
  });

  it('edits queued before the delete come back with it', () => {
    edit({ kind: 'task.update', taskId: 2, patch: { taskTitle: 'Queued' } });
    edit({ kind: 'task.delete', taskId: 2 });
    undo(io);
    expect(title(2)).toBe('Queued');
    expect(f.rows().map((r) => r.kind)).toEqual(['task.update']);
  });

  it('a create undone after its task went: its refused row goes too, never sent', () => {
    const [made] = edit({ kind: 'checklist.create', taskId: 2, name: 'Later' });
    const id = made?.mutationId ?? 0;
    // Someone deleted the task: the server refused the item, and a pull took the task away.
    markInflight(f.db, id, NOW);
    markConflict(
      f.db,
      id,
      { kind: 'not-found', failure: 'conflict', message: 'task not found' },
      NOW,
    );
    f.db.prepare('DELETE FROM tasks WHERE task_id = 2').run();
    expect(undo(io)?.label).toContain('was already gone');
    // Kept, the row would go should the user make the task again (seed 834385570).
    expect(f.rows()).toEqual([]);
  });

  it('a delete already sent: made again with its checklist and subtasks, files said', () => {
    const items = readChecklist(f.db, 1).map((c) => [c.name, c.completed]);
    const [del] = edit({ kind: 'task.delete', taskId: 1 });
    const id = del?.mutationId ?? 0;
    markInflight(f.db, id, NOW);
    settle(f.db, id);
    const step = undo(io);
    expect(step?.label).toMatch(/could not be brought back/);
    const kinds = f.rows().map((r) => r.kind);
    expect(kinds.filter((k) => k === 'task.create')).toHaveLength(3);
    const made = f.rows().find((r) => r.kind === 'task.create');
    const newId = Number(made?.entity.split(':')[1]);
    expect(title(newId)).toBe('Write spec');
    expect(readChecklist(f.db, newId).map((c) => [c.name, c.completed])).toEqual(items);
    // Redo deletes the task made again (the step's id leads to it).
    redo(io);
    expect(readTask(f.db, newId, NOW)).toBeNull();
  });
});

describe('history: what a recreate cannot make again is said', () => {
  /** The delete, answered by the server, then undone: the step's label. */
  const sentThenUndone = (c: EditCommand) => {
    const [del] = edit(c);
    markInflight(f.db, del?.mutationId ?? 0, NOW);
    settle(f.db, del?.mutationId ?? 0);
    return undo(io)?.label;
  };

  it("a task's time entries", () => {
    f.db
      .prepare(
        `INSERT INTO timers (track_id, task_id, user_id, state, start_time, duration_seconds, observed_at)
         VALUES (501, 2, 1, 'STOPPED', ?, 60, ?), (502, 2, 1, 'STOPPED', ?, 30, ?)`,
      )
      .run(NOW - 90_000, NOW, NOW - 30_000, NOW);
    expect(sentThenUndone({ kind: 'task.delete', taskId: 2 })).toContain(
      'its 2 time entries could not be brought back',
    );
  });

  it('a project whose space someone else deleted: nothing made, no throw', () => {
    const { project_id: projectId, space_id: spaceId } = f.db
      .prepare('SELECT project_id, space_id FROM projects LIMIT 1')
      .get() as { project_id: number; space_id: number };
    const [del] = edit({ kind: 'project.delete', projectId });
    markInflight(f.db, del?.mutationId ?? 0, NOW);
    settle(f.db, del?.mutationId ?? 0);
    // A pull takes the space away.
    f.db.prepare('DELETE FROM spaces WHERE space_id = ?').run(spaceId);
    const before = f.rows();
    expect(undo(io)?.label).toContain('its space is gone: it cannot be brought back');
    expect(f.rows()).toEqual(before);
  });

  it("a task's values of its project's fields, the project deleted since and made again", () => {
    const sent = (c: EditCommand) => {
      const [del] = edit(c);
      markInflight(f.db, del?.mutationId ?? 0, NOW);
      settle(f.db, del?.mutationId ?? 0);
    };
    sent({ kind: 'task.delete', taskId: 2 });
    sent({ kind: 'project.delete', projectId: 100 });
    undo(io);
    // The project is back as a new one, without its own fields (the app cannot make a field).
    expect(undo(io)?.label).toContain('its 1 custom field value could not be brought back');
    const made = f
      .rows()
      .filter((r) => r.kind === 'task.create')
      .map((r) => r.body as { customFieldValues?: { taskCustomFieldId: number }[] })
      .at(-1);
    expect(made?.customFieldValues?.map((v) => v.taskCustomFieldId).sort()).toEqual([
      CLIENT,
      DEADLINE,
    ]);
  });

  it("a space's projects", () => {
    const { space_id: spaceId, n } = f.db
      .prepare('SELECT space_id, count(*) AS n FROM projects GROUP BY space_id LIMIT 1')
      .get() as { space_id: number; n: number };
    expect(sentThenUndone({ kind: 'space.delete', spaceId })).toContain(
      `its ${n} ${n === 1 ? 'project' : 'projects'} could not be brought back`,
    );
  });
});

describe('history: moves', () => {
  beforeEach(() => {
    f.db
      .prepare(
        `INSERT INTO timers (track_id, task_id, user_id, state, start_time, duration_seconds, observed_at)
         VALUES (500, 10, 1, 'RUNNING', ?, 0, ?)`,
      )
      .run(NOW - 60_000, NOW - 60_000);
  });

  it('a pause is undone by a resume', () => {
    edit({ kind: 'timer.pause', trackId: 500 });
    undo(io);
    expect(f.rows().map((r) => r.kind)).toEqual(['timer.pause', 'timer.resume']);
  });

  it('a stop says it cannot be undone', () => {
    edit({ kind: 'timer.stop', trackId: 500 });
    expect(undo(io)?.label).toContain('cannot be started again');
    expect(f.rows().map((r) => r.kind)).toEqual(['timer.stop']);
  });

  it('a start still queued and its undo send nothing', () => {
    edit({ kind: 'timer.stop', trackId: 500 });
    edit({ kind: 'timer.start', taskId: 2 });
    undo(io);
    expect(f.rows().map((r) => r.kind)).toEqual(['timer.stop']);
  });
});

describe('history: durable', () => {
  it('survives closing and opening the replica file', () => {
    edit({ kind: 'task.update', taskId: 2, patch: { taskTitle: 'Kept' } });
    const file = f.replica.db.name;
    f.replica.close();
    const again = Replica.openFile(file);
    try {
      const io2: HistoryIo = {
        db: again.db,
        now: NOW,
        userId: 1,
        filesDir: f.dir,
        apply: (c) => applyEdit(again.db, c, f.ctx),
      };
      expect(undo(io2)).not.toBeNull();
      expect(readTask(again.db, 2, NOW)?.taskTitle).toBe('Review the SPEC');
    } finally {
      again.close();
      f.replica = Replica.openFile(file);
    }
  });
});
