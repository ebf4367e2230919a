/**
 * Undo of a step on a task whose space the user deleted since, once that delete reached the
 * server: the space's delete undone by a recreate cannot make its projects and tasks again, so
 * the task is gone for good, and what hangs on it with it.
 *
 * Something made on the task (a file, a checklist item, a subtask, a time entry) whose answer
 * arrives after the space's delete: the answer writes it into the replica on a task the
 * replica no longer holds (until the next pull). Found by the model test (a space, a project,
 * a task, a file uploaded to it, the space deleted, then undone step by step): the undo of
 * the upload threw "task N is not in the replica", and every undo after it too (the step
 * stayed on top), as did the undo of a rename of the file or a tick of an item; a subtask's
 * or a time entry's undo (or of an edit of it) queued an edit of what the server no longer
 * had. The undo of a delete of something on the task, making it again, threw the same
 * way (a time entry: "task N is not in the replica"; the task: "project N is not in the
 * replica") or queued its create on a task a pull had written back without its project.
 */
import { describe, expect, it } from 'vitest';
import type { EditCommand } from '../../shared/edits/commands';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { engineSetup, faults, serverIdOf, settle, sleep } from './engine-setup';

const setUp = engineSetup();

const kinds = [
  ['a file', 'attachment.upload'],
  ['a checklist item', 'checklist.create'],
  ['a subtask', 'task.create'],
  ['a time entry', 'timer.range'],
  ['a running timer', 'timer.start'],
] as const;
type Kind = (typeof kinds)[number][1];

const madeOn = (kind: Kind, taskId: number): EditCommand => {
  const now = Date.now();
  switch (kind) {
    case 'attachment.upload':
      return {
        kind,
        taskId,
        files: [{ name: 'a.txt', dataBase64: Buffer.from('abc').toString('base64') }],
      };
    case 'checklist.create':
      return { kind, taskId, name: 'on a task about to go' };
    case 'task.create':
      return { kind, parentTaskId: taskId, fields: { taskTitle: 'under a task about to go' } };
    case 'timer.range':
      return { kind, taskId, startTime: now - 3_600_000, endTime: now - 1_800_000 };
    case 'timer.start':
      return { kind, taskId };
  }
};

/** An edit of what `kind` made (`id`), made before the space's delete. */
const editOf = (kind: Kind, id: number): EditCommand => {
  switch (kind) {
    case 'attachment.upload':
      return { kind: 'attachment.rename', attachmentId: id, fileName: 'renamed.txt' };
    case 'checklist.create':
      return { kind: 'checklist.update', checklistId: id, patch: { completed: true } };
    case 'task.create':
      return { kind: 'task.update', taskId: id, patch: { taskTitle: 'renamed' } };
    case 'timer.range':
      return { kind: 'timer.update', trackId: id, patch: { notes: 'noted' } };
    case 'timer.start':
      return { kind: 'timer.pause', trackId: id };
  }
};

const until = async (done: () => boolean) => {
  for (let i = 0; i < 500 && !done(); i++) await sleep(10);
  expect(done()).toBe(true);
};

/** A space with a project in it and a task in that, made here (queued). */
const spaceProjectTask = (engine: SyncEngine) => {
  const space = engine.edit({ kind: 'space.create', fields: { spaceName: 'Gone space' } });
  const project = engine.edit({
    kind: 'project.create',
    spaceId: space.id,
    fields: { projectName: 'Gone project' },
  });
  const task = engine.edit({
    kind: 'task.create',
    projectId: project.id,
    fields: { taskTitle: 'Gone task' },
  });
  return { space, task };
};

/**
 * A space, a project and a task on the server; then `kind` made on the task, its answer held
 * by the server until the space's delete is made here, then let go: the space's delete is
 * sent after it (it waits for edits of what it holds), or refused unprocessed (`unsent`).
 */
const madeThenSpaceDeleted = async (kind: Kind, unsent: boolean, edited = false) => {
  const { server, engine } = await setUp();
  const { space, task } = spaceProjectTask(engine);
  await settle(engine);
  const taskId = serverIdOf(engine, 'task', task.id);
  await faults(server, { rules: [{ kind: 'hold', method: 'POST', count: 1 }] });
  const made = engine.edit(madeOn(kind, taskId));
  await until(() => server.deps.faults.state().held === 1);
  if (edited) engine.edit(editOf(kind, made.id));
  if (unsent) await faults(server, { rules: [{ kind: '429', method: 'DELETE', count: 1000 }] });
  engine.edit({ kind: 'space.delete', spaceId: serverIdOf(engine, 'space', space.id) });
  server.deps.faults.release();
  const db = engine.replica.db;
  const refused = db.prepare(
    "SELECT COUNT(*) FROM outbox WHERE kind = 'space.delete' AND state = 'pending' AND attempts > 0",
  );
  if (unsent) await until(() => refused.pluck().get() === 1);
  else await until(() => engine.status().pending === 0);
  const entity = made.entityKind as keyof typeof rowOf;
  const madeId = serverIdOf(engine, entity, made.id);
  return {
    server,
    engine,
    db,
    taskId,
    /** Whether the replica has the row of what was made on the task. */
    madeHere: () => db.prepare(rowOf[entity]).pluck().get(madeId) === 1,
    queued: () =>
      db.prepare('SELECT kind FROM outbox ORDER BY mutation_id').pluck().all() as string[],
  };
};

const rowOf = {
  attachment: 'SELECT COUNT(*) FROM attachments WHERE attachment_id = ?',
  checklist: 'SELECT COUNT(*) FROM checklist_items WHERE checklist_id = ?',
  task: 'SELECT COUNT(*) FROM tasks WHERE task_id = ?',
  timer: 'SELECT COUNT(*) FROM timers WHERE track_id = ?',
};

describe('undo of something made on a task whose space was deleted', () => {
  it.each(kinds)(
    '%s, the delete reached the server: gone with its task, nothing queued',
    async (_what, kind) => {
      const { engine, db, taskId, madeHere, queued } = await madeThenSpaceDeleted(kind, false);
      // The answer came after the delete had taken the task from the replica: it wrote the
      // row on a task no longer here (until the next pull).
      expect(db.prepare('SELECT COUNT(*) FROM tasks WHERE task_id = ?').pluck().get(taskId)).toBe(
        0,
      );
      expect(madeHere()).toBe(true);
      expect(engine.undo()).toMatchObject({ kind: 'space.delete' });
      expect(queued()).toEqual(['space.create']);
      const step = engine.undo();
      expect(step?.kind).toBe(kind);
      expect(step?.label).toContain('was already gone');
      // Nothing is sent for what the server no longer has.
      expect(queued()).toEqual(['space.create']);
      // The history moves on: the task's own create is next.
      expect(engine.undo()).toMatchObject({ kind: 'task.create' });
      expect(engine.undo()).toMatchObject({ kind: 'project.create' });
      await settle(engine);
      // The next pull took the row away with its task.
      expect(madeHere()).toBe(false);
    },
  );

  it.each(kinds)(
    '%s, and an edit of it, the delete reached the server: nothing to undo',
    async (_what, kind) => {
      const { engine, madeHere, queued } = await madeThenSpaceDeleted(kind, false, true);
      expect(madeHere()).toBe(true);
      expect(engine.undo()).toMatchObject({ kind: 'space.delete' });
      const step = engine.undo();
      expect(step?.kind).toBe(editOf(kind, 0).kind);
      expect(step?.label).toContain('is gone, nothing to undo');
      expect(queued()).toEqual(['space.create']);
      expect(engine.undo()?.label).toContain('was already gone');
      expect(queued()).toEqual(['space.create']);
      await settle(engine);
    },
  );

  it.each(kinds)(
    '%s, the delete not yet sent: the task is back, and the undo takes it off the server',
    async (_what, kind) => {
      const { server, engine, db, taskId, madeHere } = await madeThenSpaceDeleted(kind, true);
      expect(engine.undo()).toMatchObject({ kind: 'space.delete' });
      expect(db.prepare('SELECT COUNT(*) FROM tasks WHERE task_id = ?').pluck().get(taskId)).toBe(
        1,
      );
      expect(madeHere()).toBe(true);
      const step = engine.undo();
      expect(step?.kind).toBe(kind);
      expect(step?.label).not.toContain('gone');
      await faults(server, { clear: true });
      await settle(engine);
      const count = (sql: string) => server.deps.db.prepare(sql).pluck().get(taskId) as number;
      expect({
        task: count('SELECT deleted FROM tasks WHERE task_id = ?'),
        files: count('SELECT COUNT(*) FROM attachments WHERE task_id = ?'),
        items: count('SELECT COUNT(*) FROM checklist_items WHERE task_id = ?'),
        subtasks: count('SELECT COUNT(*) FROM tasks WHERE parent_task_id = ? AND deleted = 0'),
        entries: count('SELECT COUNT(*) FROM timers WHERE task_id = ?'),
      }).toEqual({ task: 0, files: 0, items: 0, subtasks: 0, entries: 0 });
    },
  );
});

/** A space, a project, a task with a subtask, a time entry, a checklist item and a file. */
const spaceWithTask = async () => {
  const { engine } = await setUp();
  const { space, task } = spaceProjectTask(engine);
  const made = {
    task,
    subtask: engine.edit(madeOn('task.create', task.id)),
    entry: engine.edit(madeOn('timer.range', task.id)),
    item: engine.edit(madeOn('checklist.create', task.id)),
    file: engine.edit(madeOn('attachment.upload', task.id)),
  };
  await settle(engine);
  const id = (k: keyof typeof made) => serverIdOf(engine, made[k].entityKind, made[k].id);
  return { engine, spaceId: serverIdOf(engine, 'space', space.id), id };
};

describe('undo of a delete on a task whose space was deleted since', () => {
  it.each([
    ['a time entry', 'timer.delete'],
    ['a checklist item', 'checklist.delete'],
    ['a file', 'attachment.delete'],
    ['a subtask', 'task.delete'],
    ['the task', 'task.delete'],
  ] as const)('of %s: it cannot be brought back, nothing queued', async (what, kind) => {
    const { engine, spaceId, id } = await spaceWithTask();
    engine.edit(
      kind === 'timer.delete'
        ? { kind, trackId: id('entry') }
        : kind === 'checklist.delete'
          ? { kind, checklistId: id('item') }
          : kind === 'attachment.delete'
            ? { kind, attachmentId: id('file') }
            : { kind, taskId: id(what === 'a subtask' ? 'subtask' : 'task') },
    );
    await settle(engine);
    engine.edit({ kind: 'space.delete', spaceId });
    await settle(engine);
    expect(engine.undo()).toMatchObject({ kind: 'space.delete' });
    const step = engine.undo();
    expect(step?.kind).toBe(kind);
    expect(step?.label).toMatch(/is gone: it cannot be brought back/);
    expect(
      engine.replica.db.prepare('SELECT kind FROM outbox ORDER BY mutation_id').pluck().all(),
    ).toEqual(['space.create']);
    await settle(engine);
  });
});
