import { describe, expect, it } from 'vitest';
import { kindSpec, type MutationKind, mutationKindNames } from '../../outbox';
import { entityModules } from './index';

/**
 * The modules are plain declarations (no registry built on first use, no import of the
 * machinery: test/sync-imports.test.ts): every edit kind is held once, in its entity's module,
 * whole as soon as the list is loaded.
 */
describe('the entity modules', () => {
  const modules = Object.entries(entityModules);

  it('are one per entity kind, each whole', () => {
    expect(modules.map(([entity]) => entity).sort()).toEqual(
      [...new Set(mutationKindNames.map((k) => kindSpec(k).entity))].sort(),
    );
    for (const [entity, m] of modules) {
      for (const f of [m.remove, m.answer.write]) expect(typeof f, entity).toBe('function');
      for (const [kind, k] of Object.entries(m.kinds) as [
        string,
        { apply: unknown; effect: unknown },
      ][]) {
        expect(typeof k.apply, kind).toBe('function');
        expect(typeof k.effect, kind).toBe('function');
      }
    }
  });

  it('hold every edit kind once, in the module of its entity', () => {
    const held = modules.flatMap(([entity, m]) =>
      Object.keys(m.kinds).map((kind) => [kind, entity]),
    );
    expect(held.map(([k]) => k).sort()).toEqual([...mutationKindNames].sort());
    for (const [kind, entity] of held)
      expect(kindSpec(kind as MutationKind).entity, kind).toBe(entity);
  });
});
