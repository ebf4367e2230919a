/**
 * Outbox replay: 1,000 edits of 100 entities (task creates and updates, checklist items made
 * and toggled, timers started and stopped) made while sync is paused, then replayed against
 * the reference server on loopback. Figures: requests sent (and per edit), how many requests
 * the edits coalesced into, replay wall time, and its ratio to the floor: the same requests
 * sent directly by the client with no outbox (same pool size, same order rules). Also how long
 * an edit takes to be visible in a local query (p95). And a long outbox (500 and 4,000 tasks
 * created offline): ms per row of its replay.
 *
 * Each round runs the replay and its floor back to back in this process, in alternating order
 * (the replay first in odd rounds, the floor first in even ones). A first round, not counted,
 * warms the code both share (the API client, the answers' schemas): in a fresh process the
 * side that goes first would pay the JIT's warm-up that the other then skips.
 *   npm run bench:replay
 */
import { join } from 'node:path';
import type { EditCommand } from '../shared/edits/commands';
import type { ApiClient } from '../sync/api';
import { createApiClient, signIn } from '../sync/api';
import { durably, openSqlite } from '../sync/db/open';
import { readTask } from '../sync/db/queries/tasks-read';
import { openEngine } from '../sync/engine/engine';
import { allMutations } from '../sync/outbox';
import { requestArgs } from '../sync/outbox/send';
import type { QueuedMutation } from '../sync/outbox/types';
import { percentile, printFigures, round, startServerProcess, tempDir } from './lib';

const EDITS = 1_000;
const ROUNDS = 15;

/** Sends rows like the pusher does, without an outbox: ids mapped in memory, pool of 4. */
const sendDirect = async (client: ApiClient, rows: readonly QueuedMutation[]): Promise<number> => {
  const ids = new Map<string, number>();
  const done = new Set<number>();
  const todo = [...rows];
  const inflight = new Map<number, Promise<void>>();
  const busy = new Set<string>();
  const resolve = (kind: string, id: number) => (id > 0 ? id : ids.get(`${kind}:${id}`));
  let sent = 0;
  while (todo.length > 0 || inflight.size > 0) {
    for (const row of [...todo]) {
      if (inflight.size >= 4) break;
      if (busy.has(row.entity)) continue;
      const earlier = todo.find((r) => r.entity === row.entity);
      if (earlier && earlier !== row) continue;
      // One running timer per user: timer rows go one at a time, as the queue sends them.
      const isTimer = (r: QueuedMutation) => r.kind.startsWith('timer.');
      if (
        isTimer(row) &&
        rows.some((r) => isTimer(r) && r.mutationId < row.mutationId && !done.has(r.mutationId))
      )
        continue;
      const deps = row.dependsOn.filter((k) => k !== row.entity);
      if (deps.some((k) => Number(k.split(':')[1]) < 0 && !ids.has(k))) continue;
      const path: Record<string, number> = {};
      let blocked = false;
      for (const [name, v] of Object.entries(row.path)) {
        const kind = name === 'trackId' ? 'timer' : name === 'checklistId' ? 'checklist' : 'task';
        const r = resolve(kind, v);
        if (r === undefined) blocked = true;
        else path[name] = r;
      }
      if (blocked) continue;
      todo.splice(todo.indexOf(row), 1);
      busy.add(row.entity);
      const args = requestArgs({ db: undefined as never, dataDir: '' }, row, path, row.body);
      const job = client
        .call(row.operationId, args as never)
        .then((answer) => {
          sent++;
          const a = (answer ?? {}) as Record<string, unknown>;
          const [kind, idText] = row.entity.split(':');
          const own = { task: 'taskId', checklist: 'checklistId', timer: 'trackId' }[kind ?? ''];
          if (Number(idText) < 0 && own && typeof a[own] === 'number')
            ids.set(row.entity, a[own] as number);
        })
        .finally(() => {
          busy.delete(row.entity);
          done.add(row.mutationId);
          inflight.delete(row.mutationId);
        });
      inflight.set(row.mutationId, job);
    }
    if (inflight.size > 0) await Promise.race(inflight.values());
  }
  return sent;
};

interface RoundFigures {
  requests: number;
  coalesced: number;
  floorSent: number;
  wall: number;
  floor: number;
  visible: number[];
}

/** The demo user's engine through its first pull, then paused: edits queue in its outbox. */
const pausedEngine = async (serverUrl: string, dataDir: string) => {
  const session = await signIn(serverUrl, 'demo@example.com', 'demo1234');
  const client = createApiClient({ baseUrl: serverUrl, orgId: 1, session });
  const userId = session.user?.userId ?? 0;
  const engine = openEngine({ dataDir, client, userId, pullIntervalMs: 3_600_000 });
  engine.start();
  await engine.syncNow();
  engine.pause();
  return { client, userId, engine };
};

/** One replay and its floor, each on a fresh server of the same seed (a twin: same ids). */
const runRound = async (floorFirst: boolean): Promise<RoundFigures> => {
  const dir = tempDir('wt-bench-replay-');
  const server = await startServerProcess(['--seed', 'demo', '--data', join(dir, 'server')]);
  const twin = await startServerProcess(['--seed', 'demo', '--data', join(dir, 'twin')]);
  try {
    return await replayAndFloor(server.url, twin.url, dir, floorFirst);
  } finally {
    await server.stop();
    await twin.stop();
  }
};

const replayAndFloor = async (
  serverUrl: string,
  twinUrl: string,
  dir: string,
  floorFirst: boolean,
): Promise<RoundFigures> => {
  const { client, userId, engine } = await pausedEngine(serverUrl, join(dir, 'client'));
  const db = engine.replica.db;
  const existing = (
    db
      .prepare(
        'SELECT task_id AS id FROM tasks WHERE project_id IS NULL AND parent_task_id IS NULL AND created_by = ? ORDER BY task_id LIMIT 50',
      )
      .all(userId) as { id: number }[]
  ).map((r) => r.id);

  // 20 new tasks + 50 existing ones + 25 checklist items + 5 timers = 100 entities.
  const visible: number[] = [];
  const edit = (command: EditCommand, check: () => boolean) => {
    const t0 = performance.now();
    const r = engine.edit(command);
    if (!check()) throw new Error(`edit ${command.kind} not visible`);
    visible.push(performance.now() - t0);
    return r;
  };
  const now = () => Date.now();
  const created: number[] = [];
  for (let i = 0; i < 20; i++) {
    const title = `replay ${i}`;
    let id = 0;
    const r = edit({ kind: 'task.create', fields: { taskTitle: title } }, () => {
      id =
        (
          db.prepare('SELECT task_id FROM tasks WHERE title = ?').get(title) as
            | { task_id: number }
            | undefined
        )?.task_id ?? 0;
      return readTask(db, id, now())?.taskTitle === title;
    });
    created.push(r.id);
  }
  const tasks = [...created, ...existing];
  const checks: { id: number; done: boolean }[] = [];
  for (let i = 0; i < 25; i++) {
    const taskId = created[i % created.length] ?? 0;
    const r = edit({ kind: 'checklist.create', taskId, name: `step ${i}` }, () => true);
    checks.push({ id: r.id, done: false });
  }
  const timers: number[] = [];
  for (let i = 0; i < 5; i++) {
    const taskId = created[i] ?? 0;
    const r = edit({ kind: 'timer.start', taskId }, () => true);
    edit({ kind: 'timer.stop', trackId: r.id }, () => true);
    timers.push(r.id);
  }
  let n = visible.length;
  for (; n < EDITS; n++) {
    if (n % 3 === 0) {
      const c = checks[n % checks.length];
      if (!c) continue;
      c.done = !c.done;
      edit({ kind: 'checklist.update', checklistId: c.id, patch: { completed: c.done } }, () => {
        const row = db
          .prepare('SELECT completed FROM checklist_items WHERE checklist_id = ?')
          .get(c.id) as { completed: number } | undefined;
        return row?.completed === (c.done ? 1 : 0);
      });
    } else {
      const taskId = tasks[n % tasks.length] ?? 0;
      const priority = (['Low', 'Medium', 'High'] as const)[n % 3] ?? 'Low';
      edit({ kind: 'task.update', taskId, patch: { priority } }, () => {
        const row = db.prepare('SELECT priority FROM tasks WHERE task_id = ?').get(taskId) as
          | { priority: string }
          | undefined;
        return row?.priority === priority;
      });
    }
  }
  const rows = allMutations(db);
  const coalesced = rows.length;
  const before = rows.reduce((m, r) => Math.max(m, r.mutationId), 0);

  // The replay alone: a sync pulls first (pending edits are rebased on the newest rows), then
  // pushes; the replay is timed from the push's start until nothing is pending.
  const replay = async () => {
    let drained = 0;
    let t0 = 0;
    const off = engine.on((e) => {
      if (e.type !== 'status') return;
      if (e.status.activity === 'pushing' && t0 === 0) t0 = performance.now();
      if (e.status.pending === 0 && t0 !== 0 && drained === 0) drained = performance.now();
    });
    engine.resume();
    for (let i = 0; i < 50 && engine.status().pending > 0; i++) await engine.syncNow();
    await engine.syncNow();
    off();
    const wall = ((drained || performance.now()) - t0) / 1000;
    const corrections =
      (
        db.prepare('SELECT max(seq) AS n FROM sqlite_sequence WHERE name = ?').get('outbox') as {
          n: number;
        }
      ).n - before;
    if (engine.status().pending > 0 || engine.status().failed.length > 0)
      throw new Error(`replay did not finish: ${JSON.stringify(engine.status())}`);
    await engine.close();
    await client.close();
    return { wall, requests: coalesced + Math.max(0, corrections) };
  };

  // The floor: the same requests, sent directly, no outbox, to the twin, warmed by the same
  // first pull the replay's server served (a cold server would flatter the outbox).
  const direct = async () => {
    const twinSession = await signIn(twinUrl, 'demo@example.com', 'demo1234');
    const twinClient = createApiClient({ baseUrl: twinUrl, orgId: 1, session: twinSession });
    const warm = openEngine({
      dataDir: join(dir, 'warm'),
      client: twinClient,
      userId,
      pullIntervalMs: 3_600_000,
    });
    warm.start();
    await warm.syncNow();
    await warm.close();
    const f0 = performance.now();
    const floorSent = await sendDirect(twinClient, rows);
    const floor = (performance.now() - f0) / 1000;
    await twinClient.close();
    return { floor, floorSent };
  };

  // Which goes first alternates: neither always runs in the other's wake (its garbage, its
  // processes' CPU state), and a drift of the machine's speed falls on both alike.
  if (floorFirst) {
    const { floor, floorSent } = await direct();
    const { wall, requests } = await replay();
    return { requests, coalesced, floorSent, wall, floor, visible };
  }
  const { wall, requests } = await replay();
  const { floor, floorSent } = await direct();
  return { requests, coalesced, floorSent, wall, floor, visible };
};

const rounds: RoundFigures[] = [];
for (let i = 0; i <= ROUNDS; i++) {
  // Counted rounds alternate the order: odd ones replay first, even ones send the floor first.
  const r = await runRound(i > 0 && i % 2 === 0);
  if (i > 0) rounds.push(r);
  process.stdout.write(
    `${i === 0 ? 'warm-up round (not counted)' : `round ${i}`}: replay ${round(r.wall * 1000, 1)} ms, floor ${round(r.floor * 1000, 1)} ms, ratio ${round(r.wall / r.floor)}\n`,
  );
}
/**
 * A long outbox: `n` tasks created offline, then replayed; ms per row. Were the replay's work
 * per row to grow with the rows still queued, 4,000 rows would cost more each than 500.
 */
const longReplayMsPerRow = async (n: number): Promise<number> => {
  const dir = tempDir('wt-bench-replay-long-');
  const server = await startServerProcess(['--seed', 'demo', '--data', join(dir, 'server')]);
  try {
    const { client, engine } = await pausedEngine(server.url, join(dir, 'client'));
    for (let i = 0; i < n; i++)
      engine.edit({ kind: 'task.create', fields: { taskTitle: `offline ${i}` } });
    const t0 = performance.now();
    engine.resume();
    for (let i = 0; i < 50 && engine.status().pending > 0; i++) await engine.syncNow();
    const ms = performance.now() - t0;
    if (engine.status().pending > 0) throw new Error('the long replay did not finish');
    await engine.close();
    await client.close();
    return ms / n;
  } finally {
    await server.stop();
  }
};
const long500 = await longReplayMsPerRow(500);
const long4000 = await longReplayMsPerRow(4_000);
process.stdout.write(
  `long outbox: 500 creates ${round(long500)} ms a row, 4,000 creates ${round(long4000)} ms a row\n`,
);

/**
 * What an edit's durable commit costs on this disk, in the same run: a write committed with
 * the WAL synced (`durably`, as every edit commits) against the same write at NORMAL.
 */
const commitCost = (): { durable: number[]; normal: number[] } => {
  const db = openSqlite(join(tempDir('wt-bench-commit-'), 'commit.sqlite'));
  const write = db.prepare('INSERT OR REPLACE INTO replica_info (key, value) VALUES (?, ?)');
  const durable: number[] = [];
  const normal: number[] = [];
  for (let i = 0; i < 400; i++) {
    const t0 = performance.now();
    if (i % 2 === 0) durably(db, () => write.run('bench', String(i)));
    else db.transaction(() => write.run('bench', String(i)))();
    (i % 2 === 0 ? durable : normal).push(performance.now() - t0);
  }
  db.close();
  return { durable, normal };
};
const commits = commitCost();

const median = (xs: number[]) => percentile(xs, 50);
const first = rounds[0] as RoundFigures;
const wall = median(rounds.map((r) => r.wall));
const floor = median(rounds.map((r) => r.floor));
const visible = rounds.flatMap((r) => r.visible);
printFigures({
  edits: EDITS,
  entities: 100,
  rounds: ROUNDS,
  requests: first.requests,
  requests_per_edit: round(first.requests / EDITS, 3),
  coalesced_requests: first.coalesced,
  floor_requests: first.floorSent,
  wall_s: round(wall, 3),
  floor_s: round(floor, 3),
  // The median of the rounds' ratios: each round's pair ran back to back, in alternating order.
  floor_ratio: round(median(rounds.map((r) => r.wall / r.floor)), 2),
  visible_p50_ms: round(percentile(visible, 50), 3),
  visible_p95_ms: round(percentile(visible, 95), 3),
  // Every edit commits with the WAL synced (power-cut safe): what that sync costs here.
  durable_commit_p50_ms: round(percentile(commits.durable, 50), 3),
  durable_commit_p95_ms: round(percentile(commits.durable, 95), 3),
  normal_commit_p95_ms: round(percentile(commits.normal, 95), 3),
  long_500_ms_per_row: round(long500, 2),
  long_4000_ms_per_row: round(long4000, 2),
  // Flat is 1: the work per row does not grow with the rows still queued.
  long_scaling: round(long4000 / long500, 2),
});
