import { describe, expect, it } from 'vitest';
import { endpoints, pathParamNames } from '../../shared/api/endpoints';
import {
  entityKey,
  isMutationKind,
  type KindSpec,
  kindSpec,
  mutationKindNames,
  operationSpec,
  parseEntityKey,
} from './types';

const methodOf = { create: 'POST', update: 'PUT', move: 'PUT', delete: 'DELETE' } as const;

describe('the mutation kind table', () => {
  it('names every path parameter of every operation as its own id or a reference', () => {
    for (const kind of mutationKindNames) {
      const spec: KindSpec = kindSpec(kind);
      const ops = Object.entries(spec.operations);
      expect(ops.length, kind).toBeGreaterThan(0);
      for (const [op, o] of ops) {
        const row = endpoints[op as keyof typeof endpoints];
        expect(row, `${kind} ${op}`).toBeDefined();
        const named = [...(o?.self ? [o.self] : []), ...Object.keys(o?.refs ?? {})].sort();
        expect(named, `${kind} ${op}`).toEqual(pathParamNames(row.path).sort());
        expect(row.method, `${kind} ${op}`).toBe(methodOf[spec.effect]);
        // Only a create lacks its own id; every other edit names it.
        expect(o?.self === undefined, `${kind} ${op}`).toBe(spec.effect === 'create');
      }
    }
  });

  it('folds updates only into a create of the same entity', () => {
    for (const kind of mutationKindNames) {
      const fold = kindSpec(kind).fold;
      if (!fold) continue;
      expect(kindSpec(kind).effect).toBe('update');
      expect(isMutationKind(fold.into), fold.into).toBe(true);
      if (!isMutationKind(fold.into)) continue;
      expect(kindSpec(fold.into).effect).toBe('create');
      expect(kindSpec(fold.into).entity).toBe(kindSpec(kind).entity);
    }
  });

  it('gives each operation to one kind only', () => {
    const seen = new Map<string, string>();
    for (const kind of mutationKindNames)
      for (const op of Object.keys(kindSpec(kind).operations)) {
        expect(seen.get(op), op).toBeUndefined();
        seen.set(op, kind);
      }
    expect(seen.size).toBeGreaterThan(40);
  });

  it('refuses an operation of another kind', () => {
    expect(operationSpec('task.update', 'updateTask')).toEqual({ self: 'taskId' });
    expect(() => operationSpec('task.update', 'deleteTask')).toThrow(/does not carry/);
    expect(() => operationSpec('task.update', 'toString')).toThrow(/does not carry/);
  });
});

describe('entity keys', () => {
  it('round-trip, local ids negative', () => {
    expect(entityKey('checklist', -4)).toBe('checklist:-4');
    expect(parseEntityKey('checklist:-4')).toEqual({ kind: 'checklist', id: -4 });
    expect(parseEntityKey('task:812')).toEqual({ kind: 'task', id: 812 });
    for (const bad of ['task', 'task:', ':3', 'task:0', 'task:1.5', 'task:x'])
      expect(() => parseEntityKey(bad), bad).toThrow(/not an entity key/);
  });
});
