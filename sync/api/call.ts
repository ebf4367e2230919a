/**
 * One operation, end to end, without any notion of a session: check the arguments against
 * the row's schemas, build the request, send it, and parse the answer by its schema. The
 * client adds the bearer, the org and the 401 retry on top of this; the session uses it
 * directly for the token operations.
 */
import type { z } from 'zod';
import {
  type EndpointDef,
  endpoints,
  fillPath,
  type OperationId,
  pathParamsSchema,
} from '../../shared/api/endpoints';
import { apiError, emptyEnvelope, envelope } from '../../shared/api/envelope';
import { badResponse, type ClientFieldError, errorFromHttp, validationError } from './errors';
import type { Http, HttpResponse, RequestBody } from './http';
import { serializeQuery } from './query';
import { answerTime, type ServerClock } from './server-clock';
import type { LooseArgs, ProgressCallback } from './types';
import { prepareMultipart, type UploadRules } from './upload';

export interface CallContext {
  http: Http;
  /** The service root; its path (if any) prefixes every `/v1/...` path. */
  baseUrl: URL;
  clock: () => number;
  userAgent: string;
  uploadRules?: UploadRules;
  /** Learns the service's clock from every answer's timestamp. */
  serverClock?: ServerClock;
}

/** A request ready to go, possibly more than once (a retry after a token refresh). */
export interface PreparedCall {
  operationId: OperationId;
  row: EndpointDef;
  url: URL;
  headers: Record<string, string>;
  body: (onProgress?: ProgressCallback) => RequestBody | undefined;
}

export const DEFAULT_USER_AGENT = 'worktray-sync/0.1';

const JSON_ACCEPT = 'application/json, application/vnd.hal+json;q=0.9, application/hal+json;q=0.9';
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

const issuesToFields = (issues: readonly z.core.$ZodIssue[], prefix: string): ClientFieldError[] =>
  issues.map((i) => ({
    field: [prefix, ...i.path.map(String)].filter((p) => p !== '').join('.'),
    message: i.message,
  }));

const summary = (fields: readonly ClientFieldError[]): string =>
  fields
    .slice(0, 5)
    .map((f) => `${f.field || '(root)'}: ${f.message}`)
    .join('; ');

const refuse = (operationId: string, what: string, issues: readonly z.core.$ZodIssue[]) => {
  const fields = issuesToFields(issues, what);
  return validationError(operationId, `invalid ${what}: ${summary(fields)}`, fields);
};

/** Joins the base URL's path and an operation path without doubling or losing a slash. */
export const buildUrl = (baseUrl: URL, path: string, search: string): URL => {
  const url = new URL(baseUrl.href);
  url.pathname = `${baseUrl.pathname.replace(/\/+$/, '')}${path}`;
  url.search = search;
  url.hash = '';
  return url;
};

export const prepareCall = async (
  ctx: CallContext,
  operationId: OperationId,
  args: LooseArgs = {},
): Promise<PreparedCall> => {
  // The outbox stores operation ids as text: an id from an older build must not reach
  // Object.prototype ("toString") or crash; it is refused like any bad input.
  if (!Object.hasOwn(endpoints, operationId))
    throw validationError(operationId, `unknown operation ${String(operationId)}`);
  const row: EndpointDef = endpoints[operationId];

  const pathParsed = pathParamsSchema(row.path).safeParse(args.path ?? {});
  if (!pathParsed.success) throw refuse(operationId, 'path', pathParsed.error.issues);
  const path = fillPath(row.path, pathParsed.data as Record<string, number>);

  let search = '';
  if (row.query) {
    const q = row.query.safeParse(args.query ?? {});
    if (!q.success) throw refuse(operationId, 'query', q.error.issues);
    // The caller's values go on the wire, not the parsed ones: the schema is the server's
    // reading of a query string (defaults, clamps, sort keys), not a wire format.
    search = serializeQuery(args.query);
  } else if (args.query !== undefined) {
    throw validationError(operationId, `${operationId} takes no query`);
  }

  const headers: Record<string, string> = {
    accept: row.produces === 'binary' ? '*/*' : JSON_ACCEPT,
    'user-agent': ctx.userAgent,
  };
  if (args.idempotencyKey !== undefined && row.method === 'POST') {
    if (!IDEMPOTENCY_KEY.test(args.idempotencyKey))
      throw validationError(operationId, 'idempotency key must be 1-255 visible ASCII characters');
    headers['idempotency-key'] = args.idempotencyKey;
  }

  let body: PreparedCall['body'] = () => undefined;
  if (row.body === 'multipart') {
    const multipart = await prepareMultipart(operationId, args.files ?? [], ctx.uploadRules);
    headers['content-type'] = multipart.contentType;
    headers['content-length'] = String(multipart.contentLength);
    body = (onProgress) => multipart.stream(onProgress);
  } else if (row.body) {
    const b = row.body.safeParse(args.body);
    if (!b.success) throw refuse(operationId, 'body', b.error.issues);
    const bytes = new TextEncoder().encode(JSON.stringify(b.data));
    headers['content-type'] = 'application/json';
    body = () => bytes;
  }

  return { operationId, row, url: buildUrl(ctx.baseUrl, path, search), headers, body };
};

const schemaCache = new WeakMap<EndpointDef, z.ZodType>();
const answerSchema = (row: EndpointDef): z.ZodType => {
  let s = schemaCache.get(row);
  if (!s) {
    s = row.data ? envelope(row.data) : emptyEnvelope;
    schemaCache.set(row, s);
  }
  return s;
};

const decodeText = (bytes: Uint8Array): string | undefined => {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
};

const headerValue = (v: string | string[] | undefined): string | undefined =>
  Array.isArray(v) ? v[0] : v;

/** Throws the error a non-2xx answer means; a 2xx passes. */
export const checkStatus = (operationId: string, res: HttpResponse, now: number): void => {
  const { status } = res;
  if (status >= 200 && status <= 299) return;
  const text = res.body.byteLength === 0 ? undefined : (decodeText(res.body) ?? '\uFFFD');
  throw errorFromHttp({ status, headers: res.headers, text }, operationId, now);
};

/** A 2xx body read as JSON (the JSON value), or the bad-response error it means. */
const readJsonBody = (operationId: string, res: HttpResponse): unknown => {
  const { status } = res;
  const text = decodeText(res.body);
  if (text === undefined) throw badResponse(operationId, 'response body is not UTF-8', status);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw badResponse(operationId, 'response body is not valid JSON', status, e);
  }
};

/** A 2xx answer's JSON checked against the row's schema: its `data`, or the error it means. */
const checkAnswer = (
  row: EndpointDef,
  operationId: string,
  status: number,
  json: unknown,
): unknown => {
  const parsed = answerSchema(row).safeParse(json);
  if (!parsed.success) {
    // A 2xx carrying an ApiError: the server's words are more useful than the schema's.
    const asError = apiError.safeParse(json);
    if (asError.success)
      throw badResponse(
        operationId,
        `HTTP ${status} with an error body: ${asError.data.message}`,
        status,
      );
    const fields = issuesToFields(parsed.error.issues, '');
    throw badResponse(
      operationId,
      `response does not match the contract: ${summary(fields)}`,
      status,
      parsed.error,
    );
  }
  return row.data ? (parsed.data as { data: unknown }).data : undefined;
};

/**
 * The answer's `data`, parsed; or the error it means. Never a half-parsed value. `onJson`
 * sees a JSON body as soon as it is parsed, before the check against the contract (a bulk
 * pull starts its next request from the cursor in it; nothing is written before the check).
 */
export const decodeResponse = (
  row: EndpointDef,
  operationId: string,
  res: HttpResponse,
  now: number,
  onJson?: (json: unknown) => void,
): unknown => {
  checkStatus(operationId, res, now);
  const { status } = res;
  if (row.produces === 'binary')
    return { bytes: res.body, contentType: headerValue(res.headers['content-type']) };
  if (res.body.byteLength === 0) {
    if (row.data)
      throw badResponse(operationId, `HTTP ${status} without the expected body`, status);
    return undefined;
  }
  if (status === 204) return undefined;
  const json = readJsonBody(operationId, res);
  onJson?.(json);
  return checkAnswer(row, operationId, status, json);
};

/**
 * A 2xx answer as received, not decoded yet (the caller decodes it with `decodeResponse`,
 * possibly on another thread); any other status has already become its error.
 */
export interface RawAnswer {
  operationId: OperationId;
  response: HttpResponse;
  /** The client's clock when the answer arrived. */
  receivedAt: number;
}

/** `raw`: answer the undecoded `RawAnswer` instead of the parsed data. */
export const sendPrepared = async (
  ctx: CallContext,
  call: PreparedCall,
  extraHeaders: Record<string, string>,
  args: LooseArgs,
  onProgress?: ProgressCallback,
  raw = false,
): Promise<unknown> => {
  const sentAt = ctx.clock();
  const res = await ctx.http.send({
    operationId: call.operationId,
    method: call.row.method,
    url: call.url,
    headers: { ...call.headers, ...extraHeaders },
    body: call.body(onProgress),
    timeouts: args.timeouts,
    signal: args.signal,
  });
  const now = ctx.clock();
  const { serverClock } = ctx;
  let stamped = false;
  const sample = (timestamp: unknown) => {
    const at = serverClock && answerTime(timestamp, headerValue(res.headers.date));
    if (!at || stamped) return;
    stamped = true;
    serverClock.observe({ sentAt, receivedAt: now, ...at });
  };
  // A JSON envelope is stamped to the millisecond; other answers (errors, raw pages, 204s)
  // have their HTTP Date.
  if (!raw) {
    try {
      return decodeResponse(call.row, call.operationId, res, now, (json) =>
        sample((json as { timestamp?: unknown } | null)?.timestamp),
      );
    } finally {
      sample(undefined);
    }
  }
  sample(undefined);
  checkStatus(call.operationId, res, now);
  return { operationId: call.operationId, response: res, receivedAt: now } satisfies RawAnswer;
};

/** An operation that needs no session (the token operations). */
export const executeOperation = async (
  ctx: CallContext,
  operationId: OperationId,
  args: LooseArgs = {},
): Promise<unknown> => {
  const call = await prepareCall(ctx, operationId, args);
  return sendPrepared(ctx, call, {}, args, args.onProgress);
};
