/**
 * The local effect of one outbox row, derived from the row alone (kind, operation, path,
 * body, entity): `applyEdit` writes it when the edit is made, the rebase writes it again on
 * top of rows a pull replaced, a rollback after the rows it keeps. Ids in a row may be local
 * ids the server has since mapped: each is read as the id the replica uses now. What each kind
 * writes is its entity module's (kinds/).
 */
import type { Sqlite } from '../db/open';
import { type EntityKind, kindSpec, type MutationKind } from '../outbox';
import { type EffectRow, effectOf } from './kinds';
import { asObject } from './kinds/json';
import { currentId } from './state';

export type { EffectRow } from './kinds';

/**
 * Applies a row's effect. Returns false when there was nothing to apply it to (an update of
 * a row the replica no longer holds).
 */
export const applyEffect = (db: Sqlite, row: EffectRow, now: number): boolean =>
  effectOf(row.kind)(db, {
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
export const applyDeleteEffect = (db: Sqlite, entity: EntityKind, id: number, now: number) =>
  applyEffect(
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
