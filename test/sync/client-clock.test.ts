/**
 * The engine on a machine whose clock is wrong and moves (issue 23), through the reference
 * server over HTTP: this machine's clock is skewed and steps back or forward mid-queue (an NTP
 * correction), or jumps forward with the server's (a sleep). Nothing queued waits for the
 * clock to catch up, and "later" stays the server's order.
 */
import { describe, expect, it, vi } from 'vitest';
import type { RunningServer } from '../../server/app';
import { createApiClient } from '../../sync/api';
import { openEngine } from '../../sync/engine/engine';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { engineSetup, faults, sleep } from './engine-setup';
import { admin, tempDir } from './support';

const open = engineSetup();

/**
 * The demo server and an engine through its first fill, on a clock `offsetMs` off the real
 * one that the test moves (`clock.offsetMs`): session, API client and engine share it, as the
 * app's share the machine's.
 */
const setUp = async (offsetMs: number) => {
  const clock = { offsetMs };
  const opened = await open(0, [], { now: () => Date.now() + clock.offsetMs });
  return { ...opened, clock };
};

/** Syncs for at most `ms` of real time until nothing is pending: whether it emptied. */
const drains = async (e: SyncEngine, ms: number): Promise<boolean> => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await e.syncNow();
    if (e.status().pending === 0) return true;
    await sleep(20);
  }
  return false;
};

const firstTaskId = (e: SyncEngine): number =>
  e.replica.db.prepare('SELECT min(task_id) FROM tasks WHERE task_id > 0').pluck().get() as number;

const serverTitle = (s: RunningServer, taskId: number) =>
  s.deps.db.prepare('SELECT title FROM tasks WHERE task_id = ?').pluck().get(taskId);

describe('a clock that steps back mid-queue', () => {
  it('an edit queued just before the step goes at once, not when the clock catches up', async () => {
    const { server, engine, clock } = await setUp(0);
    const taskId = firstTaskId(engine);
    engine.edit({ kind: 'task.update', taskId, patch: { taskTitle: 'before the step' } });
    // Corrected by five minutes before the edit went out.
    clock.offsetMs -= 5 * 60_000;
    expect(await drains(engine, 3_000)).toBe(true);
    expect(serverTitle(server, taskId)).toBe('before the step');
  });

  it('a retry scheduled before the step is due at once, not when the clock catches up', async () => {
    const { server, engine, clock } = await setUp(0);
    const taskId = firstTaskId(engine);
    await faults(server, { rules: [{ kind: '5xx', method: 'PUT', count: 1 }] });
    // The 503 came back: the edit waits for its retry (20-100 ms on this engine's backoff),
    // and the clock steps back as the status tells it (a poll of the status could miss so
    // short a wait on a loaded machine).
    const afterStep = new Promise<number | null>((resolve) => {
      const off = engine.on((e) => {
        if (e.type !== 'status' || e.status.nextRetryAt === null) return;
        off();
        clock.offsetMs -= 5 * 60_000;
        resolve(engine.status().nextRetryAt);
      });
    });
    engine.edit({ kind: 'task.update', taskId, patch: { taskTitle: 'after a 503' } });
    const retryAt = await afterStep;
    expect(retryAt).not.toBeNull();
    expect(retryAt ?? 0).toBeLessThanOrEqual(Date.now() + clock.offsetMs + 100);
    expect(await drains(engine, 3_000)).toBe(true);
    expect(serverTitle(server, taskId)).toBe('after a 503');
  });
});

const serverTimer = (s: RunningServer, trackId: number) =>
  s.deps.db
    .prepare(
      'SELECT state, start_time AS startTime, accumulated_ms AS ms FROM timers WHERE track_id = ?',
    )
    .get(trackId) as { state: string; startTime: number; ms: number } | undefined;

/** The server id of a timer the engine started (mapped once its start was answered). */
const trackIdOf = (e: SyncEngine, id: number): number =>
  id > 0
    ? id
    : (e.replica.db
        .prepare("SELECT server_id FROM local_ids WHERE entity_kind = 'timer' AND local_id = ?")
        .pluck()
        .get(id) as number);

const offline = (s: RunningServer) => faults(s, { rules: [{ kind: 'reset', count: 10_000 }] });
const online = (s: RunningServer) => faults(s, { clear: true });

describe('the last writer is judged in the server’s order across a step', () => {
  it('a change made after the user’s offline edit wins, the clock set back between them', async () => {
    const { server, engine, clock } = await setUp(0);
    const taskId = firstTaskId(engine);
    await offline(server);
    engine.edit({ kind: 'task.update', taskId, patch: { taskTitle: 'mine, earlier' } });
    // Five minutes back: read as it was, the edit would look five minutes later than it was.
    clock.offsetMs -= 5 * 60_000;
    engine.status();
    await sleep(200);
    server.deps.db
      .prepare('UPDATE tasks SET title = ?, modified_time = ? WHERE task_id = ?')
      .run('theirs, later', server.deps.clock.now(), taskId);
    await online(server);
    expect(await drains(engine, 3_000)).toBe(true);
    expect(serverTitle(server, taskId)).toBe('theirs, later');
  });

  it('an offline edit made after someone’s change wins, the clock stepped forward between them', async () => {
    const { server, engine, clock } = await setUp(0);
    const taskId = firstTaskId(engine);
    await offline(server);
    server.deps.db
      .prepare('UPDATE tasks SET title = ?, modified_time = ? WHERE task_id = ?')
      .run('theirs, earlier', server.deps.clock.now(), taskId);
    await sleep(200);
    engine.edit({ kind: 'task.update', taskId, patch: { taskTitle: 'mine, later' } });
    // Five minutes forward, an NTP step: read on the new clock, the edit would look five
    // minutes earlier than it was.
    clock.offsetMs += 5 * 60_000;
    engine.status();
    await online(server);
    expect(await drains(engine, 3_000)).toBe(true);
    expect(serverTitle(server, taskId)).toBe('mine, later');
  });
});

describe('a timer across a jump of this machine’s clock', () => {
  it('a step back while it runs takes nothing off its running time', async () => {
    const { server, engine, clock } = await setUp(0);
    const timer = engine.edit({ kind: 'timer.start', taskId: firstTaskId(engine) });
    await sleep(1_200);
    clock.offsetMs -= 5 * 60_000;
    engine.edit({ kind: 'timer.stop', trackId: timer.id });
    expect(await drains(engine, 3_000)).toBe(true);
    const t = serverTimer(server, trackIdOf(engine, timer.id));
    expect(t?.state).toBe('STOPPED');
    expect(Math.floor((t?.ms ?? 0) / 1000)).toBe(1);
  });

  it('a step forward while it runs adds nothing, once the server tells it from a sleep', async () => {
    const { server, engine, clock } = await setUp(0);
    const timer = engine.edit({ kind: 'timer.start', taskId: firstTaskId(engine) });
    await sleep(1_200);
    // The stop is made before the engine hears from the server: taken for a sleep then.
    clock.offsetMs += 5 * 60_000;
    engine.edit({ kind: 'timer.stop', trackId: timer.id });
    expect(await drains(engine, 3_000)).toBe(true);
    const t = serverTimer(server, trackIdOf(engine, timer.id));
    expect(t?.state).toBe('STOPPED');
    expect(Math.floor((t?.ms ?? 0) / 1000)).toBe(1);
  });

  it('a timer started just after a step forward starts at the server’s now', async () => {
    const { server, engine, clock } = await setUp(0);
    clock.offsetMs += 2 * 60_000;
    const startedAt = server.deps.clock.now();
    const timer = engine.edit({ kind: 'timer.start', taskId: firstTaskId(engine) });
    expect(await drains(engine, 3_000)).toBe(true);
    const t = serverTimer(server, trackIdOf(engine, timer.id));
    expect(Math.abs((t?.startTime ?? 0) - startedAt)).toBeLessThan(250);
  });

  it('an update queued just after a step forward carries the start the server has', async () => {
    const { server, engine, clock } = await setUp(0);
    clock.offsetMs += 30_000;
    const startedAt = server.deps.clock.now();
    const timer = engine.edit({ kind: 'timer.start', taskId: firstTaskId(engine) });
    engine.edit({
      kind: 'timer.update',
      trackId: timer.id,
      patch: { billingStatus: 'NON_BILLABLE' },
    });
    expect(await drains(engine, 3_000)).toBe(true);
    const t = serverTimer(server, trackIdOf(engine, timer.id));
    expect(Math.abs((t?.startTime ?? 0) - startedAt)).toBeLessThan(250);
  });

  it('a sleep counts in its running time, as on a wall clock', async () => {
    const { server, engine, clock } = await setUp(0);
    const timer = engine.edit({ kind: 'timer.start', taskId: firstTaskId(engine) });
    expect(await drains(engine, 3_000)).toBe(true);
    // Ten minutes asleep: the server's clock went on, and this machine's shows it on waking.
    await admin(server, 'clock', { offsetMs: 10 * 60_000 });
    clock.offsetMs += 10 * 60_000;
    engine.edit({ kind: 'timer.stop', trackId: timer.id });
    expect(await drains(engine, 3_000)).toBe(true);
    const t = serverTimer(server, trackIdOf(engine, timer.id));
    expect(Math.floor((t?.ms ?? 0) / 60_000)).toBe(10);
  });
});

/**
 * A timer started and run 1.2 s by one engine of a replica, `between` done once it is closed
 * (the clock moved), then stopped by the next engine: the seconds the server keeps. Each
 * engine on a client of its own (the app makes one per org): nothing of the first engine's
 * watch of the clock is in memory for the second.
 */
const acrossTwoEngines = async (
  beforeClose: (clock: { offsetMs: number }) => void,
  between: (clock: { offsetMs: number }, server: RunningServer) => void | Promise<void>,
): Promise<number> => {
  const { server, client, clock } = await setUp(0);
  const dataDir = tempDir('client-clock-reopen-');
  const open = () =>
    openEngine({
      dataDir,
      client: createApiClient({ baseUrl: server.url, orgId: 1, session: client.session }),
      userId: client.session.user?.userId ?? 0,
      backoff: { baseMs: 20, capMs: 100 },
      pullIntervalMs: 3_600_000,
    });
  const first = open();
  first.start();
  await first.syncNow();
  const timer = first.edit({ kind: 'timer.start', taskId: firstTaskId(first) });
  expect(await drains(first, 3_000)).toBe(true);
  await sleep(1_200);
  beforeClose(clock);
  await first.close();
  await between(clock, server);
  const second = open();
  second.start();
  second.edit({ kind: 'timer.stop', trackId: timer.id });
  expect(await drains(second, 3_000)).toBe(true);
  const t = serverTimer(server, trackIdOf(second, timer.id));
  await second.close();
  return Math.floor((t?.ms ?? 0) / 1000);
};

describe('a jump while no engine of the replica is open', () => {
  it('is seen by the next engine in the same process: a step back takes nothing off a timer', async () => {
    const seconds = await acrossTwoEngines(
      () => {},
      // Another org open meanwhile, say: this replica's engine is not there to see the step.
      (clock) => {
        clock.offsetMs -= 5 * 60_000;
      },
    );
    expect(seconds).toBe(1);
  });

  it('a step back and then a sleep, seen as one: the sleep still counts in a timer', async () => {
    const seconds = await acrossTwoEngines(
      () => {},
      // Set back five minutes, then asleep for one (the server's clock went on), all while
      // another org was open: the next engine sees four minutes back in one jump.
      async (clock, server) => {
        clock.offsetMs -= 5 * 60_000;
        await admin(server, 'clock', { offsetMs: 60_000 });
        clock.offsetMs += 60_000;
      },
    );
    expect(seconds).toBe(61);
  });
});

describe('a jump just before an engine closes', () => {
  it('is told apart by its next run in another process: a step forward adds nothing', async () => {
    // The process killed: the next engine's monotonic clock is another process's.
    const origin = vi.spyOn(performance, 'timeOrigin', 'get');
    try {
      const seconds = await acrossTwoEngines(
        // An NTP step, then the org switched away before the engine read its clock again.
        (clock) => {
          clock.offsetMs += 2 * 60_000;
        },
        () => {
          origin.mockReturnValue(1);
        },
      );
      expect(seconds).toBe(1);
    } finally {
      origin.mockRestore();
    }
  });
});

describe('a jump while no process of the app ran', () => {
  it('set back and asleep with the app closed: the sleep counts in a timer, the step not', async () => {
    // The next engine runs in another process: nothing watched the clock meanwhile.
    const origin = vi.spyOn(performance, 'timeOrigin', 'get');
    try {
      const seconds = await acrossTwoEngines(
        () => {},
        async (clock, server) => {
          origin.mockReturnValue(1);
          clock.offsetMs -= 3 * 60_000;
          await admin(server, 'clock', { offsetMs: 60_000 });
          clock.offsetMs += 60_000;
        },
      );
      expect(seconds).toBe(61);
    } finally {
      origin.mockRestore();
    }
  });
});
