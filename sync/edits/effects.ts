/**
 * The local effect of one outbox row, derived from the row alone (kind, operation, path,
 * body, entity): `applyEdit` writes it when the edit is made, the rebase writes it again on
 * top of rows a pull replaced, a rollback after the rows it keeps. Ids in a row may be local
 * ids the server has since mapped: each is read as the id the replica uses now. What each kind
 * writes is its entity module's (kinds/).
 */
import type { Sqlite } from '../db/open';
import { type EntityKind, kindSpec, type MutationKind } from '../outbox';
import { asObject } from './kinds/json';
import type { Apply, Effect, EffectRow, EntityModules } from './kinds/types';
import { currentId } from './state';

export type { EffectRow } from './kinds/types';

/** An edit kind's apply and effect, in its entity's module. */
export const kindOf = (
  modules: EntityModules,
  kind: MutationKind,
): { apply: Apply<never>; effect: Effect } => {
  const held = (
    modules[kindSpec(kind).entity].kinds as unknown as Record<
      string,
      { apply: Apply<never>; effect: Effect } | undefined
    >
  )[kind];
  if (!held) throw new TypeError(`no module holds the edit kind ${kind}`);
  return held;
};

/**
 * Applies a row's effect. Returns false when there was nothing to apply it to (an update of
 * a row the replica no longer holds).
 */
export const applyEffect = (
  modules: EntityModules,
  db: Sqlite,
  row: EffectRow,
  now: number,
): boolean =>
  kindOf(modules, row.kind).effect(db, {
    row,
    id: currentId(db, kindSpec(row.kind).entity, row.entityId),
    body: asObject(row.body),
    ref: (kind, param) => {
      const v = row.path[param];
      return v === undefined ? null : currentId(db, kind, v);
    },
    now,
  });

/** The replica without an entity, as its delete leaves it (its parent's counts kept right). */
export const applyDeleteEffect = (
  modules: EntityModules,
  db: Sqlite,
  entity: EntityKind,
  id: number,
  now: number,
) =>
  applyEffect(
    modules,
    db,
    {
      kind: `${entity}.delete` satisfies MutationKind,
      operationId: '',
      path: {},
      body: null,
      entityId: id,
    },
    now,
  );
