import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTimer, unreadCount } from '../db/queries/activity-read';
import { replaceActiveTimers, writeNotification } from '../db/queries/activity-write';
import { readProject } from '../db/queries/projects-read';
import { replaceSpaces } from '../db/queries/projects-write';
import { HOUR, iso, NOW, spaceDto } from '../db/queries/read.fixture';
import { readSpace } from '../db/queries/spaces-read';
import { readTask } from '../db/queries/tasks-read';
import { applyTaskItems, writeTask } from '../db/queries/tasks-write';
import { readChecklist } from '../db/queries/views';
import { discard, outboxStatus } from '../outbox';
import { installRebase, rollBack } from '.';
import { type EditFixture, editFixture, serverTask } from './test-support';

let f: EditFixture;
beforeEach(() => {
  f = editFixture();
  installRebase(f.replica, () => NOW);
});
afterEach(() => f.close());

/** A pull writing server rows, the way pull.ts does: inside a replica transaction. */
const pull = (write: () => void, keys: string[]) =>
  f.replica.transaction(() => {
    write();
    f.replica.noteServerWrite(keys);
  });

describe('reapplyPending', () => {
  it('a pull of the same server row does not hide a local edit', () => {
    f.edit({ kind: 'task.update', taskId: 2, patch: { taskTitle: 'Mine' } });
    pull(() => writeTask(f.db, serverTask(2)), ['task:2']);
    expect(readTask(f.db, 2, NOW)?.taskTitle).toBe('Mine');
  });

  it('per field: the user keeps what they changed, the server brings the rest', () => {
    f.edit({ kind: 'task.update', taskId: 2, patch: { taskTitle: 'Mine' } });
    pull(
      () => writeTask(f.db, serverTask(2, { priority: 'High', modifiedTime: iso(NOW + HOUR) })),
      ['task:2'],
    );
    expect(readTask(f.db, 2, NOW)).toMatchObject({ taskTitle: 'Mine', priority: 'High' });
    const [row] = f.rows();
    expect(row?.body).toMatchObject({ taskTitle: 'Mine', priority: 'High', status: 'In Progress' });
    expect((row?.base as { state: { priority: string } } | undefined)?.state.priority).toBe('High');
  });

  it('a field both changed goes to the later writer', () => {
    f.edit({ kind: 'task.update', taskId: 2, patch: { taskTitle: 'Mine', priority: 'Low' } });
    pull(
      () =>
        writeTask(
          f.db,
          serverTask(2, { taskTitle: 'Theirs (older)', modifiedTime: iso(NOW - HOUR) }),
        ),
      ['task:2'],
    );
    expect(readTask(f.db, 2, NOW)?.taskTitle).toBe('Mine');
    pull(
      () =>
        writeTask(
          f.db,
          serverTask(2, {
            taskTitle: 'Theirs (newer)',
            priority: 'Low',
            modifiedTime: iso(NOW + HOUR),
          }),
        ),
      ['task:2'],
    );
    expect(readTask(f.db, 2, NOW)).toMatchObject({ taskTitle: 'Theirs (newer)', priority: 'Low' });
    expect(f.rows()[0]?.body).toMatchObject({ taskTitle: 'Theirs (newer)' });
  });

  it('an edit of a task the server deleted becomes a conflict, not a silent loss', () => {
    f.edit({ kind: 'task.update', taskId: 10, patch: { taskTitle: 'Call again' } });
    f.edit({ kind: 'checklist.update', checklistId: 73, patch: { completed: true } });
    pull(
      () =>
        applyTaskItems(f.db, [serverTask(10, { deleted: true }), serverTask(1, { deleted: true })]),
      ['task:10', 'task:1'],
    );
    expect(readTask(f.db, 10, NOW)).toBeNull();
    const status = outboxStatus(f.db, NOW);
    expect(status.failed.map((e) => [e.kind, e.state])).toEqual([
      ['task.update', 'conflict'],
      ['checklist.update', 'conflict'],
    ]);
    expect(status.failed[0]?.error?.message).toMatch(/deleted on the server/);
  });

  it('local rows a pull wiped come back: an item on a server task, a space and its project', () => {
    const item = f.edit({ kind: 'checklist.create', taskId: 1, name: 'local item' });
    const space = f.edit({ kind: 'space.create', fields: { spaceName: 'Mine' } });
    const project = f.edit({
      kind: 'project.create',
      spaceId: space.id,
      fields: { projectName: 'P' },
    });
    // A plain task answer leaves the checklist but brings the server's counts.
    const { checklists: _c, attachments: _a, ...plain } = serverTask(1);
    pull(() => writeTask(f.db, plain), ['task:1']);
    expect(readTask(f.db, 1, NOW)?.checklistCount).toBe(4);
    // The bulk item embeds task 1's checklist as the server has it: the local item is gone.
    pull(() => applyTaskItems(f.db, [serverTask(1)]), ['task:1']);
    expect(readChecklist(f.db, 1).map((c) => c.checklistId)).toContain(item.id);
    expect(readTask(f.db, 1, NOW)?.checklistCount).toBe(4);
    // The spaces list is complete: a space the server does not know yet is removed.
    pull(
      () => replaceSpaces(f.db, [spaceDto(10, 'Product', [1, 2, 3]), spaceDto(11, 'Ops', [1])]),
      ['space:*'],
    );
    expect(readSpace(f.db, space.id)?.spaceName).toBe('Mine');
    expect(readProject(f.db, project.id, NOW)?.projectName).toBe('P');
  });

  it('timers and notifications keep what the user did over the server lists', () => {
    const startedAt = NOW - 600_000;
    const server = {
      trackId: 500,
      taskId: 10,
      userId: 1,
      state: 'RUNNING' as const,
      startTime: startedAt,
      durationSeconds: 0,
    };
    pull(() => replaceActiveTimers(f.db, [server], startedAt), ['timer:*']);
    f.edit({ kind: 'timer.pause', trackId: 500 });
    pull(
      () => replaceActiveTimers(f.db, [{ ...server, durationSeconds: 700 }], NOW + 100_000),
      ['timer:*'],
    );
    expect(readTimer(f.db, 500, NOW + 500_000)).toMatchObject({
      state: 'PAUSED',
      durationSeconds: 600,
    });
    // Missing from the active list is not deleted: the local state stays until the answer.
    pull(() => replaceActiveTimers(f.db, [], NOW + 200_000), ['timer:*']);
    expect(readTimer(f.db, 500, NOW + 500_000)).toMatchObject({
      state: 'PAUSED',
      durationSeconds: 600,
    });
    expect(outboxStatus(f.db, NOW).failed).toEqual([]);
    const note = {
      notificationId: 7,
      type: 'MENTION',
      title: 'hi',
      read: false,
      createdTime: iso(NOW) ?? '',
    };
    pull(() => writeNotification(f.db, note), ['notification:*']);
    f.edit({ kind: 'notification.read', notificationId: 7 });
    pull(() => writeNotification(f.db, note), ['notification:*']);
    expect(unreadCount(f.db)).toBe(0);
  });

  it('a local delete stays deleted over a pull, and its base becomes the newer server copy', () => {
    const d = f.edit({ kind: 'task.delete', taskId: 10 });
    pull(() => writeTask(f.db, serverTask(10, { taskTitle: 'Renamed there' })), ['task:10']);
    expect(readTask(f.db, 10, NOW)).toBeNull();
    rollBack(f.db, discard(f.db, d.mutationId ?? 0).mutations, NOW);
    expect(readTask(f.db, 10, NOW)?.taskTitle).toBe('Renamed there');
  });

  it("an item the server rewrote with its task gets the server's other fields, and a new base", () => {
    f.edit({ kind: 'checklist.update', checklistId: 72, patch: { completed: true } });
    const checklists = serverTask(1).checklists?.map((c) =>
      c.checklistId === 72 ? { ...c, name: 'Ask Bob', modifiedTime: iso(NOW + HOUR) } : c,
    );
    pull(() => applyTaskItems(f.db, [serverTask(1, { checklists })]), ['task:1']);
    expect(readChecklist(f.db, 1).find((c) => c.checklistId === 72)).toMatchObject({
      name: 'Ask Bob',
      completed: true,
      assigneeId: 1,
    });
    const [row] = f.rows();
    expect(row?.body).toEqual({ name: 'Ask Bob', completed: true, assigneeId: 1 });
    rollBack(f.db, discard(f.db, row?.mutationId ?? 0).mutations, NOW);
    expect(readChecklist(f.db, 1).find((c) => c.checklistId === 72)).toMatchObject({
      name: 'Ask Bob',
      completed: false,
    });
  });

  it('rows nobody touched are left alone', () => {
    f.edit({ kind: 'task.update', taskId: 2, patch: { taskTitle: 'Mine' } });
    pull(() => writeTask(f.db, serverTask(3)), ['task:3']);
    expect(f.rows()[0]?.body).toMatchObject({ taskTitle: 'Mine' });
    expect(readTask(f.db, 2, NOW)?.taskTitle).toBe('Mine');
  });
});
