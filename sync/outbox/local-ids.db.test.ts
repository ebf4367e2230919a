import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../db/open';
import { allocateLocalId, LocalIdError, mapLocalId, rewriteIds, serverIdOf } from './local-ids';
import { enqueue, getMutation, markInflight, mutationsOfEntity, readyMutations } from './queue';
import {
  createItem,
  createSubtask,
  createTask,
  type TempReplica,
  tempReplica,
  updateItem,
  updateTask,
} from './test-support';

let t: TempReplica;
beforeEach(() => {
  t = tempReplica();
});
afterEach(() => t.close());

describe('local ids', () => {
  it('are negative, unique across kinds, and survive a reopen and a re-bootstrap', () => {
    expect([allocateLocalId(t.db), allocateLocalId(t.db), allocateLocalId(t.db)]).toEqual([
      -1, -2, -3,
    ]);
    t.replica.wipeServerData();
    const file = t.db.name;
    t.replica.close();
    const db = openSqlite(file);
    try {
      expect(allocateLocalId(db)).toBe(-4);
    } finally {
      db.close();
    }
    t.replica = { close: () => {} } as never;
  });

  it('map to server ids; a positive id already is one', () => {
    expect(serverIdOf(t.db, 'task', 812)).toBe(812);
    expect(serverIdOf(t.db, 'task', -3)).toBeUndefined();
    mapLocalId(t.db, 'task', -3, 812);
    expect(serverIdOf(t.db, 'task', -3)).toBe(812);
    // Per kind: the same local number of another kind is not mapped.
    expect(serverIdOf(t.db, 'checklist', -3)).toBeUndefined();
    mapLocalId(t.db, 'task', -3, 812); // the same pair again: fine
    expect(() => mapLocalId(t.db, 'task', -3, 813)).toThrow(LocalIdError);
    expect(() => mapLocalId(t.db, 'task', 3, 813)).toThrow(/not a local id/);
    expect(() => mapLocalId(t.db, 'task', -5, 0)).toThrow(/not a server id/);
  });

  it('rewriting is blocked until the ids are mapped, then replaces them in path and body', () => {
    const mutation = {
      kind: 'checklist.update' as const,
      operationId: 'updateCheckListForTask' as const,
      path: { taskId: -1, checklistId: -2 },
      body: { name: 'x', completed: true, assigneeId: null, related: [-1, 5], parent: -1 },
    };
    expect(rewriteIds(t.db, mutation)).toEqual({
      status: 'blocked',
      blockedOn: ['task:-1', 'checklist:-2'],
    });
    mapLocalId(t.db, 'task', -1, 40);
    expect(rewriteIds(t.db, mutation)).toEqual({ status: 'blocked', blockedOn: ['checklist:-2'] });
    mapLocalId(t.db, 'checklist', -2, 77);
    expect(rewriteIds(t.db, mutation)).toEqual({
      status: 'ready',
      path: { taskId: 40, checklistId: 77 },
      body: mutation.body,
    });
    // Body fields the table names as references are rewritten too (no /v1 body has one
    // today, so the spec is given here).
    const spec = {
      self: 'checklistId',
      refs: { taskId: 'task' },
      bodyRefs: { related: 'task', parent: 'task' },
    } as const;
    expect(rewriteIds(t.db, mutation, spec)).toEqual({
      status: 'ready',
      path: { taskId: 40, checklistId: 77 },
      body: { name: 'x', completed: true, assigneeId: null, related: [40, 5], parent: 40 },
    });
    mutation.body.parent = -9;
    expect(rewriteIds(t.db, mutation, spec)).toEqual({ status: 'blocked', blockedOn: ['task:-9'] });
  });

  it('mapping re-keys the outbox: rows move to the server key, dependencies are met', () => {
    const now = 1_000;
    const create = enqueue(t.db, createTask(-1, 'parent'), now).mutationId ?? 0;
    const sub = enqueue(t.db, createSubtask(-1, -2), now).mutationId ?? 0;
    const tick =
      enqueue(t.db, updateItem(-1, 30, { name: 'a', completed: true, assigneeId: null }), now)
        .mutationId ?? 0;
    expect(getMutation(t.db, sub)?.dependsOn).toEqual(['task:-1']);
    expect(readyMutations(t.db, now, 10).map((m) => m.kind)).toEqual(['task.create']);

    markInflight(t.db, create, now);
    mapLocalId(t.db, 'task', -1, 500);
    expect(mutationsOfEntity(t.db, 'task:500').map((m) => m.kind)).toEqual(['task.create']);
    expect(mutationsOfEntity(t.db, 'task:-1')).toEqual([]);
    expect(getMutation(t.db, sub)?.dependsOn).toEqual(['task:500']);
    expect(getMutation(t.db, tick)?.dependsOn).toEqual(['task:500']);
    // The path keeps the local id until the row is sent.
    const row = getMutation(t.db, sub);
    expect(row?.path).toEqual({ parentTaskId: -1 });
    expect(row && rewriteIds(t.db, row)).toEqual({
      status: 'ready',
      path: { parentTaskId: 500 },
      body: { taskTitle: 'sub', status: 'To Do' },
    });
    // An edit made with the server id (the replica was re-keyed) queues behind the create.
    const later = enqueue(t.db, updateTask(500, 'renamed'), now);
    expect(later.entity).toBe('task:500');
    expect(later.rule).toBe('append');
    // And one still made with the local id lands on the same entity.
    const stale = enqueue(t.db, updateTask(-1, 'renamed again'), now);
    expect(stale.entity).toBe('task:500');
    expect(stale.rule).toBe('merge-update');
  });

  it('a create of a checklist item on a local task waits for the task, not the reverse', () => {
    const now = 5;
    enqueue(t.db, createTask(-1), now);
    enqueue(t.db, createItem(-1, -2), now);
    expect(readyMutations(t.db, now, 10).map((m) => m.entity)).toEqual(['task:-1']);
    mapLocalId(t.db, 'task', -1, 9);
    expect(readyMutations(t.db, now, 10).map((m) => m.entity)).toEqual(['task:9', 'checklist:-2']);
  });
});
