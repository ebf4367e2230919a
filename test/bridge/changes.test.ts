import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BridgeFixture, eventually, openEvents, startSignedInFixture } from './support';

// "Changes from sync" through the host's web binding, the real engine and the reference
// server: a refused edit is listed, told by an event, seen, and settled by keep theirs.

describe('sync.changes / sync.changesSeen / sync.resolveChange over HTTP', () => {
  let f: BridgeFixture;

  beforeAll(async () => {
    f = await startSignedInFixture();
  });
  afterAll(async () => {
    await f.close();
  });

  it('lists nothing after a clean first sync', async () => {
    expect(await f.call('sync.changes', {})).toEqual({ changes: [], unseen: 0 });
    expect(await f.fail('sync.changes', { extra: 1 })).toMatchObject({ code: 'invalid-input' });
  });

  it('lists a refused edit, says so by an event, and keep theirs settles it', async () => {
    const events = await openEvents(f.web);
    const made = await f.call('edits.apply', {
      kind: 'task.create',
      fields: { taskTitle: 'Refused later' },
    });
    await f.call('sync.now', {});
    // A status the server does not know (statuses are learned from data, so the UI sends it).
    await f.call('edits.apply', {
      kind: 'task.update',
      taskId: made.id,
      patch: { status: 'Blocked' },
    });
    await f.call('sync.now', {});
    const listed = await f.call('sync.changes', {});
    expect(listed.unseen).toBe(1);
    expect(listed.changes).toEqual([
      expect.objectContaining({
        kind: 'failed',
        entityKind: 'task',
        name: 'Refused later',
        settled: false,
        canRestore: true,
      }),
    ]);
    expect(listed.changes[0]?.message).toMatch(/status/);
    await eventually(() => events.events.some((e) => e.event === 'sync.changesGrew'));
    expect(events.events.find((e) => e.event === 'sync.changesGrew')?.payload).toEqual({
      unseen: 1,
      latestChangeId: listed.changes[0]?.changeId,
    });
    await events.close();
    expect((await f.call('sync.status', {}))?.changesUnseen).toBe(1);

    expect((await f.call('sync.changesSeen', {})).unseen).toBe(0);
    expect((await f.call('sync.status', {}))?.changesUnseen).toBe(0);

    const after = await f.call('sync.resolveChange', {
      changeId: listed.changes[0]?.changeId ?? 0,
      choice: 'keepTheirs',
    });
    expect(after.changes[0]).toMatchObject({ settled: true, canRestore: false });
    expect((await f.call('sync.status', {}))?.failed).toEqual([]);
    // The server kept its status; the replica shows it again.
    const row = f.server.deps.db
      .prepare('SELECT status FROM tasks WHERE title = ?')
      .get('Refused later') as { status: string };
    expect(row.status).toBe('To Do');
    expect(await f.fail('sync.resolveChange', { changeId: 1, choice: 'both' })).toMatchObject({
      code: 'invalid-input',
    });
  });
});
