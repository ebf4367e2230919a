import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bulkItems } from '../db/queries/read.fixture';
import { applyTaskItems } from '../db/queries/tasks-write';
import { mapLocalId } from './local-ids';
import {
  allMutations,
  discard,
  enqueue,
  failPermanently,
  getMutation,
  markConflict,
  markInflight,
  OutboxStateError,
  readyMutations,
  resetInflight,
  retryFailed,
  retryLater,
  settle,
} from './queue';
import { outboxStatus } from './status';
import {
  createItem,
  createSubtask,
  createTask,
  deleteItem,
  deleteTask,
  item,
  moveTimer,
  startTimer,
  type TempReplica,
  taskState,
  tempReplica,
  updateItem,
  updateTask,
} from './test-support';
import type { OutboxError } from './types';

let t: TempReplica;
beforeEach(() => {
  t = tempReplica();
});
afterEach(() => t.close());

const NOW = 1_000_000;
const id = (r: { mutationId: number | null }) => {
  if (r.mutationId === null) throw new Error('coalesced away');
  return r.mutationId;
};
const transient: OutboxError = { kind: 'network', failure: 'retry', message: 'socket hang up' };
const refused: OutboxError = {
  kind: 'validation',
  failure: 'permanent',
  status: 400,
  message: 'taskTitle: must not be blank',
  fieldErrors: [{ field: 'taskTitle', message: 'must not be blank' }],
};
const ready = (now = NOW) => readyMutations(t.db, now, 50).map((m) => m.mutationId);

describe('enqueue', () => {
  it('stores the request, a unique idempotency key, the references and the base', () => {
    const a = id(enqueue(t.db, { ...updateTask(5, 'a'), base: { taskTitle: 'server' } }, NOW));
    const b = id(enqueue(t.db, createSubtask(5, -1), NOW + 1));
    const ra = getMutation(t.db, a);
    const rb = getMutation(t.db, b);
    expect(ra).toMatchObject({
      entity: 'task:5',
      kind: 'task.update',
      operationId: 'updateTask',
      path: { taskId: 5 },
      body: taskState('a'),
      dependsOn: [],
      state: 'pending',
      attempts: 0,
      nextAttemptAt: NOW,
      lastError: null,
      base: { taskTitle: 'server' },
      createdAt: NOW,
    });
    expect(rb).toMatchObject({ entity: 'task:-1', dependsOn: ['task:5'], base: null });
    expect(b).toBeGreaterThan(a);
    expect(ra?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(ra?.idempotencyKey).not.toBe(rb?.idempotencyKey);
  });

  it('checks the path against the endpoint table', () => {
    expect(() => enqueue(t.db, { ...updateTask(5, 'a'), path: { taskId: 0 } }, NOW)).toThrow(
      /taskId/,
    );
    expect(() =>
      enqueue(t.db, { ...createSubtask(5, -1), path: {} as Record<string, number> }, NOW),
    ).toThrow(/parentTaskId/);
  });

  it('runs inside the caller transaction: a rollback leaves nothing queued', () => {
    expect(() =>
      t.db.transaction(() => {
        enqueue(t.db, updateTask(5, 'a'), NOW);
        throw new Error('the replica write failed');
      })(),
    ).toThrow(/replica write/);
    expect(allMutations(t.db)).toEqual([]);
  });

  it('create + update + delete of a task with a subtask, items and a timer sends nothing', () => {
    enqueue(t.db, updateTask(7, 'unrelated'), NOW);
    enqueue(t.db, createTask(-1), NOW);
    enqueue(t.db, updateTask(-1, 'renamed'), NOW);
    enqueue(t.db, createSubtask(-1, -2), NOW);
    enqueue(t.db, createItem(-2, -3), NOW);
    enqueue(t.db, updateItem(-2, -3, item('x', true)), NOW);
    enqueue(t.db, startTimer(-1, -4), NOW);
    enqueue(t.db, createItem(7, -5), NOW); // on another task: stays
    const r = enqueue(t.db, deleteTask(-1), NOW);
    expect(r).toMatchObject({ mutationId: null, rule: 'create-then-delete' });
    expect(r.dropped.mutations.map((m) => m.kind).sort()).toEqual([
      'checklist.create',
      'checklist.update',
      'task.create',
      'task.create',
      'timer.start',
    ]);
    expect(allMutations(t.db).map((m) => [m.kind, m.entity])).toEqual([
      ['task.update', 'task:7'],
      ['checklist.create', 'checklist:-5'],
    ]);
  });

  it('create + update is one create with the final state', () => {
    const c = id(enqueue(t.db, createTask(-1, 'draft'), NOW));
    expect(enqueue(t.db, updateTask(-1, 'final', 'Done'), NOW + 5)).toMatchObject({
      mutationId: null,
      rule: 'fold-into-create',
    });
    expect(allMutations(t.db)).toHaveLength(1);
    expect(getMutation(t.db, c)).toMatchObject({
      kind: 'task.create',
      body: taskState('final', 'Done'),
      updatedAt: NOW + 5,
    });
  });

  it('five toggles of a checklist item leave one update with the full final state', () => {
    for (let i = 0; i < 5; i++)
      enqueue(t.db, updateItem(10, 17, item('milk', i % 2 === 0, 4)), NOW + i);
    const rows = allMutations(t.db);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.body).toEqual({ name: 'milk', completed: true, assigneeId: 4 });
  });
});

describe('readyMutations', () => {
  it('takes one row per entity, in order, independent entities together', () => {
    const a1 = id(enqueue(t.db, updateTask(1, 'a'), NOW));
    const b1 = id(enqueue(t.db, updateItem(1, 20, item('b', true)), NOW));
    markInflight(t.db, a1, NOW);
    const a2 = id(enqueue(t.db, deleteTask(1), NOW));
    const c1 = id(enqueue(t.db, deleteItem(2, 30), NOW));
    expect(getMutation(t.db, a1)?.state).toBe('inflight');
    expect(ready()).toEqual([b1, c1]);
    // The delete of task 1 waits for its own earlier row and for the item that references it.
    settle(t.db, a1);
    expect(ready()).toEqual([b1, c1]);
    markInflight(t.db, b1, NOW);
    expect(ready()).toEqual([c1]);
    settle(t.db, b1);
    expect(ready()).toEqual([a2, c1]);
    expect(readyMutations(t.db, NOW, 1).map((m) => m.mutationId)).toEqual([a2]);
  });

  it('waits for local references to be mapped', () => {
    const task = id(enqueue(t.db, createTask(-1), NOW));
    const item1 = id(enqueue(t.db, createItem(-1, -2), NOW));
    const other = id(enqueue(t.db, updateTask(9, 'x'), NOW));
    expect(ready()).toEqual([task, other]);
    markInflight(t.db, task, NOW);
    expect(ready()).toEqual([other]);
    t.db.transaction(() => {
      mapLocalId(t.db, 'task', -1, 100);
      settle(t.db, task);
    })();
    expect(ready()).toEqual([item1, other]);
  });

  it('respects the next attempt time', () => {
    const a = id(enqueue(t.db, updateTask(1, 'a'), NOW));
    markInflight(t.db, a, NOW);
    retryLater(t.db, a, transient, NOW + 4_000, NOW);
    expect(ready(NOW + 3_999)).toEqual([]);
    expect(ready(NOW + 4_000)).toEqual([a]);
    expect(getMutation(t.db, a)).toMatchObject({
      state: 'pending',
      attempts: 1,
      lastError: transient,
    });
  });

  it('sends timer rows one at a time across timers (one running timer per user)', () => {
    const stopA = id(enqueue(t.db, moveTimer('timer.stop', 5), NOW));
    const startB = id(enqueue(t.db, startTimer(7, -2), NOW));
    const task = id(enqueue(t.db, updateTask(1, 'a'), NOW));
    expect(ready()).toEqual([stopA, task]);
    markInflight(t.db, stopA, NOW);
    expect(ready()).toEqual([task]);
    settle(t.db, stopA);
    expect(ready()).toEqual([startB, task]);
    // A timer edit the server refused does not hold the other timers back.
    markInflight(t.db, startB, NOW);
    failPermanently(t.db, startB, refused, NOW);
    const startC = id(enqueue(t.db, startTimer(8, -3), NOW));
    expect(ready()).toContain(startC);
  });

  it('a failed edit holds back its own entity only', () => {
    const a = id(enqueue(t.db, createTask(-1), NOW));
    const a2 = id(enqueue(t.db, createItem(-1, -2), NOW));
    const b = id(enqueue(t.db, updateTask(2, 'b'), NOW));
    markInflight(t.db, a, NOW);
    failPermanently(t.db, a, refused, NOW);
    const c = id(enqueue(t.db, updateTask(-1, 'edited after the failure'), NOW));
    expect(ready()).toEqual([b]);
    expect(getMutation(t.db, c)?.state).toBe('pending');
    // The user fixes the title and retries: the create goes again, from zero attempts.
    retryFailed(t.db, a, NOW + 10, { body: taskState('fixed') });
    expect(getMutation(t.db, a)).toMatchObject({
      state: 'pending',
      attempts: 0,
      lastError: null,
      body: taskState('fixed'),
      nextAttemptAt: NOW + 10,
    });
    expect(ready(NOW + 10)).toEqual([a, b]);
    expect(a2).toBeGreaterThan(a);
  });
});

describe('state changes', () => {
  it('refuse rows in the wrong state', () => {
    const a = id(enqueue(t.db, updateTask(1, 'a'), NOW));
    expect(() => retryFailed(t.db, a, NOW)).toThrow(OutboxStateError);
    markInflight(t.db, a, NOW);
    expect(() => markInflight(t.db, a, NOW)).toThrow(/inflight, not pending/);
    expect(() => discard(t.db, a)).toThrow(/in flight/);
    markConflict(
      t.db,
      a,
      { kind: 'not-found', failure: 'conflict', status: 404, message: 'gone' },
      NOW,
    );
    expect(getMutation(t.db, a)?.state).toBe('conflict');
    expect(() => settle(t.db, 999)).toThrow(/no outbox row/);
  });

  it('discarding a create discards its entity and what depends on it', () => {
    const c = id(enqueue(t.db, createTask(-1), NOW));
    enqueue(t.db, createItem(-1, -2), NOW);
    enqueue(t.db, updateItem(-1, -2, item('x', true)), NOW);
    const keep = id(enqueue(t.db, updateTask(3, 'keep'), NOW));
    markInflight(t.db, c, NOW);
    failPermanently(t.db, c, refused, NOW);
    const dropped = discard(t.db, c);
    expect(dropped.mutations.map((m) => m.kind)).toEqual([
      'task.create',
      'checklist.create',
      'checklist.update',
    ]);
    expect(allMutations(t.db).map((m) => m.mutationId)).toEqual([keep]);
    // Discarding an update removes only that row.
    expect(discard(t.db, keep).mutations.map((m) => m.mutationId)).toEqual([keep]);
  });

  it('resetInflight puts rows a crash left in flight back to pending', () => {
    const a = id(enqueue(t.db, createTask(-1), NOW));
    const b = id(enqueue(t.db, updateTask(2, 'b'), NOW));
    markInflight(t.db, a, NOW);
    markInflight(t.db, b, NOW);
    failPermanently(t.db, b, refused, NOW);
    expect(resetInflight(t.db, NOW + 100)).toBe(1);
    expect(getMutation(t.db, a)).toMatchObject({
      state: 'pending',
      attempts: 1,
      nextAttemptAt: NOW + 100,
    });
    expect(getMutation(t.db, b)?.state).toBe('failed');
    // The resent create may already be at the server: an update is not folded into it.
    expect(enqueue(t.db, updateTask(-1, 'x'), NOW + 100).rule).toBe('append');
  });
});

describe('outboxStatus', () => {
  it('counts unsent edits per kind and lists failures and retries', () => {
    const a = id(enqueue(t.db, updateTask(1, 'a'), NOW));
    enqueue(t.db, updateTask(2, 'b'), NOW);
    enqueue(t.db, updateItem(1, 5, item('x', true)), NOW);
    const d = id(enqueue(t.db, deleteTask(3), NOW));
    const r = id(enqueue(t.db, updateItem(1, 6, item('y', true)), NOW));
    markInflight(t.db, a, NOW);
    markInflight(t.db, d, NOW);
    failPermanently(t.db, d, refused, NOW + 1);
    markInflight(t.db, r, NOW);
    retryLater(t.db, r, transient, NOW + 8_000, NOW);
    const s = outboxStatus(t.db, NOW);
    expect(s.pendingByKind).toEqual({ 'task.update': 2, 'checklist.update': 2 });
    expect(s.pending).toBe(3);
    expect(s.inflight).toBe(1);
    expect(s.failed).toEqual([
      {
        mutationId: d,
        kind: 'task.delete',
        entity: 'task:3',
        state: 'failed',
        error: refused,
        attempts: 1,
        updatedAt: NOW + 1,
      },
    ]);
    expect(s.retrying).toEqual([
      {
        mutationId: r,
        kind: 'checklist.update',
        entity: 'checklist:6',
        attempts: 1,
        nextAttemptAt: NOW + 8_000,
        error: transient,
      },
    ]);
    expect(s.nextRetryAt).toBe(NOW + 8_000);
    expect(outboxStatus(t.db, NOW + 8_000).nextRetryAt).toBeNull();
  });
});

describe('a re-bootstrap', () => {
  it('wipes the server data and leaves the outbox, its files and the id mapping untouched', () => {
    applyTaskItems(t.db, bulkItems());
    enqueue(t.db, createTask(-1), NOW);
    enqueue(t.db, updateTask(1, 'x'), NOW);
    mapLocalId(t.db, 'task', -7, 70);
    t.db
      .prepare(
        "INSERT INTO outbox_files (mutation_id, position, name, path, size) VALUES (1, 0, 'a.txt', 'outbox-files/x', 1)",
      )
      .run();
    const before = allMutations(t.db);
    t.replica.wipeServerData();
    expect((t.db.prepare('SELECT count(*) AS n FROM tasks').get() as { n: number }).n).toBe(0);
    expect(allMutations(t.db)).toEqual(before);
    expect((t.db.prepare('SELECT count(*) AS n FROM outbox_files').get() as { n: number }).n).toBe(
      1,
    );
    expect((t.db.prepare('SELECT count(*) AS n FROM local_ids').get() as { n: number }).n).toBe(1);
  });
});
