import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EditCommand } from '../../shared/edits/commands';
import { NOW } from '../db/queries/read.fixture';
import { applyEdit } from '../edits';
import { entityState } from '../edits/entities';
import { type EditFixture, editFixture } from '../edits/test-support';
import { type EntityKind, mapLocalId, markInflight, settle } from '../outbox';
import { editRecorded, type HistoryIo, redo, undo } from '.';

// Each family of inverse on a real replica file: what the undo queues and what the replica
// shows after it. history.db.test.ts holds tasks, deletes of tasks, moves and durability.

let f: EditFixture;
let io: HistoryIo;
beforeEach(() => {
  f = editFixture();
  io = { db: f.db, now: NOW, userId: 1, filesDir: f.dir, apply: (c) => applyEdit(f.db, c, f.ctx) };
});
afterEach(() => f.close());

const edit = (...commands: EditCommand[]) => editRecorded(io, commands);
const state = (kind: EntityKind, id: number) => entityState(f.db, kind, id);
const kinds = () => f.rows().map((r) => r.kind);
/** The row as the server answered it: it left the queue (what "already sent" means). */
const sent = (mutationId: number | null) => {
  markInflight(f.db, mutationId ?? 0, NOW);
  settle(f.db, mutationId ?? 0);
};
const tableOf = { checklist: ['checklist_items', 'checklist_id'], timer: ['timers', 'track_id'] };
/** A create the server answered: its local id mapped to `serverId`, its row under that id. */
const created = (
  r: { mutationId: number | null; id: number } | undefined,
  kind: 'checklist' | 'timer',
  serverId: number,
) => {
  sent(r?.mutationId ?? null);
  mapLocalId(f.db, kind, r?.id ?? 0, serverId);
  const [table, column] = tableOf[kind];
  f.db.prepare(`UPDATE ${table} SET ${column} = ? WHERE ${column} = ?`).run(serverId, r?.id);
  return serverId;
};

describe('updates of every entity: the named fields back, others left', () => {
  const cases: [string, EntityKind, number, EditCommand, string][] = [
    [
      'checklist item',
      'checklist',
      72,
      { kind: 'checklist.update', checklistId: 72, patch: { name: 'n', completed: true } },
      'name',
    ],
    [
      'space',
      'space',
      10,
      { kind: 'space.update', spaceId: 10, patch: { spaceName: 'S' } },
      'spaceName',
    ],
    [
      'project',
      'project',
      100,
      { kind: 'project.update', projectId: 100, patch: { projectName: 'P', priority: 'Low' } },
      'projectName',
    ],
    [
      'file',
      'attachment',
      91,
      { kind: 'attachment.rename', attachmentId: 91, fileName: 'renamed' },
      'fileName',
    ],
  ];
  for (const [what, kind, id, cmd, field] of cases) {
    it(`a ${what}: back to its state before, and forward again on redo`, () => {
      const before = state(kind, id);
      edit(cmd);
      const after = state(kind, id);
      expect(after).not.toEqual(before);
      undo(io);
      expect(state(kind, id)).toEqual(before);
      redo(io);
      expect(state(kind, id)).toEqual(after);
    });

    it(`a ${what}: a field someone else changed since is left as they set it`, () => {
      edit(cmd);
      const column = { name: 'name', spaceName: 'space_name', projectName: 'project_name' }[field];
      const table = { checklist: 'checklist_items', space: 'spaces', project: 'projects' }[
        kind as string
      ];
      if (!column || !table) {
        // A file's name is its only field: someone's rename makes the undo a no-op.
        f.db
          .prepare("UPDATE attachments SET file_name = 'theirs.pdf' WHERE attachment_id = 91")
          .run();
        expect(undo(io)?.label).toContain('nothing was undone');
        expect(state(kind, id)?.fileName).toBe('theirs');
        return;
      }
      const key = { checklist: 'checklist_id', space: 'space_id', project: 'project_id' }[
        kind as 'checklist' | 'space' | 'project'
      ];
      f.db.prepare(`UPDATE ${table} SET ${column} = 'Theirs' WHERE ${key} = ?`).run(id);
      const step = undo(io);
      expect(state(kind, id)?.[field]).toBe('Theirs');
      expect(step?.label).toContain(`${field} changed since`);
    });
  }

  it('a time entry: notes and billing back', () => {
    const [t] = edit({
      kind: 'timer.manual',
      taskId: 10,
      hours: 1,
      minutes: 0,
      startTime: NOW - 7_200_000,
    });
    const id = t?.id ?? 0;
    const before = state('timer', id);
    edit({ kind: 'timer.update', trackId: id, patch: { notes: 'noted' } });
    undo(io);
    expect(state('timer', id)).toEqual(before);
  });
});

describe('creates: undone by a delete; a queued create and its delete send nothing', () => {
  const creates: [string, EditCommand][] = [
    ['checklist item', { kind: 'checklist.create', taskId: 2, name: 'new item' }],
    ['space', { kind: 'space.create', fields: { spaceName: 'New space' } }],
    ['project', { kind: 'project.create', spaceId: 10, fields: { projectName: 'New project' } }],
    [
      'range of time',
      { kind: 'timer.range', taskId: 10, startTime: NOW - 3_600_000, endTime: NOW - 60_000 },
    ],
    [
      'manual time',
      { kind: 'timer.manual', taskId: 10, hours: 0, minutes: 30, startTime: NOW - 3_600_000 },
    ],
  ];
  for (const [what, cmd] of creates)
    it(`a ${what}`, () => {
      const [made] = edit(cmd);
      const kind = made?.entityKind as EntityKind;
      expect(state(kind, made?.id ?? 0)).not.toBeNull();
      undo(io);
      expect(state(kind, made?.id ?? 0)).toBeNull();
      expect(f.rows()).toEqual([]);
    });

  it('a create already sent: its undo queues the delete', () => {
    const [made] = edit({ kind: 'checklist.create', taskId: 2, name: 'sent item' });
    created(made, 'checklist', 777);
    undo(io);
    expect(kinds()).toEqual(['checklist.delete']);
    expect(f.rows()[0]?.entity).toBe('checklist:777');
  });
});

describe('deletes of every entity', () => {
  it('a checklist item still queued: dropped and rolled back, nothing sent', () => {
    const before = state('checklist', 72);
    edit({ kind: 'checklist.delete', checklistId: 72 });
    undo(io);
    expect(state('checklist', 72)).toEqual(before);
    expect(f.rows()).toEqual([]);
  });

  it('a checklist item already sent: made again, ticked as it was', () => {
    f.db.prepare('UPDATE checklist_items SET completed = 1 WHERE checklist_id = 72').run();
    const before = state('checklist', 72);
    const [del] = edit({ kind: 'checklist.delete', checklistId: 72 });
    sent(del?.mutationId ?? null);
    undo(io);
    expect(kinds()).toEqual(['checklist.create', 'checklist.update']);
    const id = Number(f.rows()[0]?.entity.split(':')[1]);
    expect(state('checklist', id)).toEqual(before);
  });

  it('a space or project already sent: made again from its last state', () => {
    const project = state('project', 110);
    const [del] = edit({ kind: 'project.delete', projectId: 110 });
    sent(del?.mutationId ?? null);
    undo(io);
    expect(kinds()).toEqual(['project.create']);
    const id = Number(f.rows()[0]?.entity.split(':')[1]);
    expect(state('project', id)?.projectName).toBe(project?.projectName);
  });

  it('a time entry already sent: made again with its time and notes', () => {
    const [t] = edit({
      kind: 'timer.manual',
      taskId: 10,
      hours: 1,
      minutes: 15,
      startTime: NOW - 7_200_000,
      notes: 'kept',
    });
    const trackId = created(t, 'timer', 888);
    const before = state('timer', trackId);
    const [del] = edit({ kind: 'timer.delete', trackId });
    sent(del?.mutationId ?? null);
    undo(io);
    expect(kinds()).toEqual(['timer.range', 'timer.update']);
    const id = Number(f.rows()[0]?.entity.split(':')[1]);
    expect(state('timer', id)).toMatchObject({
      startTime: before?.startTime,
      durationSeconds: before?.durationSeconds,
      notes: 'kept',
    });
  });

  it('a file already sent and not downloaded here cannot come back, and says so', () => {
    const [del] = edit({ kind: 'attachment.delete', attachmentId: 91 });
    sent(del?.mutationId ?? null);
    expect(undo(io)?.label).toContain('1 file could not be brought back (not downloaded here)');
    expect(f.rows()).toEqual([]);
  });

  it('a file already sent whose content is cached here is uploaded again', () => {
    mkdirSync(join(f.dir, 'content'), { recursive: true });
    writeFileSync(join(f.dir, 'content', '91'), 'the spec');
    f.db
      .prepare(
        "INSERT INTO attachment_files (attachment_id, path, size, content_type, fetched_at) VALUES (91, 'content/91', 8, 'application/pdf', ?)",
      )
      .run(NOW);
    const [del] = edit({ kind: 'attachment.delete', attachmentId: 91 });
    sent(del?.mutationId ?? null);
    expect(undo(io)?.label).toBe('Deleted “spec”');
    expect(kinds()).toEqual(['attachment.upload']);
    expect(f.rows()[0]?.body).toMatchObject({ files: [{ fileName: 'spec.pdf', size: 8 }] });
    // Redo deletes the file uploaded again (the step's id leads to it).
    redo(io);
    expect(kinds()).toEqual([]);
  });
});

describe('what cannot be undone is said', () => {
  it('a notification read: the API has no unread', () => {
    f.db
      .prepare(
        "INSERT INTO notifications (notification_id, type, title, read, created_time) VALUES (5, 'MENTION', 'hi', 0, ?)",
      )
      .run(NOW);
    edit({ kind: 'notification.read', notificationId: 5 });
    expect(undo(io)?.label).toContain('cannot mark a notification unread');
    expect(kinds()).toEqual(['notification.read']);
  });

  it('a start that stopped the running timer: the new one goes, the old stays stopped', () => {
    f.db
      .prepare(
        `INSERT INTO timers (track_id, task_id, user_id, state, start_time, duration_seconds, observed_at)
         VALUES (500, 10, 1, 'RUNNING', ?, 0, ?)`,
      )
      .run(NOW - 60_000, NOW - 60_000);
    const [started] = edit({ kind: 'timer.start', taskId: 2 });
    const step = undo(io);
    expect(step?.label).toContain('the timer it stopped stays stopped');
    expect(state('timer', started?.id ?? 0)).toBeNull();
    expect(kinds()).toEqual(['timer.stop']);
  });
});
