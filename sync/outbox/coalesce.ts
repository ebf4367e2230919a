/**
 * The coalescer: a pure function from (the queued rows of one entity, the next edit of that
 * entity) to a plan the queue applies. It keeps the outbox short without changing what the
 * server ends with:
 *
 * - update + update: the last row, when it is a pending update of the same kind that has
 *   never reached the server, takes the new full state (one request instead of two). One that
 *   may have (its answer was lost) keeps what it sent: that value may be on the server, and the
 *   rebase must know it for the engine's own, not another writer's (sync/edits/merge.ts).
 * - create + update: when the entity's create has not reached the server and every row
 *   after it is a pending update, the create takes the final state and the updates go (the
 *   kind table says which updates fold, and how: a ticked checklist item cannot be created
 *   ticked, so that update stays).
 * - create + delete: when the create has not reached the server, every row of the entity
 *   goes and nothing is sent; the queue also drops every row that depends on the entity.
 * - delete after updates or moves: those rows go (the entity is going anyway), but for a
 *   timer's stop (a later start needs it first); a second delete is dropped.
 * - moves (timer pause, resume, stop) are never merged: they keep their order.
 * - a row in flight is never touched (its request may already be at the server), and
 *   neither is a row whose earlier attempt may have reached it: the new edit is appended.
 */
import {
  type Effect,
  type EntityKey,
  entityKey,
  type FoldSpec,
  type Json,
  type JsonObject,
  kindSpec,
  type MutationKind,
  type NewMutation,
  type OutboxOperationId,
  operationSpec,
  parseEntityKey,
  type QueuedMutation,
} from './types';

export type CoalesceRule =
  | 'append'
  | 'merge-update'
  | 'fold-into-create'
  | 'create-then-delete'
  | 'delete-of-unsent'
  | 'delete-replaces-edits'
  | 'duplicate-delete';

/** An existing row's new request. */
export interface RowRewrite {
  mutationId: number;
  operationId: OutboxOperationId;
  path: Record<string, number>;
  body: Json;
  /** A merged update: the fields the user changed with both. */
  edited?: Record<string, number>;
}

export interface CoalescePlan {
  rule: CoalesceRule;
  /** Insert the edit as a new row, with this base; null when it was coalesced away. */
  insert: { base: Json } | null;
  /** A row that takes a new request: the merged update, or the create an update folded into. */
  rewrite: RowRewrite | null;
  /** Rows to remove (with their files). */
  remove: number[];
  /** Entities that never reach the server: every row depending on them goes too. */
  dropDependentsOf: EntityKey[];
}

type Row = Pick<
  QueuedMutation,
  | 'mutationId'
  | 'entity'
  | 'kind'
  | 'operationId'
  | 'path'
  | 'body'
  | 'state'
  | 'attempts'
  | 'lastError'
  | 'base'
  | 'edited'
>;

const effectOf = (kind: MutationKind): Effect => kindSpec(kind).effect;

/** Two rows' changed fields, each with its later time. */
export const mergeEdited = (
  a: Record<string, number> | null | undefined,
  b: Record<string, number> | null | undefined,
): Record<string, number> => {
  const out: Record<string, number> = { ...(a ?? {}) };
  for (const [k, t] of Object.entries(b ?? {})) out[k] = Math.max(out[k] ?? -Infinity, t);
  return out;
};

/**
 * Whether the row's request may have been processed by the server: it is in flight, or an
 * earlier attempt ended without an answer that says it was refused unprocessed (a 429 or a
 * 401 was not processed; a timeout or a 5xx may have been). A 429 or 401 met by the look for
 * a lost answer says nothing of the attempt that lost it: such a look runs only when that
 * attempt may have reached the server, and it still may.
 */
export const mayHaveReachedServer = (row: Pick<Row, 'state' | 'attempts' | 'lastError'>) => {
  if (row.state === 'inflight') return true;
  if (row.state !== 'pending' || row.attempts === 0) return false;
  if (row.lastError?.lookup === true) return true;
  const failure = row.lastError?.failure;
  return failure !== 'rate-limited' && failure !== 'auth';
};

const isObject = (v: Json): v is JsonObject =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const sameJson = (a: Json | undefined, b: Json | undefined) =>
  JSON.stringify(a) === JSON.stringify(b);

/** The create body carrying an update's full state, or undefined when it cannot. */
export const foldBody = (fold: FoldSpec, createBody: Json, updateBody: Json): Json | undefined => {
  if (!isObject(updateBody)) return undefined;
  const implied = fold.implied ?? {};
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(updateBody)) {
    if (Object.hasOwn(implied, k)) {
      if (!sameJson(v, implied[k])) return undefined;
    } else out[k] = v;
  }
  if (isObject(createBody))
    for (const k of fold.keepFromCreate ?? [])
      if (Object.hasOwn(createBody, k)) out[k] = createBody[k] as Json;
  return out;
};

/** The entity an edit is of, by its local id (create) or its own path parameter. */
export const entityOf = (next: NewMutation): EntityKey => {
  const spec = kindSpec(next.kind);
  const op = operationSpec(next.kind, next.operationId);
  const id = op.self === undefined ? next.localId : next.path[op.self];
  if (id === undefined || !Number.isSafeInteger(id) || id === 0)
    throw new TypeError(
      op.self === undefined
        ? `${next.kind} needs the local id of the new ${spec.entity}`
        : `${next.kind} needs path parameter ${op.self}`,
    );
  if (op.self === undefined && id > 0)
    throw new TypeError(`${next.kind}: a new ${spec.entity} gets a local (negative) id`);
  return entityKey(spec.entity, id);
};

const plan = (rule: CoalesceRule, p: Partial<Omit<CoalescePlan, 'rule'>> = {}): CoalescePlan => ({
  rule,
  insert: null,
  rewrite: null,
  remove: [],
  dropDependentsOf: [],
  ...p,
});

/**
 * What to do with `next`, given the queued rows of its entity (any state, in mutation order).
 * `entity` is the entity's current key (its server key once a local id is mapped); by default
 * the key `next` names.
 */
export const coalesce = (
  pendingForEntity: readonly Row[],
  next: NewMutation,
  entity: EntityKey = entityOf(next),
): CoalescePlan => {
  const rows = [...pendingForEntity].sort((a, b) => a.mutationId - b.mutationId);
  const head = rows[0];
  const last = rows.at(-1);
  const base = next.base ?? head?.base ?? null;
  const body = next.body ?? null;
  // Once its local id is mapped, the entity exists on the server whatever its create row says.
  const unsentEntity = parseEntityKey(entity).id < 0;
  const append = (rule: CoalesceRule = 'append', remove: number[] = []) =>
    plan(rule, { insert: { base }, remove });

  switch (effectOf(next.kind)) {
    case 'create':
    case 'move':
      return append();

    case 'update': {
      const fold = kindSpec(next.kind).fold;
      const rest = rows.slice(1);
      if (
        fold &&
        unsentEntity &&
        head &&
        head.kind === fold.into &&
        head.state === 'pending' &&
        !mayHaveReachedServer(head) &&
        rest.every((r) => r.kind === next.kind && r.state === 'pending')
      ) {
        const folded = foldBody(fold, head.body, body);
        if (folded !== undefined)
          return plan('fold-into-create', {
            rewrite: {
              mutationId: head.mutationId,
              operationId: head.operationId,
              path: { ...head.path },
              body: folded,
            },
            remove: rest.map((r) => r.mutationId),
          });
      }
      if (
        last &&
        last.kind === next.kind &&
        last.state === 'pending' &&
        !mayHaveReachedServer(last)
      )
        return plan('merge-update', {
          rewrite: {
            mutationId: last.mutationId,
            operationId: next.operationId,
            path: { ...next.path },
            body,
            edited: mergeEdited(last.edited, next.edited),
          },
        });
      return append();
    }

    case 'delete': {
      const live = (r: Row) => r.state === 'pending' || r.state === 'inflight';
      if (rows.some((r) => effectOf(r.kind) === 'delete' && live(r)))
        return plan('duplicate-delete');
      if (
        unsentEntity &&
        head &&
        effectOf(head.kind) === 'create' &&
        !mayHaveReachedServer(head) &&
        !rows.some((r) => r.state === 'inflight')
      )
        return plan('create-then-delete', {
          remove: rows.map((r) => r.mutationId),
          dropDependentsOf: [entity],
        });
      // A local entity with no create queued never reached the server: nothing to delete.
      if (!head && unsentEntity) return plan('delete-of-unsent', { dropDependentsOf: [entity] });
      // Edits kept before a delete stay (a timer's stop: see `keptBeforeDelete`).
      const edits = rows.filter((r) => {
        const e = effectOf(r.kind);
        return (
          (e === 'update' || e === 'move') &&
          !kindSpec(r.kind).keptBeforeDelete &&
          r.state !== 'inflight'
        );
      });
      return edits.length > 0
        ? append(
            'delete-replaces-edits',
            edits.map((r) => r.mutationId),
          )
        : append();
    }
  }
};
