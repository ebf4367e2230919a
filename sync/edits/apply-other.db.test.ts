import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activeTimer, readTimer, timersOfTask, unreadCount } from '../db/queries/activity-read';
import { writeNotification } from '../db/queries/activity-write';
import { readProject } from '../db/queries/projects-read';
import { NOW } from '../db/queries/read.fixture';
import { readSpace } from '../db/queries/spaces-read';
import { readTask } from '../db/queries/tasks-read';
import { readProjectAttachments, readTaskAttachments } from '../db/queries/views';
import { stagedFiles } from '../outbox';
import { EditError } from './state';
import { dumpReplica, type EditFixture, editFixture } from './test-support';
import { timerTruth } from './timers';

let f: EditFixture;
beforeEach(() => {
  f = editFixture();
});
afterEach(() => f.close());

const S = 1000;

describe('applyEdit: timers', () => {
  it('a timer started offline counts in the replica from the start the user saw', () => {
    const r = f.edit({ kind: 'timer.start', taskId: 10, notes: 'calling' });
    expect(f.rows()[0]).toMatchObject({
      kind: 'timer.start',
      operationId: 'startTimer',
      path: { taskId: 10 },
      body: { notes: 'calling', startTime: NOW },
    });
    expect(activeTimer(f.db, 1, NOW + 65 * S)).toMatchObject({
      trackId: r.id,
      state: 'RUNNING',
      startTime: NOW,
      durationSeconds: 65,
      notes: 'calling',
    });
  });

  it('starting a second timer stops the running one first, as the server requires', () => {
    const a = f.edit({ kind: 'timer.start', taskId: 10 });
    const b = f.edit({ kind: 'timer.start', taskId: 2 }, NOW + 30 * S);
    expect(f.rows().map((m) => [m.kind, m.operationId, m.path])).toEqual([
      ['timer.start', 'startTimer', { taskId: 10 }],
      ['timer.stop', 'stopTimer', { trackId: a.id }],
      ['timer.start', 'startProjectTaskTimer', { projectId: 100, taskId: 2 }],
    ]);
    expect(readTimer(f.db, a.id, NOW + 60 * S)).toMatchObject({
      state: 'STOPPED',
      durationSeconds: 30,
      endTime: NOW + 30 * S,
    });
    expect(activeTimer(f.db, 1, NOW + 60 * S)?.trackId).toBe(b.id);
  });

  it('pause, resume and stop keep their order and the time the user saw', () => {
    const r = f.edit({ kind: 'timer.start', taskId: 10 });
    f.edit({ kind: 'timer.pause', trackId: r.id }, NOW + 10_400);
    expect(readTimer(f.db, r.id, NOW + 50 * S)).toMatchObject({
      state: 'PAUSED',
      durationSeconds: 10,
    });
    f.edit({ kind: 'timer.resume', trackId: r.id }, NOW + 70 * S);
    expect(readTimer(f.db, r.id, NOW + 80 * S)?.durationSeconds).toBe(20);
    f.edit({ kind: 'timer.stop', trackId: r.id }, NOW + 100 * S);
    expect(f.rows().map((m) => m.kind)).toEqual([
      'timer.start',
      'timer.pause',
      'timer.resume',
      'timer.stop',
    ]);
    expect(f.rows()[3]?.body).toEqual({ at: NOW + 100 * S });
    expect(timersOfTask(f.db, 10, NOW + 999 * S)).toMatchObject([
      { trackId: r.id, state: 'STOPPED', durationSeconds: 40, endTime: NOW + 100 * S },
    ]);
    expect(timerTruth(f.db, r.id, NOW + 999 * S)).toMatchObject({
      startTime: NOW,
      durationSeconds: 40,
      state: 'STOPPED',
    });
  });

  it('a notes or billing change of a running timer leaves its running time to the millisecond', () => {
    const r = f.edit({ kind: 'timer.start', taskId: 10 });
    f.edit(
      { kind: 'timer.update', trackId: r.id, patch: { billingStatus: 'NON_BILLABLE' } },
      NOW + 42_600,
    );
    expect(f.rows()[1]?.body).toMatchObject({ durationSeconds: 42 });
    // 43 s after the start the timer reads 43 s, not 42 s and 400 ms.
    expect(readTimer(f.db, r.id, NOW + 43 * S)?.durationSeconds).toBe(43);
    f.edit({ kind: 'timer.update', trackId: r.id, patch: { notes: 'n' } }, NOW + 43_500);
    f.edit({ kind: 'timer.stop', trackId: r.id }, NOW + 44_200);
    expect(timerTruth(f.db, r.id, NOW + 999 * S)).toMatchObject({
      state: 'STOPPED',
      durationSeconds: 44,
      billingStatus: 'NON_BILLABLE',
      notes: 'n',
    });
    expect(readTimer(f.db, r.id, NOW + 999 * S)?.durationSeconds).toBe(44);
  });

  it('an update of a running timer’s duration reads as sent from then on', () => {
    const r = f.edit({ kind: 'timer.start', taskId: 10 });
    f.edit({ kind: 'timer.update', trackId: r.id, patch: { durationSeconds: 10 } }, NOW + 42_600);
    expect(readTimer(f.db, r.id, NOW + 43 * S)?.durationSeconds).toBe(10);
    expect(readTimer(f.db, r.id, NOW + 52_600)?.durationSeconds).toBe(20);
  });

  it('a move the timer state forbids is refused and changes nothing', () => {
    const r = f.edit({ kind: 'timer.start', taskId: 10 });
    const before = dumpReplica(f.db);
    expect(() => f.edit({ kind: 'timer.resume', trackId: r.id })).toThrow(/running timer/);
    expect(() => f.edit({ kind: 'timer.pause', trackId: 999 })).toThrow(EditError);
    expect(dumpReplica(f.db)).toBe(before);
  });

  it('an update sends the full editable state; range and manual time are stopped records', () => {
    const r = f.edit({ kind: 'timer.start', taskId: 10, billingStatus: 'NON_BILLABLE' });
    f.edit({ kind: 'timer.update', trackId: r.id, patch: { notes: 'n' } }, NOW + 42 * S);
    expect(f.rows()[1]).toMatchObject({
      operationId: 'updateTimer',
      body: { billingStatus: 'NON_BILLABLE', notes: 'n', startTime: NOW, durationSeconds: 42 },
    });
    const range = f.edit({
      kind: 'timer.range',
      taskId: 2,
      startTime: NOW - 3600 * S,
      endTime: NOW,
    });
    expect(f.rows()[2]).toMatchObject({
      operationId: 'addRangeTimerForProjectTask',
      path: { projectId: 100, taskId: 2 },
    });
    expect(readTimer(f.db, range.id, NOW)).toMatchObject({
      state: 'STOPPED',
      durationSeconds: 3600,
    });
    const manual = f.edit({
      kind: 'timer.manual',
      taskId: 10,
      hours: 1,
      minutes: 30,
      startTime: NOW - 7200 * S,
    });
    expect(f.rows()[3]).toMatchObject({
      operationId: 'addNewManualTime',
      body: { hours: 1, minutes: 30, billingStatus: 'BILLABLE' },
    });
    expect(readTimer(f.db, manual.id, NOW)?.durationSeconds).toBe(5400);
    expect(() =>
      f.edit({ kind: 'timer.range', taskId: 10, startTime: NOW, endTime: NOW - 1 }),
    ).toThrow(/endTime/);
    f.edit({ kind: 'timer.delete', trackId: manual.id });
    expect(readTimer(f.db, manual.id, NOW)).toBeNull();
  });
});

describe('applyEdit: attachments', () => {
  it('an upload copies the bytes at once and shows the files as attachments', () => {
    const r = f.edit({
      kind: 'attachment.upload',
      taskId: 5,
      files: [
        { name: 'notes.txt', dataBase64: Buffer.from('hello').toString('base64') },
        { name: 'b.md', dataBase64: Buffer.from('# b').toString('base64') },
      ],
    });
    expect(r.ids).toHaveLength(2);
    const [row] = f.rows();
    expect(row).toMatchObject({
      operationId: 'uploadSubtaskAttachments',
      path: { taskId: 1, subtaskId: 5 },
      body: { localIds: r.ids },
    });
    const staged = stagedFiles(f.db, row?.mutationId ?? 0);
    expect(staged.map((s) => [s.name, s.size])).toEqual([
      ['notes.txt', 5],
      ['b.md', 3],
    ]);
    expect(readFileSync(join(f.dir, staged[0]?.path ?? '')).toString()).toBe('hello');
    expect(
      readTaskAttachments(f.db, 5)
        .map((a) => a.fileName)
        .sort(),
    ).toEqual(['b.md', 'notes.txt', 'outline.pdf']);
    expect(readTask(f.db, 5, NOW)?.attachmentCount).toBe(3);
  });

  it('the upload rules are checked before anything is written', () => {
    const before = dumpReplica(f.db);
    const file = (name: string, data = 'x') => ({
      name,
      dataBase64: Buffer.from(data).toString('base64'),
    });
    expect(() =>
      f.edit({ kind: 'attachment.upload', taskId: 1, files: [file('run.exe')] }),
    ).toThrow(/upload refused: run.exe: files of type exe are not allowed/);
    expect(() =>
      f.edit({ kind: 'attachment.upload', taskId: 1, files: [file('e.txt', '')] }),
    ).toThrow(/e.txt is empty/);
    expect(() =>
      f.edit({ kind: 'attachment.upload', taskId: 1, projectId: 100, files: [file('a.txt')] }),
    ).toThrow(/exactly one/);
    expect(dumpReplica(f.db)).toBe(before);
    expect(existsSync(join(f.dir, 'outbox-files'))).toBe(false);
  });

  it('rename keeps the extension; delete removes; project files use project operations', () => {
    f.edit({ kind: 'attachment.rename', attachmentId: 91, fileName: 'final' });
    expect(f.rows()[0]).toMatchObject({
      operationId: 'renameTaskAttachment',
      path: { taskId: 1, attachmentId: 91 },
      body: { fileName: 'final' },
    });
    expect(readTaskAttachments(f.db, 1)[0]?.fileName).toBe('final.pdf');
    f.edit({ kind: 'attachment.delete', attachmentId: 92 });
    expect(readTaskAttachments(f.db, 5)).toEqual([]);
    const up = f.edit({
      kind: 'attachment.upload',
      projectId: 101,
      files: [{ name: 'plan.pdf', dataBase64: Buffer.from('%PDF').toString('base64') }],
    });
    expect(f.rows()[2]).toMatchObject({
      operationId: 'uploadProjectAttachments',
      path: { spaceId: 10, projectId: 101 },
    });
    expect(readProjectAttachments(f.db, 101).map((a) => a.attachmentId)).toEqual([up.id]);
  });
});

describe('applyEdit: spaces, projects, notifications', () => {
  it('spaces and projects are created, updated and deleted locally', () => {
    const s = f.edit({ kind: 'space.create', fields: { spaceName: 'Lab', color: '#fff' } });
    expect(readSpace(f.db, s.id)).toMatchObject({ spaceName: 'Lab', color: '#fff' });
    const p = f.edit({
      kind: 'project.create',
      spaceId: s.id,
      fields: { projectName: 'Rig', tags: ['x'] },
    });
    expect(f.rows()[1]).toMatchObject({
      operationId: 'createProject',
      path: { spaceId: s.id },
      dependsOn: [`space:${s.id}`],
    });
    expect(readProject(f.db, p.id, NOW)).toMatchObject({ projectName: 'Rig', spaceId: s.id });
    f.edit({ kind: 'space.update', spaceId: 10, patch: { description: 'all of it' } });
    expect(f.rows()[2]?.body).toEqual({
      spaceName: 'Product',
      description: 'all of it',
      ...(readSpace(f.db, 10)?.spaceType ? { spaceType: readSpace(f.db, 10)?.spaceType } : {}),
    });
    f.edit({ kind: 'project.update', projectId: 101, patch: { projectName: 'Beta' } });
    expect(f.rows()[3]).toMatchObject({
      operationId: 'updateProject',
      path: { spaceId: 10, projectId: 101 },
      body: {
        projectName: 'Beta',
        priority: 'Low',
        health: 'At risk',
        tags: ['finance'],
        members: [2],
        public: true,
      },
    });
    expect(readProject(f.db, 101, NOW)?.projectName).toBe('Beta');
    f.edit({ kind: 'project.delete', projectId: 100 });
    expect(readProject(f.db, 100, NOW)).toBeNull();
    expect(readTask(f.db, 1, NOW)).toBeNull();
  });

  it('notifications are marked read and deleted', () => {
    f.replica.transaction(() => {
      for (const id of [1, 2])
        writeNotification(f.db, {
          notificationId: id,
          type: 'MENTION',
          title: `n${id}`,
          read: false,
          createdTime: new Date(NOW).toISOString(),
        });
    });
    f.edit({ kind: 'notification.read', notificationId: 1 });
    expect(unreadCount(f.db)).toBe(1);
    f.edit({ kind: 'notification.delete', notificationId: 2 });
    expect(unreadCount(f.db)).toBe(0);
    expect(f.rows().map((m) => m.operationId)).toEqual([
      'markNotificationAsRead',
      'deleteNotification',
    ]);
    expect(() => f.edit({ kind: 'notification.read', notificationId: 3 })).toThrow(EditError);
  });
});
