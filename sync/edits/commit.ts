/**
 * The common end of every edit: the request body checked against the endpoint table, the
 * base kept for a rollback, the local effect written, the row queued (one transaction: the
 * caller's).
 */
import { z } from 'zod';
import { endpoints } from '../../shared/api/endpoints';
import type { EditResult } from '../../shared/edits/commands';
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
  type MutationKind,
  mutationsOfEntity,
  type OutboxOperationId,
  parseEntityKey,
} from '../outbox';
import { applyEffect } from './effects';
import { entityState, modifiedTimeOf } from './entities';
import { changedFields } from './merge';
import { entitiesOf, type RowSet, snapshotRows, withEntityRows } from './snapshot';
import { EditError } from './state';

/**
 * An edit's `base`: the server's copy of the entity before its first pending edit. `state` is
 * its editable state in request-body shape (what the rebase compares field by field),
 * `modifiedTime` the server's, `rows` the raw replica rows (what a rollback writes back; for
 * a delete, with everything the delete removed).
 */
export interface EditBase {
  state: JsonObject | null;
  modifiedTime: number | null;
  rows: RowSet;
}

export const isEditBase = (v: Json): v is EditBase & JsonObject =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && 'rows' in v && 'state' in v;

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

export interface PlannedEdit {
  kind: MutationKind;
  operationId: string;
  path: Record<string, number>;
  body?: Json;
  /** A create's local id; for other edits the edited entity's id. */
  entityId: number;
  localId?: number;
  base?: Json;
}

/**
 * Writes the effect and queues the row. An update notes the fields it changes against the
 * state the user saw (the replica's, queued edits included): the rebase keeps exactly those.
 */
export const commitEdit = (db: Sqlite, p: PlannedEdit, now: number): EnqueueResult => {
  const spec = kindSpec(p.kind);
  const edited =
    spec.effect === 'update' && p.body !== undefined
      ? changedFields(p.body, entityState(db, spec.entity, p.entityId), now)
      : undefined;
  applyEffect(
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

/** An edit of an entity the replica holds: its base, its effect, its row. */
export const editExisting = (
  db: Sqlite,
  e: {
    kind: MutationKind;
    entity: EntityKind;
    id: number;
    operationId: string;
    path: Record<string, number>;
    body?: Json;
    /** A delete: the base keeps what the delete takes along. */
    deep?: boolean;
  },
  now: number,
): EditResult => {
  const base = baseFor(db, e.entity, e.id, e.deep ?? false);
  const r = commitEdit(
    db,
    {
      kind: e.kind,
      operationId: e.operationId,
      path: e.path,
      ...(e.body === undefined ? {} : { body: e.body }),
      entityId: e.id,
      base,
    },
    now,
  );
  return { entityKind: e.entity, id: e.id, ids: [e.id], mutationId: r.mutationId };
};

/** A new entity under a fresh local id; `before` runs first with it (a timer's record). */
export const editCreate = (
  db: Sqlite,
  e: {
    kind: MutationKind;
    entity: EntityKind;
    operationId: string;
    path: Record<string, number>;
    body: Json;
    before?: (id: number) => void;
  },
  now: number,
): EditResult => {
  const id = allocateLocalId(db);
  e.before?.(id);
  const { kind, operationId, path, body } = e;
  const r = commitEdit(db, { kind, operationId, path, body, entityId: id, localId: id }, now);
  return { entityKind: e.entity, id, ids: [id], mutationId: r.mutationId };
};
