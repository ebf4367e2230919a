/**
 * The HTTP layer under the client: one undici keep-alive Agent (a pool of at most 8
 * connections per origin), timeouts, and whole-body reads with a size cap. It knows nothing
 * of envelopes; every failure leaves here already mapped by `errors.ts`.
 */
import { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import { badResponse, errorFromTransport } from './errors';

export interface Timeouts {
  /** TCP (and TLS) connect. Set per HTTP layer: undici applies it to the connection pool. */
  connectMs: number;
  /** From the request being sent to the response headers. */
  headersMs: number;
  /** Longest silence between two chunks of the response body. */
  bodyMs: number;
}

/**
 * Per-call override: the connect timeout belongs to the pool, a total deadline is per call.
 * undici checks its socket timers about once a second, so headers and body timeouts are
 * coarse; `totalMs` (an AbortSignal timer) is precise.
 */
export interface CallTimeouts {
  headersMs?: number;
  bodyMs?: number;
  /** Deadline of the whole call (connect, send, wait, read), mapped to a `timeout` error. */
  totalMs?: number;
}

export const defaultTimeouts: Timeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 };

export const MAX_CONNECTIONS = 8;

export interface HttpOptions {
  /** Connections per origin, at most 8 (the service is one origin; 8 covers pulls + uploads). */
  connections?: number;
  timeouts?: Partial<Timeouts>;
  /** Idle keep-alive; undici also honours the server's `Keep-Alive: timeout` hint. */
  keepAliveMs?: number;
  /** Bodies above this are refused as bad-response rather than buffered without limit. */
  maxResponseBytes?: number;
  /**
   * A dispatcher of the caller's (a proxy agent, a mock). The caller owns it: `close()`
   * leaves it open. Its own connect timeout then applies.
   */
  dispatcher?: Dispatcher;
}

export type RequestBody = Uint8Array | string | AsyncIterable<Uint8Array>;

export interface HttpRequest {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: URL;
  headers: Record<string, string>;
  body?: RequestBody;
  timeouts?: CallTimeouts;
  signal?: AbortSignal;
}

export type ResponseHeaders = Record<string, string | string[] | undefined>;

export interface HttpResponse {
  status: number;
  headers: ResponseHeaders;
  body: Uint8Array;
}

export interface Http {
  readonly timeouts: Timeouts;
  send(request: HttpRequest): Promise<HttpResponse>;
  /** Response body bytes received through this pool so far (progress bars). */
  bytesReceived(): number;
  /** Ends the pool; calls in flight finish first. Idempotent. */
  close(): Promise<void>;
}

const DEFAULT_MAX_RESPONSE_BYTES = 128 * 1024 * 1024;

/** undici takes a Readable for streamed bodies; bytes and text go as they are. */
const toUndiciBody = (body: RequestBody | undefined): string | Uint8Array | Readable | null => {
  if (body === undefined) return null;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  return Readable.from(body, { objectMode: false });
};

const combineSignals = (
  signal: AbortSignal | undefined,
  totalMs: number | undefined,
): AbortSignal | undefined => {
  const list: AbortSignal[] = [];
  if (signal) list.push(signal);
  if (totalMs !== undefined) list.push(AbortSignal.timeout(totalMs));
  if (list.length === 0) return undefined;
  return list.length === 1 ? list[0] : AbortSignal.any(list);
};

export const createHttp = (options: HttpOptions = {}): Http => {
  const timeouts: Timeouts = { ...defaultTimeouts, ...options.timeouts };
  const connections = Math.min(options.connections ?? MAX_CONNECTIONS, MAX_CONNECTIONS);
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const owned = options.dispatcher === undefined;
  const dispatcher =
    options.dispatcher ??
    new Agent({
      connections,
      connectTimeout: timeouts.connectMs,
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
      keepAliveTimeout: options.keepAliveMs ?? 30_000,
      keepAliveMaxTimeout: 10 * 60_000,
    });
  let closing: Promise<void> | undefined;
  let received = 0;

  const send = async (req: HttpRequest): Promise<HttpResponse> => {
    const signal = combineSignals(req.signal, req.timeouts?.totalMs);
    let res: Dispatcher.ResponseData;
    try {
      res = await dispatcher.request({
        origin: req.url.origin,
        path: `${req.url.pathname}${req.url.search}`,
        method: req.method,
        headers: req.headers,
        body: toUndiciBody(req.body),
        headersTimeout: req.timeouts?.headersMs ?? timeouts.headersMs,
        bodyTimeout: req.timeouts?.bodyMs ?? timeouts.bodyMs,
        signal,
      });
    } catch (e) {
      throw errorFromTransport(e, req.operationId);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body) {
        const bytes = chunk as Uint8Array;
        size += bytes.byteLength;
        received += bytes.byteLength;
        if (size > maxBytes) {
          res.body.destroy();
          throw badResponse(
            req.operationId,
            `response body larger than ${maxBytes} bytes`,
            res.statusCode,
          );
        }
        chunks.push(bytes);
      }
    } catch (e) {
      res.body.destroy();
      throw errorFromTransport(e, req.operationId);
    }
    return {
      status: res.statusCode,
      headers: res.headers as ResponseHeaders,
      body: Buffer.concat(chunks, size),
    };
  };

  const close = (): Promise<void> => {
    if (!owned) return Promise.resolve();
    closing ??= dispatcher.close();
    return closing;
  };

  return { timeouts, send, close, bytesReceived: () => received };
};
