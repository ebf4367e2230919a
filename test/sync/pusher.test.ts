/**
 * The pusher against the reference server over real HTTP: answers written to the replica,
 * local ids re-keyed, failures classified, and lost creates reconciled on a server that
 * ignores Idempotency-Key (no duplicate, ever).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/app';
import type { ApiClient } from '../../sync/api';
import { readTask } from '../../sync/db/queries/tasks-read';
import { applyAnswer } from '../../sync/edits';
import { allMutations, enqueue, getMutation, serverIdOf } from '../../sync/outbox';
import { type PushEvent, Pusher } from '../../sync/outbox/pusher';
import { createTask, type TempReplica, tempReplica } from '../../sync/outbox/test-support';
import { admin, demoClient } from './support';

let server: RunningServer | undefined;
let client: ApiClient | undefined;
let temp: TempReplica | undefined;

afterEach(async () => {
  temp?.close();
  await client?.close();
  await server?.close();
  server = undefined;
  client = undefined;
  temp = undefined;
});

const setUp = async (quirks: ('ignore-idempotency-key' | never)[] = []) => {
  server = await startServer({ dataDir: null, admin: true, seed: { kind: 'demo' }, quirks });
  client = await demoClient(server);
  temp = tempReplica('pusher-');
  let clock = Date.now();
  const events: PushEvent[] = [];
  const rolledBack: number[] = [];
  const pusher = new Pusher({
    replica: temp.replica,
    client,
    dataDir: temp.dir,
    userId: client.session.user?.userId ?? 0,
    now: () => clock,
    random: () => 0,
    applyAnswer,
    rollBack: (rows) => rolledBack.push(...rows.map((r) => r.mutationId)),
    onEvent: (e) => events.push(e),
  });
  return {
    pusher,
    events,
    rolledBack,
    db: temp.replica.db,
    now: () => clock,
    advance: (ms: number) => {
      clock += ms;
    },
  };
};

const tasksTitled = (title: string): number => {
  if (!server) throw new Error('no server');
  const row = server.deps.db
    .prepare('SELECT count(*) AS n FROM tasks WHERE title = ? AND deleted = 0')
    .get(title) as { n: number };
  return row.n;
};

describe('pusher', () => {
  it('sends a create, maps its local id and writes the server row to the replica', async () => {
    const { pusher, events, db, now } = await setUp();
    enqueue(db, createTask(-2, 'pushed once'), now());
    const summary = await pusher.push();
    expect(summary).toMatchObject({ sent: 1, failed: 0, waiting: 0 });
    const serverId = serverIdOf(db, 'task', -2);
    expect(serverId).toBeGreaterThan(0);
    expect(readTask(db, serverId ?? 0, Date.now())?.taskTitle).toBe('pushed once');
    expect(allMutations(db)).toHaveLength(0);
    expect(events.some((e) => e.type === 'sent' && e.applied.rekeyed.length === 1)).toBe(true);
    expect(tasksTitled('pushed once')).toBe(1);
  });

  it('reconciles a create whose answer was dropped on a server that ignores Idempotency-Key', async () => {
    const { pusher, db, advance, now } = await setUp(['ignore-idempotency-key']);
    if (!server) throw new Error('no server');
    await admin(server, 'faults', {
      rules: [{ kind: 'drop', method: 'POST', pathPrefix: '/v1/tasks', count: 1 }],
    });
    const { mutationId } = enqueue(db, createTask(-2, 'dropped answer'), now());
    const first = await pusher.push();
    expect(first.sent).toBe(0);
    expect(getMutation(db, mutationId ?? 0)?.lastError?.failure).toBe('retry');
    // The server committed it although we never heard back.
    expect(tasksTitled('dropped answer')).toBe(1);
    advance(60_000);
    const second = await pusher.push();
    expect(second.sent).toBe(1);
    expect(tasksTitled('dropped answer')).toBe(1);
    expect(serverIdOf(db, 'task', -2)).toBeGreaterThan(0);
  });

  it('without reconciliation such a server would have made a duplicate (the test can fail)', async () => {
    await setUp(['ignore-idempotency-key']);
    if (!client) throw new Error('no client');
    await client.ops.createTask({ body: { taskTitle: 'twice' }, idempotencyKey: 'k-1' });
    await client.ops.createTask({ body: { taskTitle: 'twice' }, idempotencyKey: 'k-1' });
    expect(tasksTitled('twice')).toBe(2);
  });

  it('fails an edit the server refuses, rolls it back, and goes on with the others', async () => {
    const { pusher, db, rolledBack, now } = await setUp();
    const refused = enqueue(
      db,
      {
        kind: 'task.create',
        operationId: 'createPersonalSubtask',
        path: { parentTaskId: 999_997 },
        localId: -5,
        body: { taskTitle: 'orphan' },
      },
      now(),
    );
    enqueue(db, createTask(-3, 'goes anyway'), now());
    const summary = await pusher.push();
    expect(summary).toMatchObject({ sent: 1, failed: 1 });
    const row = getMutation(db, refused.mutationId ?? 0);
    expect(row?.state).toBe('failed');
    expect(row?.lastError?.status).toBe(404);
    expect(rolledBack).toEqual([refused.mutationId]);
    expect(tasksTitled('goes anyway')).toBe(1);
  });

  it('makes an update of an entity gone on the server a conflict, and goes on', async () => {
    const { pusher, db, rolledBack, now } = await setUp();
    const bad = enqueue(
      db,
      {
        kind: 'task.update',
        operationId: 'updateTask',
        path: { taskId: 999_999 },
        body: { taskTitle: 'gone' },
      },
      now(),
    );
    enqueue(db, createTask(-3, 'still goes'), now());
    const summary = await pusher.push();
    expect(summary.sent).toBe(1);
    expect(summary.failed).toBe(1);
    // An update of something gone on the server is a conflict for the user to resolve.
    expect(getMutation(db, bad.mutationId ?? 0)?.state).toBe('conflict');
    expect(tasksTitled('still goes')).toBe(1);
    expect(rolledBack).toEqual([]);
  });

  it('settles a delete that finds its entity already gone', async () => {
    const { pusher, db, now } = await setUp();
    enqueue(
      db,
      { kind: 'task.delete', operationId: 'deleteTask', path: { taskId: 999_998 } },
      now(),
    );
    const summary = await pusher.push();
    expect(summary.sent).toBe(0);
    expect(allMutations(db)).toHaveLength(0);
  });

  it('pauses the whole outbox on 401 after a refused refresh, dropping nothing', async () => {
    const { pusher, db, events, now } = await setUp();
    client?.session.signOut();
    enqueue(db, createTask(-2, 'waits for sign-in'), now());
    await pusher.push();
    expect(pusher.pausedForAuth).toBe(true);
    expect(events.some((e) => e.type === 'auth-required')).toBe(true);
    expect(allMutations(db)).toHaveLength(1);
    expect(allMutations(db)[0]?.state).toBe('pending');
  });

  it('retries with backoff while the server is down, then sends once it is back', async () => {
    const { pusher, db, advance, events, now } = await setUp();
    if (!server) throw new Error('no server');
    await admin(server, 'faults', {
      rules: [{ kind: '5xx', method: 'POST', pathPrefix: '/v1/tasks', count: 2 }],
    });
    enqueue(db, createTask(-2, 'after outage'), now());
    await pusher.push();
    const retrying = events.filter((e) => e.type === 'retrying');
    expect(retrying).toHaveLength(1);
    // Not due yet: nothing is sent.
    expect((await pusher.push()).sent).toBe(0);
    advance(10 * 60_000);
    await pusher.push();
    advance(10 * 60_000);
    expect((await pusher.push()).sent).toBe(1);
    expect(tasksTitled('after outage')).toBe(1);
  });

  it('an answer that cannot be written waits and goes again; the answers written with it stay', async () => {
    const { pusher, db, advance, events, now } = await setUp();
    // A write of this one answer fails, as a full disk would (the others share its step).
    db.exec(`CREATE TEMP TRIGGER refuse_one BEFORE INSERT ON tasks WHEN NEW.title = 'not written'
      BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    const titles = ['written 1', 'not written', 'written 2', 'written 3'];
    const rows = titles.map((title, i) => enqueue(db, createTask(-2 - i, title), now()));
    const first = await pusher.push();
    expect(first).toMatchObject({ sent: 3, failed: 0, waiting: 1 });
    const waiting = getMutation(db, rows[1]?.mutationId ?? 0);
    expect(waiting?.state).toBe('pending');
    expect(waiting?.lastError?.message).toMatch(/disk full/);
    expect(events.some((e) => e.type === 'retrying')).toBe(true);
    for (const [i, title] of titles.entries()) {
      const serverId = serverIdOf(db, 'task', -2 - i);
      if (i === 1) expect(serverId).toBeUndefined();
      else expect(readTask(db, serverId ?? 0, Date.now())?.taskTitle).toBe(title);
    }
    db.exec('DROP TRIGGER refuse_one');
    advance(10 * 60_000);
    expect((await pusher.push()).sent).toBe(1);
    expect(readTask(db, serverIdOf(db, 'task', -3) ?? 0, Date.now())?.taskTitle).toBe(
      'not written',
    );
    // The second send landed on what the first made (its idempotency key): one task on the server.
    for (const title of titles) expect(tasksTitled(title)).toBe(1);
    expect(allMutations(db)).toHaveLength(0);
  });
});
