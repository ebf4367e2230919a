/**
 * The outbox against a model. A user makes random edits (tasks and their checklist items:
 * create, update, delete) while a simulated pusher sends ready rows, answers come back in
 * any order, some answers are lost (before or after the server processed the request) and
 * the app crashes now and then. Draining the queue at the end must leave the server exactly
 * as the user's edits left the local view, with no failure, no stuck row, and never more
 * distinct requests than edits.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocateLocalId, mapLocalId, rewriteIds, serverIdOf } from './local-ids';
import {
  allMutations,
  enqueue,
  failPermanently,
  markInflight,
  readyMutations,
  resetInflight,
  retryLater,
  settle,
} from './queue';
import {
  createItem,
  createTask,
  deleteItem,
  deleteTask,
  item,
  type TempReplica,
  tempReplica,
  updateItem,
  updateTask,
} from './test-support';
import { kindSpec, type QueuedMutation } from './types';

type Step =
  | { op: 'createTask'; title: string }
  | { op: 'updateTask'; pick: number; title: string }
  | { op: 'deleteTask'; pick: number }
  | { op: 'createItem'; pick: number; name: string }
  | { op: 'updateItem'; pick: number; name: string; completed: boolean }
  | { op: 'deleteItem'; pick: number }
  | { op: 'send'; pick: number }
  | { op: 'answer'; pick: number; outcome: 'ok' | 'lost-before' | 'lost-after' }
  | { op: 'crash'; processed: boolean };

const word = fc.constantFrom('a', 'b', 'c', 'd');
const pick = fc.nat(5);
const edit: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('createTask' as const), title: word }),
  fc.record({ op: fc.constant('updateTask' as const), pick, title: word }),
  fc.record({ op: fc.constant('deleteTask' as const), pick }),
  fc.record({ op: fc.constant('createItem' as const), pick, name: word }),
  fc.record({ op: fc.constant('updateItem' as const), pick, name: word, completed: fc.boolean() }),
  fc.record({ op: fc.constant('deleteItem' as const), pick }),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: edit, weight: 10 },
  { arbitrary: fc.record({ op: fc.constant('send' as const), pick }), weight: 5 },
  {
    arbitrary: fc.record({
      op: fc.constant('answer' as const),
      pick,
      outcome: fc.constantFrom('ok' as const, 'lost-before' as const, 'lost-after' as const),
    }),
    weight: 5,
  },
  {
    arbitrary: fc.record({ op: fc.constant('crash' as const), processed: fc.boolean() }),
    weight: 1,
  },
);

interface Item {
  taskId: number;
  name: string;
  completed: boolean;
}

/** The reference server: tasks and checklist items, idempotent creates. */
class Server {
  tasks = new Map<number, string>([
    [1, 'one'],
    [2, 'two'],
  ]);
  items = new Map<number, Item>([
    [10, { taskId: 1, name: 'x', completed: false }],
    [11, { taskId: 2, name: 'y', completed: true }],
  ]);
  private nextId = 1_000;
  private keys = new Map<string, number>();

  /** Processes a request; the created id, true, or 404. */
  handle(row: QueuedMutation, path: Record<string, number>, body: unknown): number | true | 404 {
    const b = body as { taskTitle: string; name: string; completed?: boolean };
    const created = (make: (id: number) => void) => {
      const known = this.keys.get(row.idempotencyKey);
      if (known !== undefined) return known;
      const id = this.nextId++;
      make(id);
      this.keys.set(row.idempotencyKey, id);
      return id;
    };
    switch (row.kind) {
      case 'task.create':
        return created((id) => this.tasks.set(id, b.taskTitle));
      case 'task.update':
        if (!this.tasks.has(path.taskId ?? 0)) return 404;
        this.tasks.set(path.taskId ?? 0, b.taskTitle);
        return true;
      case 'task.delete':
        if (!this.tasks.delete(path.taskId ?? 0)) return 404;
        for (const [id, it] of this.items) if (it.taskId === path.taskId) this.items.delete(id);
        return true;
      case 'checklist.create':
        if (!this.tasks.has(path.taskId ?? 0)) return 404;
        return created((id) =>
          this.items.set(id, { taskId: path.taskId ?? 0, name: b.name, completed: false }),
        );
      case 'checklist.update': {
        const it = this.items.get(path.checklistId ?? 0);
        if (!it) return 404;
        this.items.set(path.checklistId ?? 0, { ...it, name: b.name, completed: !!b.completed });
        return true;
      }
      case 'checklist.delete':
        return this.items.delete(path.checklistId ?? 0) ? true : 404;
      default:
        throw new Error(`unexpected ${row.kind}`);
    }
  }
}

let t: TempReplica;
beforeAll(() => {
  t = tempReplica('outbox-prop-');
});
afterAll(() => t.close());

const NOW = 1_000;

const run = (steps: Step[]) => {
  const db = t.db;
  db.exec(
    "DELETE FROM outbox; DELETE FROM local_ids; DELETE FROM replica_info WHERE key = 'next_local_id'",
  );
  const server = new Server();
  // The user's view: what the replica shows, by the ids the user knows.
  const tasks = new Map<number, string>(server.tasks);
  const items = new Map<number, Item>([...server.items].map(([k, v]) => [k, { ...v }]));
  const inflight: QueuedMutation[] = [];
  const sent = new Set<number>();
  const failures: string[] = [];
  let edits = 0;
  const nth = <T>(xs: T[], i: number): T | undefined => (xs.length ? xs[i % xs.length] : undefined);

  const deliver = (row: QueuedMutation, outcome: 'ok' | 'lost-before' | 'lost-after') => {
    inflight.splice(inflight.indexOf(row), 1);
    const rewritten = rewriteIds(db, row);
    if (rewritten.status !== 'ready') throw new Error(`sent while blocked: ${row.entity}`);
    let answer: number | true | 404 | undefined;
    if (outcome !== 'lost-before') {
      sent.add(row.mutationId);
      answer = server.handle(row, rewritten.path, rewritten.body);
    }
    const { effect, entity } = kindSpec(row.kind);
    // A delete resent after a lost answer finds the entity gone: its goal is met.
    if (answer === 404 && effect === 'delete' && row.attempts > 1) answer = true;
    if (answer === 404) {
      failures.push(`${row.kind} ${row.entity} → 404`);
      failPermanently(
        db,
        row.mutationId,
        { kind: 'not-found', failure: 'conflict', message: '' },
        NOW,
      );
      return;
    }
    if (outcome !== 'ok') {
      retryLater(db, row.mutationId, { kind: 'timeout', failure: 'retry', message: '' }, NOW, NOW);
      return;
    }
    db.transaction(() => {
      if (typeof answer === 'number') {
        const local = Number(row.entity.slice(row.entity.indexOf(':') + 1));
        if (local < 0) mapLocalId(db, entity, local, answer);
      }
      settle(db, row.mutationId);
    })();
  };

  const send = (i: number) => {
    const ready = readyMutations(db, NOW, 4);
    const row = nth(ready, i);
    if (!row) return;
    markInflight(db, row.mutationId, NOW);
    inflight.push({ ...row, attempts: row.attempts + 1 });
  };

  const user = (s: Step) => {
    const taskIds = [...tasks.keys()];
    const itemIds = [...items.keys()];
    const edit = (m: Parameters<typeof enqueue>[1]) => {
      edits++;
      db.transaction(() => enqueue(db, m, NOW))();
    };
    switch (s.op) {
      case 'createTask': {
        const id = allocateLocalId(db);
        tasks.set(id, s.title);
        return edit({ ...createTask(id, s.title), body: { taskTitle: s.title } });
      }
      case 'updateTask': {
        const id = nth(taskIds, s.pick);
        if (id === undefined) return;
        tasks.set(id, s.title);
        return edit({ ...updateTask(id, s.title), body: { taskTitle: s.title } });
      }
      case 'deleteTask': {
        const id = nth(taskIds, s.pick);
        if (id === undefined) return;
        tasks.delete(id);
        for (const [k, v] of items) if (v.taskId === id) items.delete(k);
        return edit(deleteTask(id));
      }
      case 'createItem': {
        const taskId = nth(taskIds, s.pick);
        if (taskId === undefined) return;
        const id = allocateLocalId(db);
        items.set(id, { taskId, name: s.name, completed: false });
        return edit(createItem(taskId, id, s.name));
      }
      case 'updateItem': {
        const id = nth(itemIds, s.pick);
        const it = id === undefined ? undefined : items.get(id);
        if (id === undefined || !it) return;
        items.set(id, { ...it, name: s.name, completed: s.completed });
        return edit(updateItem(it.taskId, id, item(s.name, s.completed)));
      }
      case 'deleteItem': {
        const id = nth(itemIds, s.pick);
        const it = id === undefined ? undefined : items.get(id);
        if (id === undefined || !it) return;
        items.delete(id);
        return edit(deleteItem(it.taskId, id));
      }
    }
  };

  for (const s of steps) {
    if (s.op === 'send') send(s.pick);
    else if (s.op === 'answer') {
      const row = nth(inflight, s.pick);
      if (row) deliver(row, s.outcome);
    } else if (s.op === 'crash') {
      // Requests in flight were, or were not, processed before the crash.
      for (const row of [...inflight]) {
        inflight.splice(inflight.indexOf(row), 1);
        const rewritten = rewriteIds(db, row);
        if (s.processed && rewritten.status === 'ready') {
          sent.add(row.mutationId);
          server.handle(row, rewritten.path, rewritten.body);
        }
      }
      resetInflight(db, NOW);
    } else user(s);
  }

  // Drain: send everything, all answers arrive.
  for (let round = 0; round < 500; round++) {
    for (const row of [...inflight]) deliver(row, 'ok');
    const ready = readyMutations(db, NOW, 4);
    if (ready.length === 0) break;
    for (let i = 0; i < ready.length; i++) send(0);
  }

  expect(failures).toEqual([]);
  expect(allMutations(db).map((m) => `${m.kind} ${m.entity} ${m.state}`)).toEqual([]);
  const toServer = (kind: 'task' | 'checklist', id: number) => {
    const s = serverIdOf(db, kind, id);
    if (s === undefined) throw new Error(`${kind}:${id} never reached the server`);
    return s;
  };
  expect(server.tasks).toEqual(new Map([...tasks].map(([id, v]) => [toServer('task', id), v])));
  expect(server.items).toEqual(
    new Map(
      [...items].map(([id, v]) => [
        toServer('checklist', id),
        { ...v, taskId: toServer('task', v.taskId) },
      ]),
    ),
  );
  expect(sent.size).toBeLessThanOrEqual(edits);
};

describe('the outbox against a model', () => {
  it('ends with the server as the edits left the local view, never with more requests', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => run(steps)),
      { numRuns: 400 },
    );
  });

  it('example: two updates of one task are never in flight together', () => {
    run([
      { op: 'updateTask', pick: 0, title: 'a' },
      { op: 'send', pick: 0 },
      { op: 'updateTask', pick: 0, title: 'b' },
      { op: 'send', pick: 0 },
      { op: 'answer', pick: 1, outcome: 'ok' },
      { op: 'answer', pick: 0, outcome: 'ok' },
    ]);
  });

  it('example: offline create, edits and delete of a task with an item send nothing', () => {
    run([
      { op: 'createTask', title: 'a' },
      { op: 'createItem', pick: 2, name: 'b' },
      { op: 'updateTask', pick: 2, title: 'c' },
      { op: 'updateItem', pick: 2, name: 'd', completed: true },
      { op: 'deleteTask', pick: 2 },
    ]);
  });
});
