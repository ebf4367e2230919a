/**
 * One outbox row as one request: local ids rewritten to server ids, the stored idempotency key
 * on POSTs, staged files streamed for uploads. Classifying a failure is the pusher's job.
 */
import { type EndpointDef, endpoints } from '../../shared/api/endpoints';
import type { ApiClient } from '../api';
import type { OperationId, ProgressCallback } from '../api/types';
import type { Sqlite } from '../db/open';
import { uploadFilesOf } from './files';
import { rewriteIds } from './local-ids';
import { operationSpec, type QueuedMutation } from './types';

export interface SendContext {
  client: ApiClient;
  db: Sqlite;
  dataDir: string;
  signal?: AbortSignal;
  onProgress?: ProgressCallback;
}

export type SendOutcome =
  | { status: 'sent'; answer: unknown; path: Record<string, number> }
  /** A referenced entity has no server id yet (the queue should not have offered the row). */
  | { status: 'blocked' };

/** The request arguments of a row whose ids are all server ids. */
export const requestArgs = (
  ctx: Pick<SendContext, 'db' | 'dataDir' | 'signal' | 'onProgress'>,
  row: QueuedMutation,
  path: Record<string, number>,
  body: QueuedMutation['body'],
): Record<string, unknown> => {
  const def: EndpointDef = endpoints[row.operationId];
  const args: Record<string, unknown> = { path };
  if (ctx.signal) args.signal = ctx.signal;
  if (def.method === 'POST') args.idempotencyKey = row.idempotencyKey;
  if (def.body === 'multipart') {
    args.files = uploadFilesOf(ctx.db, ctx.dataDir, row.mutationId);
    if (ctx.onProgress) args.onProgress = ctx.onProgress;
  } else if (def.body && body !== null) args.body = body;
  return args;
};

export const sendMutation = async (ctx: SendContext, row: QueuedMutation): Promise<SendOutcome> => {
  const rewritten = rewriteIds(ctx.db, row);
  if (rewritten.status === 'blocked') return { status: 'blocked' };
  const args = requestArgs(ctx, row, rewritten.path, rewritten.body);
  // Some services answer a create with its container (see `answerResolved`): resolved here.
  const answer = operationSpec(row.kind, row.operationId).answerResolved
    ? await ctx.client.createProjectTaskResolved(args as never)
    : await ctx.client.call(row.operationId as OperationId, args as never);
  return { status: 'sent', answer, path: rewritten.path };
};
