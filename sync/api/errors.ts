/**
 * The one place where anything that can go wrong with a /v1 call becomes an `ApiClientError`
 * of a closed set of kinds. The outbox and the UI switch on `kind` and `transient` only; they
 * never look at undici errors, HTTP statuses or response bodies themselves.
 */
import { apiError } from '../../shared/api/envelope';

export type ApiErrorKind =
  | 'network'
  | 'timeout'
  | 'auth'
  | 'forbidden'
  | 'not-found'
  | 'validation'
  | 'conflict'
  | 'rate-limit'
  | 'server'
  | 'bad-response';

export const apiErrorKinds: readonly ApiErrorKind[] = [
  'network',
  'timeout',
  'auth',
  'forbidden',
  'not-found',
  'validation',
  'conflict',
  'rate-limit',
  'server',
  'bad-response',
];

/** Kinds worth retrying later with the same request: nothing about the request was wrong. */
const transientKinds: ReadonlySet<ApiErrorKind> = new Set([
  'network',
  'timeout',
  'rate-limit',
  'server',
]);

export interface ClientFieldError {
  field: string;
  message: string;
}

export interface ApiClientErrorInit {
  kind: ApiErrorKind;
  message: string;
  operationId: string;
  status?: number;
  /** The ApiError `status` constant (e.g. `NOT_FOUND`) when the server sent one. */
  serverStatus?: string;
  fieldErrors?: ClientFieldError[];
  retryAfterMs?: number;
  cause?: unknown;
}

export class ApiClientError extends Error {
  override readonly name = 'ApiClientError';
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly serverStatus: string | undefined;
  readonly fieldErrors: ClientFieldError[];
  readonly retryAfterMs: number | undefined;
  readonly operationId: string;
  readonly transient: boolean;

  constructor(init: ApiClientErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.serverStatus = init.serverStatus;
    this.fieldErrors = init.fieldErrors ?? [];
    this.retryAfterMs = init.retryAfterMs;
    this.operationId = init.operationId;
    this.transient = transientKinds.has(init.kind);
  }
}

export const isApiClientError = (e: unknown): e is ApiClientError => e instanceof ApiClientError;

/**
 * The same failure, told as another operation's: many calls wait on one token refresh, and
 * each must report its own operation id.
 */
export const asOperation = (e: unknown, operationId: string): unknown =>
  e instanceof ApiClientError && e.operationId !== operationId
    ? new ApiClientError({
        kind: e.kind,
        message: e.message,
        operationId,
        status: e.status,
        serverStatus: e.serverStatus,
        fieldErrors: e.fieldErrors,
        retryAfterMs: e.retryAfterMs,
        cause: e.cause ?? e,
      })
    : e;

/** The kind an HTTP error status means; undefined for statuses the contract gives no meaning. */
export const kindForStatus = (status: number): ApiErrorKind | undefined => {
  if (status === 400 || status === 413 || status === 415 || status === 422) return 'validation';
  if (status === 401) return 'auth';
  if (status === 403) return 'forbidden';
  // 410: the resource is gone for good, which the outbox handles like a 404.
  if (status === 404 || status === 410) return 'not-found';
  // 408: the server gave up waiting for our request; sending again is the right answer.
  if (status === 408) return 'timeout';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate-limit';
  if (status >= 500 && status <= 599) return 'server';
  return undefined;
};

/**
 * `Retry-After` as milliseconds from now: delta-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Undefined when absent or unreadable, so the caller falls back to its own backoff.
 */
export const parseRetryAfter = (
  value: string | string[] | undefined,
  now: number,
): number | undefined => {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.round(Number(raw) * 1000);
  // Only something that looks like a date: Date.parse accepts bare numbers like "-5" as years.
  if (!/[a-z]/i.test(raw)) return undefined;
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
};

export interface HttpErrorAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text, or undefined when there was none. */
  text: string | undefined;
}

const describe = (status: number, serverMessage: string | undefined, bodyNote: string) =>
  serverMessage && serverMessage.trim() !== '' ? serverMessage : `HTTP ${status}${bodyNote}`;

/**
 * An HTTP answer with an error status. The status decides the kind (a proxy's HTML 429 or
 * 401 still means what its status says); the body, when it is an ApiError, adds the server's
 * message and field errors. A status the contract does not know (3xx, 418, …) is a
 * bad-response: the client cannot tell what happened to the request.
 */
export const errorFromHttp = (
  answer: HttpErrorAnswer,
  operationId: string,
  now: number,
): ApiClientError => {
  const { status } = answer;
  let parsedBody: ReturnType<typeof apiError.safeParse> | undefined;
  let isJson = false;
  if (answer.text !== undefined && answer.text.trim() !== '') {
    try {
      const json: unknown = JSON.parse(answer.text);
      isJson = true;
      parsedBody = apiError.safeParse(json);
    } catch {
      isJson = false;
    }
  }
  const body = parsedBody?.success ? parsedBody.data : undefined;
  const bodyNote =
    answer.text === undefined || answer.text.trim() === ''
      ? ' (empty body)'
      : !isJson
        ? ' (body is not JSON)'
        : body
          ? ''
          : ' (body is not an ApiError)';
  const kind = kindForStatus(status) ?? 'bad-response';
  const retryAfterMs =
    kind === 'rate-limit' || kind === 'server'
      ? parseRetryAfter(answer.headers['retry-after'], now)
      : undefined;
  return new ApiClientError({
    kind,
    status,
    operationId,
    message:
      kind === 'bad-response' && !body
        ? `unexpected HTTP ${status}${bodyNote}`
        : describe(status, body?.message, bodyNote),
    serverStatus: body?.status,
    fieldErrors: body?.errors?.map((e) => ({ field: e.field, message: e.message })) ?? [],
    retryAfterMs,
  });
};

/** A success status whose body is not what the endpoint table promises. */
export const badResponse = (
  operationId: string,
  message: string,
  status?: number,
  cause?: unknown,
): ApiClientError =>
  new ApiClientError({ kind: 'bad-response', operationId, message, status, cause });

/** Input refused on this side: nothing was sent. */
export const validationError = (
  operationId: string,
  message: string,
  fieldErrors: ClientFieldError[] = [],
): ApiClientError => new ApiClientError({ kind: 'validation', operationId, message, fieldErrors });

const timeoutCodes = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
]);

const errorCode = (e: unknown): string | undefined => {
  if (typeof e !== 'object' || e === null) return undefined;
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
};

/** Walks `cause` chains: undici wraps socket errors, AbortSignal reasons sit in `cause`. */
const causes = (e: unknown): unknown[] => {
  const out: unknown[] = [];
  let cur: unknown = e;
  while (cur !== undefined && cur !== null && out.length < 8) {
    out.push(cur);
    cur = typeof cur === 'object' ? (cur as { cause?: unknown }).cause : undefined;
  }
  return out;
};

/**
 * Anything thrown while talking to the server (undici errors, socket errors, aborts). An
 * ApiClientError passes through unchanged, so a body stream can refuse with one.
 */
export const errorFromTransport = (e: unknown, operationId: string): ApiClientError => {
  if (e instanceof ApiClientError) return e;
  const chain = causes(e);
  const inner = chain.find((c) => c instanceof ApiClientError);
  if (inner instanceof ApiClientError) return inner;
  const codes = chain.map(errorCode);
  const names = chain.map((c) => (c instanceof Error ? c.name : undefined));
  const detail = chain
    .map((c) => (c instanceof Error ? c.message : undefined))
    .filter((m): m is string => !!m)[0];
  if (codes.some((c) => c !== undefined && timeoutCodes.has(c)) || names.includes('TimeoutError'))
    return new ApiClientError({
      kind: 'timeout',
      operationId,
      message: `request timed out${detail ? `: ${detail}` : ''}`,
      cause: e,
    });
  if (names.includes('AbortError') || codes.includes('UND_ERR_ABORTED'))
    return new ApiClientError({
      kind: 'network',
      operationId,
      message: 'request aborted',
      cause: e,
    });
  return new ApiClientError({
    kind: 'network',
    operationId,
    message: `network error${detail ? `: ${detail}` : ''}`,
    cause: e,
  });
};
