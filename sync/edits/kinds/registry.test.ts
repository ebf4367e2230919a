import { describe, expect, it, vi } from 'vitest';
import { kindSpec, mutationKindNames } from '../../outbox';

/**
 * The kind modules and the edit machinery import each other (a module's apply commits through
 * commit.ts, which reads the registry): whichever file is loaded first, every module must come
 * out whole.
 */
const entries = [
  './task',
  './checklist',
  './attachment',
  './timer',
  './project',
  './space',
  './notification',
  './index',
  '../state',
  '../entities',
  '../commit',
  '../effects',
  '../snapshot',
  '../answers',
  '../apply',
  '../rollback',
  '../recreate',
  '../index',
];

describe('the registry of edit modules', () => {
  it.each(entries)('comes out whole when %s is loaded first', async (entry) => {
    vi.resetModules();
    await import(entry);
    const { allEntityModules } = await import('./index');
    const modules = allEntityModules();
    expect(modules.map(([entity]) => entity).sort()).toEqual(
      [...new Set(mutationKindNames.map((k) => kindSpec(k).entity))].sort(),
    );
    for (const [entity, m] of modules) {
      for (const f of [m.state, m.remove, m.answer.write])
        expect(typeof f, entity).toBe('function');
      for (const [kind, k] of Object.entries(m.kinds)) {
        expect(typeof k.apply, kind).toBe('function');
        expect(typeof k.effect, kind).toBe('function');
      }
    }
  });

  it('holds every edit kind once, in the module of its entity', async () => {
    const { allEntityModules } = await import('./index');
    const held = allEntityModules().flatMap(([entity, m]) =>
      Object.keys(m.kinds).map((kind) => [kind, entity]),
    );
    expect(held.map(([k]) => k).sort()).toEqual([...mutationKindNames].sort());
    for (const [kind, entity] of held)
      expect(kindSpec(kind as (typeof mutationKindNames)[number]).entity, kind).toBe(entity);
  });
});
