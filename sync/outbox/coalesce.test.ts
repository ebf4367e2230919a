import { describe, expect, it } from 'vitest';
import { coalesce, entityOf, foldBody, mayHaveReachedServer } from './coalesce';
import {
  createItem,
  createTask,
  deleteTask,
  deleteTimer,
  item,
  moveTimer,
  startTimer,
  taskState,
  updateItem,
  updateTask,
} from './test-support';
import type { NewMutation, QueuedMutation } from './types';

let seq = 0;
const row = (m: NewMutation, over: Partial<QueuedMutation> = {}): QueuedMutation => {
  seq++;
  return {
    mutationId: seq,
    entity: entityOf(m),
    kind: m.kind,
    operationId: m.operationId,
    path: { ...m.path },
    body: m.body ?? null,
    idempotencyKey: `k${seq}`,
    dependsOn: [],
    state: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    base: m.base ?? null,
    createdAt: 0,
    updatedAt: 0,
    edited: m.edited ?? null,
    sentAt: null,
    ...over,
  };
};

describe('coalesce', () => {
  it('appends the first edit of an entity, with its base', () => {
    const p = coalesce([], updateTask(5, 'a'));
    expect(p).toMatchObject({ rule: 'append', insert: { base: null }, rewrite: null, remove: [] });
    const withBase = coalesce([], { ...updateTask(5, 'a'), base: { taskTitle: 'server' } });
    expect(withBase.insert).toEqual({ base: { taskTitle: 'server' } });
  });

  it('update + update: the pending update takes the new full state', () => {
    const u1 = row(updateTask(5, 'a'));
    const p = coalesce([u1], updateTask(5, 'b', 'Done'));
    expect(p.rule).toBe('merge-update');
    expect(p.insert).toBeNull();
    expect(p.rewrite).toEqual({
      mutationId: u1.mutationId,
      operationId: 'updateTask',
      path: { taskId: 5 },
      body: taskState('b', 'Done'),
      edited: {},
    });
  });

  it('update + update: the fields each changed, with the later time', () => {
    const u1 = row(updateTask(5, 'a'), { edited: { taskTitle: 10, status: 10 } });
    const p = coalesce([u1], { ...updateTask(5, 'b'), edited: { taskTitle: 20 } });
    expect(p.rewrite?.edited).toEqual({ taskTitle: 20, status: 10 });
  });

  it('update + update: appended after a pending update whose earlier attempt may have landed', () => {
    // Its value may be on the server: the rebase must know it for the engine's own.
    const u1 = row(updateTask(5, 'a'), {
      attempts: 2,
      lastError: { kind: 'timeout', failure: 'retry', message: 'timed out' },
    });
    expect(coalesce([u1], updateTask(5, 'b')).rule).toBe('append');
    // One refused before the server read it (429, 401) merges still.
    const u2 = row(updateTask(5, 'a'), {
      attempts: 1,
      lastError: { kind: 'rate-limit', failure: 'rate-limited', message: 'slow down' },
    });
    expect(coalesce([u2], updateTask(5, 'b')).rule).toBe('merge-update');
  });

  it('never touches a row in flight: the update is appended after it', () => {
    const u1 = row(updateTask(5, 'a'), { state: 'inflight', attempts: 1 });
    const p = coalesce([u1], updateTask(5, 'b'));
    expect(p).toMatchObject({ rule: 'append', rewrite: null, remove: [] });
    expect(p.insert).not.toBeNull();
  });

  it('merges into the last row only, never across an in-flight one or a failed one', () => {
    const u1 = row(updateTask(5, 'a'), { state: 'failed' });
    expect(coalesce([u1], updateTask(5, 'b')).rule).toBe('append');
    const u2 = row(updateTask(5, 'a'), { state: 'conflict' });
    expect(coalesce([u2], updateTask(5, 'b')).rule).toBe('append');
    const inflight = row(updateTask(5, 'a'), { state: 'inflight', attempts: 1 });
    const pending = row(updateTask(5, 'b'));
    const p = coalesce([inflight, pending], updateTask(5, 'c'));
    expect(p.rule).toBe('merge-update');
    expect(p.rewrite?.mutationId).toBe(pending.mutationId);
  });

  it('create + update: one create carrying the final state', () => {
    const c = row(createTask(-3, 'draft'));
    const p = coalesce([c], updateTask(-3, 'final', 'In Progress'));
    expect(p.rule).toBe('fold-into-create');
    expect(p.insert).toBeNull();
    expect(p.rewrite).toEqual({
      mutationId: c.mutationId,
      operationId: 'createTask',
      path: {},
      body: taskState('final', 'In Progress'),
    });
  });

  it('never folds into or drops a create whose entity already has its server key', () => {
    const c = row(createTask(-3), { entity: 'task:812' });
    expect(coalesce([c], updateTask(812, 'x'), 'task:812').rule).toBe('append');
    expect(coalesce([c], deleteTask(812), 'task:812').rule).toBe('append');
  });

  it('create + update keeps the create operation and path (a subtask under its parent)', () => {
    const c = row({
      kind: 'task.create',
      operationId: 'createPersonalSubtask',
      path: { parentTaskId: -1 },
      localId: -2,
      body: taskState('sub'),
    });
    const p = coalesce([c], {
      kind: 'task.update',
      operationId: 'updatePersonalSubtask',
      path: { parentTaskId: -1, subtaskId: -2 },
      body: taskState('sub 2'),
    });
    expect(p.rewrite).toMatchObject({
      operationId: 'createPersonalSubtask',
      path: { parentTaskId: -1 },
      body: taskState('sub 2'),
    });
  });

  it('does not fold into a create that is in flight or may have reached the server', () => {
    const inflight = row(createTask(-3), { state: 'inflight', attempts: 1 });
    expect(coalesce([inflight], updateTask(-3, 'x')).rule).toBe('append');
    const timedOut = row(createTask(-3), {
      attempts: 1,
      lastError: { kind: 'timeout', failure: 'retry', message: 'timed out' },
    });
    expect(coalesce([timedOut], updateTask(-3, 'x')).rule).toBe('append');
    // A 429 was not processed: folding is safe.
    const limited = row(createTask(-3), {
      attempts: 1,
      lastError: { kind: 'rate-limit', failure: 'rate-limited', message: 'slow down' },
    });
    expect(coalesce([limited], updateTask(-3, 'x')).rule).toBe('fold-into-create');
    // A failed create waits for the user (retry after editing, or discard).
    const failed = row(createTask(-3), { state: 'failed', attempts: 1 });
    expect(coalesce([failed], updateTask(-3, 'x')).rule).toBe('append');
  });

  it('a checklist item created then ticked stays create + update; unticked again, one create', () => {
    const c = row(createItem(10, -4, 'milk'));
    const ticked = coalesce([c], updateItem(10, -4, item('milk', true)));
    expect(ticked.rule).toBe('append');
    const u = row(updateItem(10, -4, item('milk', true)));
    const unticked = coalesce([c, u], updateItem(10, -4, item('oat milk', false, 7)));
    expect(unticked.rule).toBe('fold-into-create');
    expect(unticked.rewrite?.body).toEqual({ name: 'oat milk', assigneeId: 7 });
    expect(unticked.remove).toEqual([u.mutationId]);
  });

  it('five toggles of a checklist item: at most one update, carrying name, state and assignee', () => {
    const rows: QueuedMutation[] = [];
    for (let i = 1; i <= 5; i++) {
      const next = updateItem(10, 17, item('milk', i % 2 === 1, 3));
      const p = coalesce(rows, next);
      if (p.insert) rows.push(row(next));
      if (p.rewrite) {
        const r = rows.find((x) => x.mutationId === p.rewrite?.mutationId);
        if (r) r.body = p.rewrite.body;
      }
    }
    expect(rows).toHaveLength(1);
    expect(rows[0]?.body).toEqual({ name: 'milk', completed: true, assigneeId: 3 });
  });

  it('create + delete: nothing is sent, and the dependents of the entity go too', () => {
    const c = row(createTask(-3));
    const u = row(updateTask(-3, 'x'), { state: 'failed' });
    const p = coalesce([c, u], deleteTask(-3));
    expect(p).toMatchObject({
      rule: 'create-then-delete',
      insert: null,
      remove: [c.mutationId, u.mutationId],
      dropDependentsOf: ['task:-3'],
    });
    // A create the server refused never existed there either.
    const failed = row(createTask(-6), { state: 'failed', attempts: 1 });
    expect(coalesce([failed], deleteTask(-6)).rule).toBe('create-then-delete');
  });

  it('create in flight + delete: the delete goes after it, pending updates are dropped', () => {
    const c = row(createTask(-3), { state: 'inflight', attempts: 1 });
    const u = row(updateTask(-3, 'x'));
    const p = coalesce([c, u], deleteTask(-3));
    expect(p.rule).toBe('delete-replaces-edits');
    expect(p.remove).toEqual([u.mutationId]);
    expect(p.insert).not.toBeNull();
    expect(p.dropDependentsOf).toEqual([]);
  });

  it('delete after pending updates replaces them and inherits the first base', () => {
    const u1 = row(updateTask(5, 'a'), { state: 'inflight', attempts: 1, base: { t: 'server' } });
    const u2 = row(updateTask(5, 'b'), { base: { t: 'server' } });
    const p = coalesce([u1, u2], deleteTask(5));
    expect(p.remove).toEqual([u2.mutationId]);
    expect(p.insert).toEqual({ base: { t: 'server' } });
    const failed = row(updateTask(6, 'a'), { state: 'failed', base: { t: 's6' } });
    expect(coalesce([failed], deleteTask(6))).toMatchObject({
      rule: 'delete-replaces-edits',
      remove: [failed.mutationId],
      insert: { base: { t: 's6' } },
    });
  });

  it('a second delete is dropped; a delete of a local entity with nothing queued sends nothing', () => {
    const d = row(deleteTask(5), { state: 'inflight', attempts: 1 });
    expect(coalesce([d], deleteTask(5))).toMatchObject({ rule: 'duplicate-delete', insert: null });
    expect(coalesce([], deleteTask(-9))).toMatchObject({
      rule: 'delete-of-unsent',
      insert: null,
      dropDependentsOf: ['task:-9'],
    });
    expect(coalesce([], deleteTask(9)).rule).toBe('append');
  });

  it('timer moves are never merged: start, pause, resume, stop keep their order', () => {
    const rows: QueuedMutation[] = [row(startTimer(5, -1))];
    for (const k of ['timer.pause', 'timer.resume', 'timer.pause', 'timer.stop'] as const) {
      const p = coalesce(rows, moveTimer(k, -1));
      expect(p).toMatchObject({ rule: 'append', rewrite: null, remove: [] });
      rows.push(row(moveTimer(k, -1)));
    }
    expect(rows.map((r) => r.kind)).toEqual([
      'timer.start',
      'timer.pause',
      'timer.resume',
      'timer.pause',
      'timer.stop',
    ]);
    // Started and deleted offline: nothing at all.
    const p = coalesce(rows, deleteTimer(-1));
    expect(p.rule).toBe('create-then-delete');
    expect(p.remove).toEqual(rows.map((r) => r.mutationId));
  });

  it('a timer update after a move is appended, not merged across it', () => {
    const upd: NewMutation = {
      kind: 'timer.update',
      operationId: 'updateTimer',
      path: { trackId: 8 },
      body: { billingStatus: 'BILLABLE', notes: null, startTime: 1, durationSeconds: 60 },
    };
    const pause = row(moveTimer('timer.pause', 8));
    expect(coalesce([pause], upd).rule).toBe('append');
    expect(coalesce([pause, row(upd)], upd).rule).toBe('merge-update');
  });

  it('entityOf refuses a create without a local id and an edit without its own id', () => {
    expect(() => entityOf({ ...createTask(-1), localId: undefined })).toThrow(/local id/);
    expect(() => entityOf({ ...createTask(-1), localId: 4 })).toThrow(/negative/);
    expect(() => entityOf({ ...updateTask(1, 'x'), path: {} })).toThrow(/taskId/);
    expect(() =>
      entityOf({ kind: 'task.update', operationId: 'deleteTask', path: { taskId: 1 } } as never),
    ).toThrow(/does not carry/);
  });
});

describe('foldBody', () => {
  it('keeps create-only fields and refuses update-only fields with other values', () => {
    expect(
      foldBody(
        { into: 'space.create', keepFromCreate: ['color'] },
        { spaceName: 'a', color: 'red' },
        { spaceName: 'b', description: 'd' },
      ),
    ).toEqual({ spaceName: 'b', description: 'd', color: 'red' });
    const fold = { into: 'checklist.create', implied: { completed: false } };
    expect(foldBody(fold, {}, { name: 'x', completed: true })).toBeUndefined();
    expect(foldBody(fold, {}, { name: 'x', completed: false })).toEqual({ name: 'x' });
    expect(foldBody(fold, {}, null)).toBeUndefined();
  });
});

describe('mayHaveReachedServer', () => {
  it('is true in flight and after an unanswered attempt, false after a 429, 401 or none', () => {
    const e = (failure: 'retry' | 'rate-limited' | 'auth') => ({
      kind: 'server' as const,
      failure,
      message: '',
    });
    expect(mayHaveReachedServer({ state: 'inflight', attempts: 1, lastError: null })).toBe(true);
    expect(mayHaveReachedServer({ state: 'pending', attempts: 0, lastError: null })).toBe(false);
    expect(mayHaveReachedServer({ state: 'pending', attempts: 1, lastError: e('retry') })).toBe(
      true,
    );
    expect(
      mayHaveReachedServer({ state: 'pending', attempts: 1, lastError: e('rate-limited') }),
    ).toBe(false);
    expect(mayHaveReachedServer({ state: 'pending', attempts: 1, lastError: e('auth') })).toBe(
      false,
    );
    expect(mayHaveReachedServer({ state: 'failed', attempts: 1, lastError: null })).toBe(false);
  });
});
