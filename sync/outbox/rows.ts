/** Outbox rows as stored (JSON in TEXT columns) and as the rest of the outbox sees them. */

import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import type {
  EntityKey,
  Json,
  MutationKind,
  OutboxError,
  OutboxOperationId,
  QueuedMutation,
} from './types';

export const COLUMNS = `mutation_id, entity, kind, operation_id, path, body, idempotency_key, depends_on,
  state, attempts, next_attempt_at, last_error, base, created_at, updated_at, edited, sent_at`;

export interface RawRow {
  mutation_id: number;
  entity: string;
  kind: string;
  operation_id: string;
  path: string;
  body: string | null;
  idempotency_key: string;
  depends_on: string;
  state: QueuedMutation['state'];
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  base: string | null;
  created_at: number;
  updated_at: number;
  edited: string | null;
  sent_at: number | null;
}

export const parseJson = (text: string | null): Json =>
  text === null ? null : (JSON.parse(text) as Json);
export const toJson = (value: Json | undefined): string | null =>
  value === undefined || value === null ? null : JSON.stringify(value);

export const toMutation = (r: RawRow): QueuedMutation => ({
  mutationId: r.mutation_id,
  entity: r.entity as EntityKey,
  kind: r.kind as MutationKind,
  operationId: r.operation_id as OutboxOperationId,
  path: JSON.parse(r.path) as Record<string, number>,
  body: parseJson(r.body),
  idempotencyKey: r.idempotency_key,
  dependsOn: JSON.parse(r.depends_on) as EntityKey[],
  state: r.state,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  lastError: r.last_error === null ? null : (JSON.parse(r.last_error) as OutboxError),
  base: parseJson(r.base),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  edited: r.edited === null ? null : (JSON.parse(r.edited) as Record<string, number>),
  sentAt: r.sent_at,
});

export const select = (db: Sqlite, where: string, ...params: unknown[]): QueuedMutation[] =>
  (
    stmt(db, `SELECT ${COLUMNS} FROM outbox WHERE ${where} ORDER BY mutation_id`).all(
      ...params,
    ) as RawRow[]
  ).map(toMutation);

/** One row, or undefined. */
export const getMutation = (db: Sqlite, mutationId: number): QueuedMutation | undefined =>
  select(db, 'mutation_id = ?', mutationId)[0];

/** Every row, in replay order. */
export const allMutations = (db: Sqlite): QueuedMutation[] => select(db, '1 = 1');

/** The rows of one entity (by its current key), in order. */
export const mutationsOfEntity = (db: Sqlite, entity: EntityKey): QueuedMutation[] =>
  select(db, 'entity = ?', entity);
