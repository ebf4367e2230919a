/**
 * What the outbox holds: its rows, their states and errors. The kind table itself (what each
 * edit kind is and which operations carry it) is part of the edit contract, in
 * shared/edits/kinds.ts, re-exported here for the engine.
 */

import type { EntityKind, Json, MutationKind, OutboxOperationId } from '../../shared/edits/kinds';
import type { ApiErrorKind, ClientFieldError } from '../api/errors';

export * from '../../shared/edits/kinds';

/** `task:-3`, `checklist:17`: the entity a row edits or references. Negative = local id. */
export type EntityKey = `${EntityKind}:${number}`;

export const entityKey = (kind: EntityKind, id: number): EntityKey => `${kind}:${id}`;

export const parseEntityKey = (key: string): { kind: EntityKind; id: number } => {
  const at = key.lastIndexOf(':');
  const id = Number(key.slice(at + 1));
  if (at < 1 || !Number.isSafeInteger(id) || id === 0)
    throw new TypeError(`not an entity key: ${key}`);
  return { kind: key.slice(0, at) as EntityKind, id };
};

export const isLocalId = (id: number): boolean => id < 0;

export type MutationState = 'pending' | 'inflight' | 'failed' | 'conflict';

/** What `classifyFailure` makes of an error (see backoff.ts). */
export type FailureClass = 'retry' | 'rate-limited' | 'auth' | 'permanent' | 'conflict';

/** The last failure of a row, as stored in `last_error` and shown to the user. */
export interface OutboxError {
  /** The client's error kind, or `local` for a failure on this side (a file gone, a bug). */
  kind: ApiErrorKind | 'local';
  failure: FailureClass;
  status?: number;
  /** The server's message when it sent one. */
  message: string;
  fieldErrors?: ClientFieldError[];
  /**
   * An earlier attempt may still have reached the server, whatever this failure says: this
   * was the look for its lost answer (before this attempt sent anything), or a failure that
   * says nothing reached (a 429, a 401) after an attempt whose answer was lost.
   */
  lookup?: true;
}

/** An edit as the optimistic layer hands it to `enqueue`. */
export interface NewMutation {
  kind: MutationKind;
  /** One of the kind's operations (personal task, project task, subtask, …). */
  operationId: OutboxOperationId;
  /** Path parameters; may hold local (negative) ids. */
  path: Readonly<Record<string, number>>;
  /** The JSON body: for an update, the complete current state. */
  body?: Json;
  /** For a create: the local id allocated for the new entity (`allocateLocalId`). */
  localId?: number;
  /** The server's copy of the entity before this edit, when it is the first pending one. */
  base?: Json;
  /** An update: the fields the user changed with it, each with when (see `edited` below). */
  edited?: Record<string, number>;
}

/** A row of the outbox. */
export interface QueuedMutation {
  /** The client mutation id: rises monotonically, is the replay order. */
  mutationId: number;
  entity: EntityKey;
  kind: MutationKind;
  operationId: OutboxOperationId;
  path: Record<string, number>;
  body: Json;
  /** Sent as Idempotency-Key with POSTs; every row has one. */
  idempotencyKey: string;
  /** Entities the row references; a local (negative) key blocks it until mapped. */
  dependsOn: EntityKey[];
  state: MutationState;
  attempts: number;
  nextAttemptAt: number;
  lastError: OutboxError | null;
  base: Json;
  createdAt: number;
  updatedAt: number;
  /**
   * An update's fields the user changed (its own and those of the updates coalesced into it),
   * each with when, on this machine's clock; null for other rows and for rows of older builds.
   */
  edited: Record<string, number> | null;
  /** When the row first went out, or null. */
  sentAt: number | null;
}
