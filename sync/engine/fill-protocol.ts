/**
 * Messages to and from the fill's worker thread (fill-worker.ts): pages to decode, checkpoints
 * to run, indexes to build after the move. Each side checks what it receives. The caller
 * checks the frame and the small parts of a decoded page, not the staged text, which only the
 * worker's encoder wrote after the page passed the contract's schema.
 */
import { z } from 'zod';
import { customField, userRef } from '../../shared/api';
import { type ApiErrorKind, apiErrorKinds, isApiClientError } from '../api/errors';

const id = z.number().int();

const apiErrorKind = z.custom<ApiErrorKind>(
  (v) => typeof v === 'string' && (apiErrorKinds as readonly string[]).includes(v),
);

/** An error as it crosses back: the client's errors keep their kind, others their message. */
const failure = z.object({
  kind: apiErrorKind.nullable(),
  message: z.string(),
  operationId: z.string(),
  status: z.number().int().optional(),
});
export type Failure = z.infer<typeof failure>;

export const toFailure = (e: unknown): Failure =>
  isApiClientError(e)
    ? {
        kind: e.kind,
        message: e.message,
        operationId: e.operationId,
        ...(e.status === undefined ? {} : { status: e.status }),
      }
    : { kind: null, message: e instanceof Error ? e.message : String(e), operationId: 'bulkTasks' };

const stagePage = z.object({
  staged: z.string().nullable(),
  dead: z.array(id),
  upserted: z.number().int().min(0),
  shared: z.object({ users: z.array(userRef), fields: z.array(customField) }),
});

export const toFillWorker = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('decode'),
    id,
    status: z.number().int(),
    body: z.instanceof(Uint8Array),
    receivedAt: z.number(),
  }),
  /** A PASSIVE checkpoint of the WAL of the database at `file`, on the worker's connection. */
  z.object({ type: z.literal('checkpoint'), id, file: z.string().min(1) }),
  /** Builds the deferred index `name` of the database at `file` (tasks-stage-indexes.ts). */
  z.object({
    type: z.literal('build-index'),
    id,
    file: z.string().min(1),
    name: z.string().min(1),
  }),
  z.object({ type: z.literal('close') }),
]);
export type ToFillWorker = z.infer<typeof toFillWorker>;

export const fromFillWorker = z.discriminatedUnion('type', [
  z.object({ type: z.literal('cursor'), id, nextCursor: z.string().nullable() }),
  z.object({
    type: z.literal('page'),
    id,
    result: z.object({
      nextCursor: z.string().nullable(),
      serverTime: z.number().int(),
      ids: z.array(id),
      page: stagePage,
    }),
  }),
  z.object({ type: z.literal('error'), id, error: failure }),
  /** WAL frames at the checkpoint, and how many of them are now in the database. */
  z.object({
    type: z.literal('checkpointed'),
    id,
    log: z.number().int(),
    checkpointed: z.number().int(),
  }),
  z.object({ type: z.literal('checkpoint-failed'), id, message: z.string() }),
  z.object({ type: z.literal('index-built'), id }),
  z.object({ type: z.literal('index-failed'), id, message: z.string() }),
]);
export type FromFillWorker = z.infer<typeof fromFillWorker>;
