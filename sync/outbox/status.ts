/**
 * What the UI shows of the outbox: unsent edits per kind, edits that failed (with the
 * server's words) or conflict, edits waiting for a retry, and when the next retry is due.
 */
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { dueAtSql } from './queue';
import type { EntityKey, MutationKind, MutationState, OutboxError } from './types';

export interface FailedEdit {
  mutationId: number;
  kind: MutationKind;
  entity: EntityKey;
  state: Extract<MutationState, 'failed' | 'conflict'>;
  error: OutboxError | null;
  attempts: number;
  updatedAt: number;
}

export interface RetryingEdit {
  mutationId: number;
  kind: MutationKind;
  entity: EntityKey;
  attempts: number;
  nextAttemptAt: number;
  error: OutboxError;
}

export interface OutboxStatus {
  /** Unsent edits (pending or in flight) per kind. */
  pendingByKind: Partial<Record<MutationKind, number>>;
  pending: number;
  inflight: number;
  /** Failed and conflicting edits, oldest first: they wait for the user. */
  failed: FailedEdit[];
  /** Pending edits that failed transiently and wait for their next attempt. */
  retrying: RetryingEdit[];
  /** The earliest future attempt time of a pending edit, or null when none waits. */
  nextRetryAt: number | null;
}

export const outboxStatus = (db: Sqlite, now: number): OutboxStatus => {
  const counts = stmt(
    db,
    `SELECT kind, sum(state = 'pending') AS pending, sum(state = 'inflight') AS inflight
     FROM outbox WHERE state IN ('pending', 'inflight') GROUP BY kind ORDER BY kind`,
  ).all() as { kind: MutationKind; pending: number; inflight: number }[];
  const pendingByKind: Partial<Record<MutationKind, number>> = {};
  let pending = 0;
  let inflight = 0;
  for (const c of counts) {
    pendingByKind[c.kind] = c.pending + c.inflight;
    pending += c.pending;
    inflight += c.inflight;
  }
  const failed = (
    stmt(
      db,
      `SELECT mutation_id, kind, entity, state, last_error, attempts, updated_at FROM outbox
       WHERE state IN ('failed', 'conflict') ORDER BY mutation_id`,
    ).all() as {
      mutation_id: number;
      kind: MutationKind;
      entity: EntityKey;
      state: FailedEdit['state'];
      last_error: string | null;
      attempts: number;
      updated_at: number;
    }[]
  ).map((r) => ({
    mutationId: r.mutation_id,
    kind: r.kind,
    entity: r.entity,
    state: r.state,
    error: r.last_error === null ? null : (JSON.parse(r.last_error) as OutboxError),
    attempts: r.attempts,
    updatedAt: r.updated_at,
  }));
  const retrying = (
    stmt(
      db,
      `SELECT mutation_id, kind, entity, attempts, ${dueAtSql('outbox')} AS next_attempt_at,
         last_error FROM outbox
       WHERE state = 'pending' AND last_error IS NOT NULL ORDER BY mutation_id`,
    ).all({ now }) as {
      mutation_id: number;
      kind: MutationKind;
      entity: EntityKey;
      attempts: number;
      next_attempt_at: number;
      last_error: string;
    }[]
  ).map((r) => ({
    mutationId: r.mutation_id,
    kind: r.kind,
    entity: r.entity,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    error: JSON.parse(r.last_error) as OutboxError,
  }));
  const next = stmt(
    db,
    `SELECT min(at) AS at FROM (SELECT ${dueAtSql('outbox')} AS at FROM outbox
       WHERE state = 'pending') WHERE at > @now`,
  ).get({ now }) as { at: number | null };
  return { pendingByKind, pending, inflight, failed, retrying, nextRetryAt: next.at };
};
