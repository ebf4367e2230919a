import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BridgeFixture, startSignedInFixture } from './support';

// Undo and redo through the host's web binding, the real engine and the reference server:
// what Ctrl+Z does, checked on the server's own data.

describe('history.undo / history.redo / edits.applyAll over HTTP', () => {
  let f: BridgeFixture;
  const onServer = (sql: string, ...params: unknown[]) =>
    f.server.deps.db.prepare(sql).all(...params) as Record<string, unknown>[];
  const titleOnServer = (taskId: number) =>
    onServer('SELECT title FROM tasks WHERE task_id = ?', taskId)[0]?.title;
  const outbox = () =>
    f.services.session.require().engine.replica.db.prepare('SELECT kind FROM outbox').all();
  const synced = async () => {
    await f.call('sync.now', {});
    expect(outbox()).toEqual([]);
  };

  beforeAll(async () => {
    f = await startSignedInFixture();
  });
  afterAll(async () => {
    await f.close();
  });

  const aTask = async () => {
    const made = await f.call('edits.apply', {
      kind: 'task.create',
      fields: { taskTitle: `Undo me ${Math.random()}` },
    });
    await synced();
    const id = Number(
      onServer('SELECT task_id FROM tasks WHERE title LIKE ? ORDER BY task_id DESC', 'Undo me %')[0]
        ?.task_id,
    );
    expect(id).toBeGreaterThan(0);
    return { id, local: made.id };
  };

  it('undo answers null when there is nothing to undo', async () => {
    expect(await f.fail('history.undo', { extra: 1 })).toMatchObject({ code: 'invalid-input' });
    expect(await f.call('history.redo', {})).toBeNull();
  });

  it('a rename of a synced task, undone: the old name is on the server; redo: the new', async () => {
    const { id } = await aTask();
    const old = titleOnServer(id);
    await f.call('edits.apply', {
      kind: 'task.update',
      taskId: id,
      patch: { taskTitle: 'Renamed' },
    });
    await synced();
    expect(titleOnServer(id)).toBe('Renamed');
    const step = await f.call('history.undo', {});
    expect(step).toMatchObject({ kind: 'task.update', entities: [`task:${id}`] });
    expect(step?.label).toContain('Renamed');
    await synced();
    expect(titleOnServer(id)).toBe(old);
    expect(await f.call('history.redo', {})).not.toBeNull();
    await synced();
    expect(titleOnServer(id)).toBe('Renamed');
  });

  it('a create and its undo send nothing to the server', async () => {
    await f.call('sync.pause', {});
    await f.call('edits.apply', { kind: 'task.create', fields: { taskTitle: 'Never sent' } });
    await f.call('history.undo', {});
    await f.call('sync.resume', {});
    await synced();
    expect(onServer("SELECT task_id FROM tasks WHERE title = 'Never sent'")).toEqual([]);
  });

  it('a delete of a task with a checklist, made offline and undone, sends nothing', async () => {
    const { id } = await aTask();
    await f.call('edits.apply', { kind: 'checklist.create', taskId: id, name: 'kept item' });
    await synced();
    const before = await f.call('tasks.detail', { taskId: id });
    await f.call('sync.pause', {});
    await f.call('edits.apply', { kind: 'task.delete', taskId: id });
    expect(await f.call('tasks.detail', { taskId: id })).toBeNull();
    await f.call('history.undo', {});
    expect(outbox()).toEqual([]);
    expect((await f.call('tasks.detail', { taskId: id }))?.checklist).toEqual(before?.checklist);
    await f.call('sync.resume', {});
    await synced();
    expect(onServer('SELECT deleted FROM tasks WHERE task_id = ?', id)).toEqual([{ deleted: 0 }]);
  });

  it('a delete already sent is undone by making the task again, checklist ticks included', async () => {
    const { id } = await aTask();
    const item = await f.call('edits.apply', {
      kind: 'checklist.create',
      taskId: id,
      name: 'ticked',
    });
    await f.call('edits.apply', {
      kind: 'checklist.update',
      checklistId: item.id,
      patch: { completed: true },
    });
    await synced();
    const title = titleOnServer(id);
    await f.call('edits.apply', { kind: 'task.delete', taskId: id });
    await synced();
    await f.call('history.undo', {});
    await synced();
    const again = onServer(
      'SELECT task_id FROM tasks WHERE title = ? AND deleted = 0 AND task_id <> ?',
      title,
      id,
    );
    expect(again).toHaveLength(1);
    expect(
      onServer('SELECT name, completed FROM checklist_items WHERE task_id = ?', again[0]?.task_id),
    ).toEqual([{ name: 'ticked', completed: 1 }]);
  });

  it('edits.applyAll is one step: undone together, on the server too', async () => {
    const a = await aTask();
    const b = await aTask();
    const answer = await f.call('edits.applyAll', {
      commands: [
        { kind: 'task.update', taskId: a.id, patch: { priority: 'High' } },
        { kind: 'task.update', taskId: b.id, patch: { priority: 'High' } },
      ],
    });
    expect(answer).toEqual({ count: 2 });
    await synced();
    const step = await f.call('history.undo', {});
    expect(step?.label).toBe('Changed 2 tasks');
    await synced();
    const pri = (id: number) => onServer('SELECT priority FROM tasks WHERE task_id = ?', id)[0];
    expect(pri(a.id)?.priority).not.toBe('High');
    expect(pri(b.id)?.priority).not.toBe('High');
    // All or none: one bad command applies nothing.
    expect(
      await f.fail('edits.applyAll', {
        commands: [
          { kind: 'task.update', taskId: a.id, patch: { taskTitle: 'half' } },
          { kind: 'task.update', taskId: 987_654, patch: { taskTitle: 'x' } },
        ],
      }),
    ).toMatchObject({ code: 'not-found' });
    expect(outbox()).toEqual([]);
  });
});
