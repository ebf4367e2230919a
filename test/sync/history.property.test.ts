/**
 * Undo and redo against the reference server, as properties: any sequence of edits, undos and
 * redos, with pushes in between, ends with the server holding what the replica shows, for
 * every task and field the sequence touched; and with every step of it undone at the end, the
 * server holds the tasks as they started. The seed is printed; HISTORY_SEED replays it,
 * HISTORY_RUNS sets the cases per property.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { EditCommand } from '../../shared/edits/commands';
import type { ApiClient } from '../../sync/api';
import { openEngine } from '../../sync/engine/engine';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { demoClient, startDemoServer, tempDir } from './support';

let server: RunningServer;
let client: ApiClient;
let engine: SyncEngine;

beforeAll(async () => {
  server = await startDemoServer();
  client = await demoClient(server);
  engine = openEngine({
    dataDir: tempDir('history-prop-'),
    client,
    userId: client.session.user?.userId ?? 0,
    pullIntervalMs: 3_600_000,
  });
  engine.start();
  await engine.syncNow();
}, 60_000);
afterAll(async () => {
  await engine?.close();
  await client?.close();
  await server?.close();
});

type Action =
  | { t: 'create'; title: number }
  | { t: 'update'; pick: number; field: 'taskTitle' | 'priority' | 'description'; value: number }
  | { t: 'delete'; pick: number }
  | { t: 'item'; pick: number }
  | { t: 'tick'; pick: number }
  | { t: 'sub'; pick: number }
  | { t: 'undo' }
  | { t: 'redo' }
  | { t: 'push' };

const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.record({ t: fc.constant('create' as const), title: fc.nat(3) }), weight: 2 },
  {
    arbitrary: fc.record({
      t: fc.constant('update' as const),
      pick: fc.nat(),
      field: fc.constantFrom('taskTitle' as const, 'priority' as const, 'description' as const),
      value: fc.nat(2),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ t: fc.constant('delete' as const), pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('item' as const), pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('tick' as const), pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('sub' as const), pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.constant({ t: 'undo' as const }), weight: 4 },
  { arbitrary: fc.constant({ t: 'redo' as const }), weight: 2 },
  { arbitrary: fc.constant({ t: 'push' as const }), weight: 2 },
);

const priorities = ['Low', 'High', 'Urgent'];

interface Shown {
  title: string;
  priority: string | null;
  description: string | null;
  /** The parent's title: a subtask made again has a new parent id. */
  parent: string | null;
  /** Checklist items: `name` or `name ✓`. */
  items: string[];
}

/** The case's tasks as the replica shows them, by id. */
const replicaTasks = (prefix: string): Map<number, Shown> => {
  const db = engine.replica.db;
  const rows = db
    .prepare(
      `SELECT t.task_id, t.title, t.priority, t.description, p.title AS parent
       FROM tasks t LEFT JOIN tasks p ON p.task_id = t.parent_task_id WHERE t.title LIKE ?`,
    )
    .all(`${prefix}%`) as {
    task_id: number;
    title: string;
    priority: string | null;
    description: string | null;
    parent: string | null;
  }[];
  return new Map(
    rows.map((r) => [
      r.task_id,
      {
        title: r.title,
        priority: r.priority,
        description: r.description ?? '',
        parent: r.parent,
        items: (
          db
            .prepare(
              'SELECT name, completed FROM checklist_items WHERE task_id = ? ORDER BY name, completed',
            )
            .all(r.task_id) as { name: string; completed: number }[]
        ).map((i) => (i.completed ? `${i.name} ✓` : i.name)),
      },
    ]),
  );
};

/** The same on the server's own store. */
const serverTasks = (prefix: string): Map<number, Shown> => {
  const db = server.deps.db;
  const rows = db
    .prepare(
      `SELECT t.task_id, t.title, t.priority, t.description, p.title AS parent
       FROM tasks t LEFT JOIN tasks p ON p.task_id = t.parent_task_id
       WHERE t.title LIKE ? AND t.deleted = 0`,
    )
    .all(`${prefix}%`) as {
    task_id: number;
    title: string;
    priority: string;
    description: string;
    parent: string | null;
  }[];
  return new Map(
    rows.map((r) => [
      r.task_id,
      {
        title: r.title,
        priority: r.priority,
        description: r.description,
        parent: r.parent,
        items: (
          db
            .prepare(
              'SELECT name, completed FROM checklist_items WHERE task_id = ? ORDER BY name, completed',
            )
            .all(r.task_id) as { name: string; completed: number }[]
        ).map((i) => (i.completed ? `${i.name} ✓` : i.name)),
      },
    ]),
  );
};

const settle = async () => {
  for (let i = 0; i < 20 && engine.status().pending > 0; i++) await engine.syncNow();
  expect(engine.status().pending).toBe(0);
  expect(engine.status().failed).toEqual([]);
};

let caseNo = 0;

const sameMultiset = (m: Map<number, Shown>) =>
  [...m.values()].map((t) => JSON.stringify(t)).sort();

const topStep = () =>
  (
    engine.replica.db
      .prepare('SELECT max(step_id) AS id FROM history_steps WHERE undone = 0')
      .get() as { id: number | null }
  ).id ?? 0;

const runCase = async (actions: Action[], undoAll = false) => {
  const prefix = `hp${++caseNo}-`;
  const live = () => [...replicaTasks(prefix).keys()].sort((a, b) => a - b);
  const pickTask = (n: number) => {
    const ids = live();
    return ids.length === 0 ? undefined : ids[n % ids.length];
  };
  // Two tasks on the server to start from.
  for (const n of [0, 1])
    engine.edit({ kind: 'task.create', fields: { taskTitle: `${prefix}start ${n}` } });
  await settle();
  const start = sameMultiset(replicaTasks(prefix));
  const firstStep = topStep();
  for (const a of actions) {
    let cmd: EditCommand | undefined;
    switch (a.t) {
      case 'create':
        cmd = { kind: 'task.create', fields: { taskTitle: `${prefix}new ${a.title}` } };
        break;
      case 'update': {
        const taskId = pickTask(a.pick);
        if (taskId === undefined) break;
        const patch =
          a.field === 'taskTitle'
            ? { taskTitle: `${prefix}t${a.value}` }
            : a.field === 'priority'
              ? { priority: priorities[a.value] ?? 'Low' }
              : { description: `d${a.value}` };
        cmd = { kind: 'task.update', taskId, patch };
        break;
      }
      case 'delete': {
        const taskId = pickTask(a.pick);
        if (taskId !== undefined) cmd = { kind: 'task.delete', taskId };
        break;
      }
      case 'item': {
        const taskId = pickTask(a.pick);
        if (taskId !== undefined)
          cmd = { kind: 'checklist.create', taskId, name: `i${a.pick % 3}` };
        break;
      }
      case 'sub': {
        const tops = engine.replica.db
          .prepare(
            'SELECT task_id FROM tasks WHERE title LIKE ? AND parent_task_id IS NULL ORDER BY task_id',
          )
          .pluck()
          .all(`${prefix}%`) as number[];
        const parentTaskId = tops[a.pick % Math.max(1, tops.length)];
        if (parentTaskId !== undefined)
          cmd = {
            kind: 'task.create',
            parentTaskId,
            fields: { taskTitle: `${prefix}sub ${a.pick % 2}` },
          };
        break;
      }
      case 'tick': {
        const items = engine.replica.db
          .prepare(
            `SELECT c.checklist_id AS id, c.completed FROM checklist_items c
             JOIN tasks t ON t.task_id = c.task_id WHERE t.title LIKE ? ORDER BY c.checklist_id`,
          )
          .all(`${prefix}%`) as { id: number; completed: number }[];
        const item = items[a.pick % Math.max(1, items.length)];
        if (item)
          cmd = {
            kind: 'checklist.update',
            checklistId: item.id,
            patch: { completed: item.completed === 0 },
          };
        break;
      }
      case 'undo':
        // Undoing all of the case at its end: none of its undos goes past its start.
        if (!undoAll || topStep() > firstStep) engine.undo();
        break;
      case 'redo':
        engine.redo();
        break;
      case 'push':
        await settle();
        break;
    }
    if (cmd) engine.edit(cmd);
  }
  if (undoAll) {
    // Every step of the case undone, newest first: the case's tasks are as they started
    // (ids aside: a task deleted once sent comes back under a new one).
    for (let i = 0; i < 100 && topStep() > firstStep; i++) engine.undo();
  }
  await settle();
  // A pull after the last push: what the server has is what the replica shows.
  await engine.syncNow();
  const shown = replicaTasks(prefix);
  expect(Object.fromEntries(serverTasks(prefix))).toEqual(Object.fromEntries(shown));
  if (undoAll) expect(sameMultiset(shown)).toEqual(start);
};

const property = (name: string, undoAll: boolean) =>
  it(name, async () => {
    const seed = Number(process.env.HISTORY_SEED ?? Date.now() % 2 ** 31);
    console.log(`${name}: seed ${seed} (HISTORY_SEED=${seed} replays it)`);
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 4, maxLength: 16 }), (a) =>
        runCase(a, undoAll),
      ),
      { seed, numRuns: Number(process.env.HISTORY_RUNS ?? 20), endOnFailure: true },
    );
  }, 300_000);

describe('history against the reference server', () => {
  property('edits, undos, redos and pushes: the server ends as the replica shows', false);
  property('then every step undone: the server ends with the tasks as they started', true);
});
