/**
 * The typed client of the /v1 service. Every operation of the endpoint table is a function
 * of `client.ops`; this file adds what every call shares: the bearer and `X-Org-Id`, the
 * single refresh-and-retry on a 401, and monotonic upload progress across that retry.
 */
import { type OperationId, operationIds } from '../../shared/api/endpoints';
import type { Task } from '../../shared/api/tasks';
import { type CallContext, prepareCall, type RawAnswer, sendPrepared } from './call';
import { isApiClientError } from './errors';
import type { Http } from './http';
import { createProjectTaskResolved, type ResolveOptions } from './project-task';
import { ServerClock } from './server-clock';
import type { Session } from './session';
import type {
  LooseArgs,
  OperationArgs,
  OperationResult,
  Operations,
  ProgressCallback,
} from './types';
import type { UploadRules } from './upload';

export interface ApiClientOptions {
  baseUrl: string | URL;
  /** The organization every call acts in (`X-Org-Id`). */
  orgId: number;
  session: Session;
  /** The HTTP layer (pool) to use; by default the session's, so refreshes share it too. */
  http?: Http;
  /** Defaults to the session's clock, so token expiry and Retry-After agree. */
  clock?: () => number;
  userAgent?: string;
  /** The plan's upload rules, when the service's differ from the reference plan. */
  uploadRules?: UploadRules;
}

export interface ApiClient {
  readonly baseUrl: URL;
  readonly orgId: number;
  readonly session: Session;
  readonly clock: () => number;
  /** The service's clock as learnt from the answers (shared with the `forOrg` siblings). */
  readonly serverClock: ServerClock;
  /** One typed function per operation id of the endpoint table. */
  readonly ops: Operations;
  /** The same, by operation id (the outbox stores ids, not functions). */
  call<K extends OperationId>(operationId: K, args?: OperationArgs<K>): Promise<OperationResult<K>>;
  /**
   * The same call, answering the 2xx response undecoded (statuses, the 401 retry and errors
   * as for `call`): the caller checks it against the contract itself with `decodeResponse`,
   * e.g. on a worker thread.
   */
  callRaw<K extends OperationId>(operationId: K, args?: OperationArgs<K>): Promise<RawAnswer>;
  /** `createProjectTask`, answering the created task even when the server answers the project. */
  createProjectTaskResolved(
    args: OperationArgs<'createProjectTask'>,
    options?: ResolveOptions,
  ): Promise<Task>;
  /** Response bytes received by the pool this client uses (shared with its siblings). */
  bytesReceived(): number;
  /** A client for another organization, sharing the session and the pool. */
  forOrg(orgId: number): ApiClient;
  /** Ends the pool shared by this client, its `forOrg` siblings and (by default) the session. */
  close(): Promise<void>;
}

/** Progress never goes backwards, even when a 401 makes the body go out a second time. */
const monotonic = (cb: ProgressCallback | undefined): ProgressCallback | undefined => {
  if (!cb) return undefined;
  let high = -1;
  return (sent, total) => {
    if (sent <= high) return;
    high = sent;
    cb(sent, total);
  };
};

const checkOrgId = (orgId: number): number => {
  if (!Number.isSafeInteger(orgId) || orgId < 1)
    throw new TypeError(`orgId must be a positive integer, got ${String(orgId)}`);
  return orgId;
};

export const createApiClient = (options: ApiClientOptions): ApiClient => {
  const { session } = options;
  const ctx: CallContext = {
    http: options.http ?? session.http,
    baseUrl: new URL(options.baseUrl),
    clock: options.clock ?? session.clock,
    userAgent: options.userAgent ?? session.userAgent,
    uploadRules: options.uploadRules,
    serverClock: new ServerClock(),
  };
  return makeClient(ctx, session, checkOrgId(options.orgId));
};

const makeClient = (ctx: CallContext, session: Session, orgId: number): ApiClient => {
  const authHeaders = (token: string) => ({
    authorization: `Bearer ${token}`,
    'x-org-id': String(orgId),
  });

  const invoke = async (
    operationId: OperationId,
    args: LooseArgs = {},
    raw = false,
  ): Promise<unknown> => {
    // Arguments are checked before any token work: a refused input sends nothing at all.
    const prepared = await prepareCall(ctx, operationId, args);
    if (prepared.row.auth === 'none')
      return sendPrepared(ctx, prepared, {}, args, args.onProgress, raw);
    const progress = monotonic(args.onProgress);
    const token = await session.accessToken(operationId);
    try {
      return await sendPrepared(ctx, prepared, authHeaders(token), args, progress, raw);
    } catch (e) {
      if (!isApiClientError(e) || e.kind !== 'auth' || e.status !== 401) throw e;
      // One refresh (shared with every other call that met the same 401), one retry.
      const fresh = await session.refreshAfterUnauthorized(token, operationId);
      return sendPrepared(ctx, prepared, authHeaders(fresh), args, progress, raw);
    }
  };

  const ops = Object.fromEntries(
    operationIds.map((id) => [id, (args?: LooseArgs) => invoke(id, args)]),
  ) as unknown as Operations;

  const client: ApiClient = {
    baseUrl: ctx.baseUrl,
    orgId,
    session,
    clock: ctx.clock,
    serverClock: ctx.serverClock ?? new ServerClock(),
    ops,
    call: <K extends OperationId>(operationId: K, args?: OperationArgs<K>) =>
      invoke(operationId, args as LooseArgs | undefined) as Promise<OperationResult<K>>,
    callRaw: (operationId, args) =>
      invoke(operationId, args as LooseArgs | undefined, true) as Promise<RawAnswer>,
    createProjectTaskResolved: (args, resolveOptions) =>
      createProjectTaskResolved(client, args, resolveOptions),
    forOrg: (other) => makeClient(ctx, session, checkOrgId(other)),
    bytesReceived: () => ctx.http.bytesReceived(),
    close: () => ctx.http.close(),
  };
  return client;
};
