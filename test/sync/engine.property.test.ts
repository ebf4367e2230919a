/**
 * Any sequence of edits, syncs, server faults (offline, dropped answers after the commit,
 * 5xx), and engine restarts ends, once the server is reachable again, with the replica equal
 * to the server and every edit applied exactly once (no duplicate create, no lost edit).
 * Half the runs use a server that ignores Idempotency-Key, so dropped creates must be
 * reconciled rather than deduplicated by the server.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/app';
import type { ApiClient } from '../../sync/api';
import { openEngine } from '../../sync/engine/engine';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { admin, demoClient, tempDir } from './support';

type Action =
  | { a: 'create' }
  | { a: 'rename'; i: number }
  | { a: 'priority'; i: number; p: 'Low' | 'High' }
  | { a: 'delete'; i: number }
  | { a: 'check'; i: number }
  | { a: 'toggle'; i: number }
  | { a: 'sync' }
  | { a: 'fault'; kind: 'reset' | 'drop' | '5xx'; count: number }
  | { a: 'heal' }
  | { a: 'restart' };

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ a: 'create' } as const) },
  { weight: 2, arbitrary: fc.nat(20).map((i) => ({ a: 'rename', i }) as const) },
  {
    weight: 2,
    arbitrary: fc
      .record({ i: fc.nat(20), p: fc.constantFrom('Low', 'High') })
      .map((r) => ({ a: 'priority', ...r }) as const),
  },
  { weight: 1, arbitrary: fc.nat(20).map((i) => ({ a: 'delete', i }) as const) },
  { weight: 2, arbitrary: fc.nat(20).map((i) => ({ a: 'check', i }) as const) },
  { weight: 3, arbitrary: fc.nat(20).map((i) => ({ a: 'toggle', i }) as const) },
  { weight: 3, arbitrary: fc.constant({ a: 'sync' } as const) },
  {
    weight: 2,
    arbitrary: fc
      .record({
        kind: fc.constantFrom('reset', 'drop', '5xx'),
        count: fc.integer({ min: 1, max: 4 }),
      })
      .map((r) => ({ a: 'fault', ...r }) as const),
  },
  { weight: 1, arbitrary: fc.constant({ a: 'heal' } as const) },
  { weight: 1, arbitrary: fc.constant({ a: 'restart' } as const) },
);

const servers: Record<'honours' | 'ignores', RunningServer | undefined> = {
  honours: undefined,
  ignores: undefined,
};
const clients: ApiClient[] = [];

beforeAll(async () => {
  servers.honours = await startServer({ dataDir: null, admin: true, seed: { kind: 'demo' } });
  servers.ignores = await startServer({
    dataDir: null,
    admin: true,
    seed: { kind: 'demo' },
    quirks: ['ignore-idempotency-key'],
  });
});

afterAll(async () => {
  for (const c of clients) await c.close();
  await servers.honours?.close();
  await servers.ignores?.close();
});

interface TaskRow {
  title: string;
  priority: string;
}
interface CheckRow {
  task: string;
  name: string;
  completed: number;
}

const serverState = (s: RunningServer, prefix: string) => ({
  tasks: s.deps.db
    .prepare('SELECT title, priority FROM tasks WHERE title LIKE ? AND deleted = 0 ORDER BY title')
    .all(`${prefix}%`) as TaskRow[],
  checks: s.deps.db
    .prepare(
      `SELECT t.title AS task, c.name AS name, c.completed AS completed FROM checklist_items c
       JOIN tasks t ON t.task_id = c.task_id
       WHERE t.title LIKE ? AND t.deleted = 0 ORDER BY t.title, c.name`,
    )
    .all(`${prefix}%`) as CheckRow[],
});

const replicaState = (e: SyncEngine, prefix: string) => ({
  tasks: e.replica.db
    .prepare('SELECT title, priority FROM tasks WHERE title LIKE ? ORDER BY title')
    .all(`${prefix}%`) as TaskRow[],
  checks: e.replica.db
    .prepare(
      `SELECT t.title AS task, c.name AS name, c.completed AS completed FROM checklist_items c
       JOIN tasks t ON t.task_id = c.task_id WHERE t.title LIKE ? ORDER BY t.title, c.name`,
    )
    .all(`${prefix}%`) as CheckRow[],
});

let run = 0;

const runScenario = async (actions: Action[], quirky: boolean) => {
  const server = quirky ? servers.ignores : servers.honours;
  if (!server) throw new Error('no server');
  const prefix = `p${++run}-${quirky ? 'q' : 'h'}-`;
  const client = await demoClient(server);
  clients.push(client);
  const dataDir = tempDir('engine-prop-');
  const open = () =>
    openEngine({
      dataDir,
      client,
      userId: client.session.user?.userId ?? 0,
      pullIntervalMs: 3_600_000,
    });
  let engine = open();
  engine.start();
  await engine.syncNow();
  const tasks: { id: number; title: string }[] = [];
  const checks: { id: number; task: number }[] = [];
  const expected = new Map<string, { priority: string; checks: Map<string, boolean> }>();
  let n = 0;
  const pick = <T>(xs: T[], i: number): T | undefined =>
    xs.length ? xs[i % xs.length] : undefined;
  try {
    for (const act of actions) {
      switch (act.a) {
        case 'create': {
          const title = `${prefix}${++n}`;
          const r = engine.edit({ kind: 'task.create', fields: { taskTitle: title } });
          tasks.push({ id: r.id, title });
          expected.set(title, { priority: 'None', checks: new Map() });
          break;
        }
        case 'rename': {
          const t = pick(tasks, act.i);
          if (!t) break;
          const title = `${prefix}${++n}`;
          const prior = expected.get(t.title);
          engine.edit({ kind: 'task.update', taskId: t.id, patch: { taskTitle: title } });
          expected.delete(t.title);
          if (prior) expected.set(title, prior);
          t.title = title;
          break;
        }
        case 'priority': {
          const t = pick(tasks, act.i);
          if (!t) break;
          engine.edit({ kind: 'task.update', taskId: t.id, patch: { priority: act.p } });
          const e = expected.get(t.title);
          if (e) e.priority = act.p;
          break;
        }
        case 'delete': {
          const t = pick(tasks, act.i);
          if (!t) break;
          engine.edit({ kind: 'task.delete', taskId: t.id });
          tasks.splice(tasks.indexOf(t), 1);
          for (let k = checks.length - 1; k >= 0; k--)
            if (checks[k]?.task === t.id) checks.splice(k, 1);
          expected.delete(t.title);
          break;
        }
        case 'check': {
          const t = pick(tasks, act.i);
          if (!t) break;
          const name = `c${++n}`;
          const r = engine.edit({ kind: 'checklist.create', taskId: t.id, name });
          checks.push({ id: r.id, task: t.id });
          expected.get(t.title)?.checks.set(name, false);
          break;
        }
        case 'toggle': {
          const c = pick(checks, act.i);
          if (!c) break;
          const owner = tasks.find((t) => t.id === c.task);
          const e = owner ? expected.get(owner.title) : undefined;
          const name = (
            engine.replica.db
              .prepare('SELECT name FROM checklist_items WHERE checklist_id = ?')
              .get(engineId(engine, 'checklist', c.id)) as { name: string } | undefined
          )?.name;
          if (!e || !name) break;
          const next = !(e.checks.get(name) ?? false);
          engine.edit({ kind: 'checklist.update', checklistId: c.id, patch: { completed: next } });
          e.checks.set(name, next);
          break;
        }
        case 'sync':
          await engine.syncNow();
          break;
        case 'fault':
          await admin(server, 'faults', {
            rules: [
              {
                kind: act.kind,
                count: act.count,
                ...(act.kind === 'reset' ? {} : { method: 'POST' }),
              },
            ],
          });
          break;
        case 'heal':
          await admin(server, 'faults', { clear: true });
          break;
        case 'restart':
          await engine.close();
          engine = open();
          engine.start();
          break;
      }
    }
    await admin(server, 'faults', { clear: true });
    for (let i = 0; i < 40 && (engine.status().pending > 0 || i < 2); i++) {
      await engine.syncNow();
      if (engine.status().pending > 0) await new Promise((r) => setTimeout(r, 50));
      // Backoff delays are real time; let the next attempt come due.
      const next = engine.status().nextRetryAt;
      if (next !== null && engine.status().pending > 0)
        await new Promise((r) => setTimeout(r, Math.min(2_500, Math.max(0, next - Date.now()))));
    }
    expect(engine.status().failed).toEqual([]);
    expect(engine.status().pending).toBe(0);
    const want = {
      tasks: [...expected]
        .map(([title, e]) => ({ title, priority: e.priority }))
        .sort((a, b) => (a.title < b.title ? -1 : 1)),
    };
    const s = serverState(server, prefix);
    expect(s.tasks).toEqual(want.tasks);
    expect(replicaState(engine, prefix)).toEqual(s);
    const wantChecks = [...expected]
      .flatMap(([task, e]) =>
        [...e.checks].map(([name, done]) => ({ task, name, completed: done ? 1 : 0 })),
      )
      .sort((a, b) => (a.task === b.task ? (a.name < b.name ? -1 : 1) : a.task < b.task ? -1 : 1));
    expect(s.checks).toEqual(wantChecks);
  } finally {
    await admin(server, 'faults', { clear: true });
    await engine.close();
  }
};

const engineId = (engine: SyncEngine, kind: string, id: number): number => {
  if (id > 0) return id;
  const row = engine.replica.db
    .prepare('SELECT server_id FROM local_ids WHERE entity_kind = ? AND local_id = ?')
    .get(kind, id) as { server_id: number } | undefined;
  return row?.server_id ?? id;
};

describe('engine convergence (property)', () => {
  it('converges to the server with every edit applied exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(action, { minLength: 5, maxLength: 30 }),
        fc.boolean(),
        runScenario,
      ),
      { numRuns: 12, seed: 20261122, endOnFailure: true },
    );
  }, 240_000);
});
