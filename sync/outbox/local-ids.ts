/**
 * Temporary ids. An entity created offline gets a negative id at once (unique across entity
 * kinds, from a counter in `replica_info` that a re-bootstrap keeps); the replica and the
 * outbox use it until the server's answer gives the real id, recorded here with `mapLocalId`.
 * Outbox rows keep local ids in their path and body; `rewriteIds` replaces them when a row
 * is sent.
 */
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { writeTx } from '../db/write-tx';
import {
  type EntityKey,
  type EntityKind,
  entityKey,
  type Json,
  kindSpec,
  type OperationSpec,
  operationSpec,
  type QueuedMutation,
} from './types';

const COUNTER = 'next_local_id';

/** The next local id: -1, -2, … Runs inside the caller's transaction (one statement). */
export const allocateLocalId = (db: Sqlite): number => {
  const row = stmt(
    db,
    `INSERT INTO replica_info (key, value) VALUES (?, '-2')
     ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) - 1 AS TEXT)
     RETURNING CAST(value AS INTEGER) + 1 AS id`,
  ).get(COUNTER) as { id: number };
  return row.id;
};

/** The server id of an entity: a positive id already is one; a local one once mapped. */
export const serverIdOf = (db: Sqlite, kind: EntityKind, id: number): number | undefined => {
  if (id > 0) return id;
  // A raw statement: this runs for every reference of every row sent.
  return stmt(db, 'SELECT server_id FROM local_ids WHERE entity_kind = ? AND local_id = ?')
    .pluck()
    .get(kind, id) as number | undefined;
};

/** The key an entity goes by now: its server key once a local id is mapped. */
export const canonicalKey = (db: Sqlite, kind: EntityKind, id: number): EntityKey =>
  entityKey(kind, serverIdOf(db, kind, id) ?? id);

export class LocalIdError extends Error {
  override readonly name = 'LocalIdError';
}

/**
 * Records that the server created `localId` as `serverId` and re-keys the outbox in the same
 * transaction: rows of the entity move to its server key (so later edits, made with the
 * server id, queue behind them) and references in `depends_on` count as satisfied. Path and
 * body keep the local id until `rewriteIds`. Mapping the same pair twice is a no-op.
 */
export const mapLocalId = (db: Sqlite, kind: EntityKind, localId: number, serverId: number) => {
  if (!Number.isSafeInteger(localId) || localId >= 0)
    throw new LocalIdError(`not a local id: ${localId}`);
  if (!Number.isSafeInteger(serverId) || serverId <= 0)
    throw new LocalIdError(`not a server id: ${serverId}`);
  const known = serverIdOf(db, kind, localId);
  if (known === serverId) return;
  if (known !== undefined)
    throw new LocalIdError(`${kind}:${localId} is already mapped to ${known}, not ${serverId}`);
  const from = entityKey(kind, localId);
  const to = entityKey(kind, serverId);
  const go = () => {
    stmt(db, 'INSERT INTO local_ids (entity_kind, local_id, server_id) VALUES (?, ?, ?)').run(
      kind,
      localId,
      serverId,
    );
    stmt(db, 'UPDATE outbox SET entity = ? WHERE entity = ?').run(to, from);
    // The quoted key found in the text first: only rows naming it unpack their array.
    stmt(
      db,
      `UPDATE outbox SET depends_on = (
         SELECT json_group_array(CASE WHEN d.value = @from THEN @to ELSE d.value END)
         FROM json_each(outbox.depends_on) d)
       WHERE instr(outbox.depends_on, @quoted) > 0
         AND EXISTS (SELECT 1 FROM json_each(outbox.depends_on) d WHERE d.value = @from)`,
    ).run({ from, to, quoted: JSON.stringify(from) });
  };
  if (db.inTransaction) go();
  else writeTx(db, go);
};

export type Rewritten =
  | { status: 'ready'; path: Record<string, number>; body: Json }
  | { status: 'blocked'; blockedOn: EntityKey[] };

/**
 * The request of a row with every local id replaced by its server id: path parameters (the
 * entity's own and its references) and the body fields the kind table names. Blocked, with
 * the entity keys still unknown to the server, when one is not mapped yet. `spec` defaults
 * to the row's entry in the kind table.
 */
export const rewriteIds = (
  db: Sqlite,
  mutation: Pick<QueuedMutation, 'kind' | 'operationId' | 'path' | 'body'>,
  spec: OperationSpec = operationSpec(mutation.kind, mutation.operationId),
): Rewritten => {
  const blockedOn = new Set<EntityKey>();
  const resolve = (kind: EntityKind, id: number): number => {
    if (id > 0) return id;
    const server = serverIdOf(db, kind, id);
    if (server === undefined) blockedOn.add(entityKey(kind, id));
    return server ?? id;
  };
  const path = { ...mutation.path };
  for (const [param, kind] of Object.entries(pathRefs(mutation.kind, spec))) {
    const v = path[param];
    if (v !== undefined) path[param] = resolve(kind, v);
  }
  let body = mutation.body;
  if (spec.bodyRefs && body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const out = { ...body };
    for (const [field, kind] of Object.entries(spec.bodyRefs)) {
      const v = out[field];
      if (typeof v === 'number') out[field] = resolve(kind, v);
      else if (Array.isArray(v))
        out[field] = v.map((x) => (typeof x === 'number' ? resolve(kind, x) : x));
    }
    body = out;
  }
  if (blockedOn.size > 0) return { status: 'blocked', blockedOn: [...blockedOn] };
  return { status: 'ready', path, body };
};

/** Path parameter → entity kind for an operation: its references and its own id. */
export const pathRefs = (
  kind: QueuedMutation['kind'],
  spec: OperationSpec,
): Record<string, EntityKind> => {
  const out: Record<string, EntityKind> = { ...spec.refs };
  if (spec.self) out[spec.self] = kindSpec(kind).entity;
  return out;
};

/** Every entity id a request names outside its own: path refs, then body refs. */
export const referencedIds = (
  spec: OperationSpec,
  path: Readonly<Record<string, number>>,
  body: Json,
): { kind: EntityKind; id: number }[] => {
  const out: { kind: EntityKind; id: number }[] = [];
  for (const [param, kind] of Object.entries(spec.refs ?? {})) {
    const id = path[param];
    if (id !== undefined) out.push({ kind, id });
  }
  if (spec.bodyRefs && body !== null && typeof body === 'object' && !Array.isArray(body)) {
    for (const [field, kind] of Object.entries(spec.bodyRefs)) {
      const v = body[field];
      const ids = typeof v === 'number' ? [v] : Array.isArray(v) ? v : [];
      for (const id of ids) if (typeof id === 'number') out.push({ kind, id });
    }
  }
  return out;
};
