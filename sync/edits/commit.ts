/**
 * The common end of every edit: the request body checked against the endpoint table, the
 * base kept for a rollback, the local effect written, the row queued (one transaction: the
 * caller's). A kind's `apply` reaches it through the `EditTx` that `editTx` makes.
 */
import { z } from 'zod';
import { endpoints } from '../../shared/api/endpoints';
import type { EditResult } from '../../shared/edits/commands';
import { modifiedTimeOf, type RowSet } from '../db/entity-rows';
import type { Sqlite } from '../db/open';
import {
  allocateLocalId,
  canonicalKey,
  type EnqueueResult,
  type EntityKind,
  enqueue,
  type Json,
  type JsonObject,
  kindSpec,
  mutationsOfEntity,
  type OutboxOperationId,
  parseEntityKey,
} from '../outbox';
import { type EditBase, isEditBase } from './base';
import { applyEffect } from './effects';
import type {
  CreatedEdit,
  EditContext,
  EditTx,
  EntityModules,
  ExistingEdit,
  PlannedEdit,
} from './kinds/types';
import { changedFields } from './merge';
import { entitiesOf, snapshotRows, withEntityRows } from './snapshot';
import { EditError, entityState } from './state';

export { type EditBase, isEditBase } from './base';

export const snapshotBase = (
  db: Sqlite,
  kind: EntityKind,
  id: number,
  deep: boolean,
): EditBase => ({
  state: entityState(db, kind, id),
  modifiedTime: modifiedTimeOf(db, kind, id),
  rows: snapshotRows(db, kind, id, deep),
});

/**
 * A snapshot with every entity in it that has queued edits (a delete's siblings and children,
 * the entity itself) as the server had it: its first queued edit's base. A rollback writes
 * the snapshot back and puts the queued edits still there on top; a sibling captured with an
 * edit baked in would keep that edit after it left the queue (folded into a delete, say).
 */
const asServerHad = (db: Sqlite, rows: RowSet): RowSet => {
  let out = rows;
  for (const key of entitiesOf(rows)) {
    const { kind, id } = parseEntityKey(key);
    const head = mutationsOfEntity(db, canonicalKey(db, kind, id))[0]?.base;
    if (head && isEditBase(head)) out = withEntityRows(out, kind, id, head.rows);
  }
  return out;
};

/**
 * The base of a new edit of an existing entity: a snapshot when no edit of it is queued;
 * otherwise the first queued edit's (the coalescer takes it when this returns undefined).
 * A delete also keeps what it takes along, each entity as the server had it.
 */
export const baseFor = (
  db: Sqlite,
  kind: EntityKind,
  id: number,
  deep = false,
): Json | undefined => {
  const queued = mutationsOfEntity(db, canonicalKey(db, kind, id));
  if (queued.length > 0 && !deep) return undefined;
  const now = snapshotBase(db, kind, id, deep);
  const head = queued[0]?.base;
  const base: EditBase =
    head && isEditBase(head)
      ? { state: head.state, modifiedTime: head.modifiedTime, rows: asServerHad(db, now.rows) }
      : { ...now, rows: asServerHad(db, now.rows) };
  return base as unknown as Json;
};

/** The body as the endpoint table's request schema accepts it (trimmed, defaults), or an error. */
export const checkBody = (operationId: string, body: unknown): JsonObject => {
  const def = (endpoints as Record<string, { body?: z.ZodType | 'multipart' }>)[operationId];
  if (!def) throw new EditError(`unknown operation ${operationId}`);
  if (!def.body || def.body === 'multipart') return (body ?? {}) as JsonObject;
  const parsed = def.body.safeParse(body);
  if (!parsed.success)
    throw new EditError(`${operationId}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
  return parsed.data as JsonObject;
};

/**
 * Writes the effect and queues the row. An update notes the fields it changes against the
 * state the user saw (the replica's, queued edits included): the rebase keeps exactly those.
 */
export const commitEdit = (
  modules: EntityModules,
  db: Sqlite,
  p: PlannedEdit,
  now: number,
): EnqueueResult => {
  const spec = kindSpec(p.kind);
  const edited =
    spec.effect === 'update' && p.body !== undefined
      ? changedFields(p.body, entityState(db, spec.entity, p.entityId), now)
      : undefined;
  applyEffect(
    modules,
    db,
    {
      kind: p.kind,
      operationId: p.operationId,
      path: p.path,
      body: p.body ?? null,
      entityId: p.entityId,
    },
    now,
  );
  return enqueue(
    db,
    {
      kind: p.kind,
      operationId: p.operationId as OutboxOperationId,
      path: p.path,
      ...(p.body === undefined ? {} : { body: p.body }),
      ...(p.localId === undefined ? {} : { localId: p.localId }),
      ...(p.base === undefined ? {} : { base: p.base }),
      ...(edited === undefined ? {} : { edited }),
    },
    now,
  );
};

/**
 * An edit of an entity the replica holds: its base, its effect, its row. Before a delete, every
 * module's `beforeDelete` runs (what the delete takes along may need an edit first).
 */
const editExisting = (modules: EntityModules, tx: EditTx, e: ExistingEdit): EditResult => {
  const { db, ctx } = tx;
  if (kindSpec(e.kind).effect === 'delete')
    for (const m of Object.values(modules)) m.beforeDelete?.(tx, { entity: e.entity, id: e.id });
  const base = baseFor(db, e.entity, e.id, e.deep ?? false);
  const r = commitEdit(
    modules,
    db,
    {
      kind: e.kind,
      operationId: e.operationId,
      path: e.path,
      ...(e.body === undefined ? {} : { body: e.body }),
      entityId: e.id,
      base,
    },
    ctx.now,
  );
  return { entityKind: e.entity, id: e.id, ids: [e.id], mutationId: r.mutationId };
};

/** A new entity under a fresh local id; `before` runs first with it (a timer's record). */
const editCreate = (modules: EntityModules, db: Sqlite, e: CreatedEdit, now: number) => {
  const id = allocateLocalId(db);
  e.before?.(id);
  const { kind, operationId, path, body } = e;
  const r = commitEdit(
    modules,
    db,
    { kind, operationId, path, body, entityId: id, localId: id },
    now,
  );
  return { entityKind: e.entity, id, ids: [id], mutationId: r.mutationId };
};

/** The transaction a kind's `apply` is handed (the caller's SQLite transaction). */
export const editTx = (modules: EntityModules, db: Sqlite, ctx: EditContext): EditTx => {
  const tx: EditTx = {
    db,
    ctx,
    checkBody,
    existing: (e) => editExisting(modules, tx, e),
    created: (e) => editCreate(modules, db, e, ctx.now),
    commit: (p) => commitEdit(modules, db, p, ctx.now),
  };
  return tx;
};
