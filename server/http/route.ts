import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  type EndpointDef,
  type Endpoints,
  endpoints,
  type OperationId,
  type PathParams,
  pathParamsSchema,
} from '../../shared/api';
import { authenticate, resolveOrg } from '../auth/guard';
import type { ServerDeps } from '../deps';
import { badRequest, fieldErrorsOf, HttpError } from './errors';
import {
  checkedKey,
  type KeyedRequest,
  keepAnswer,
  keptAnswer,
  requestHash,
  type StoredAnswer,
} from './idempotency';
import { JsonBytes } from './json-bytes';
import { discardUploads, receiveUploads, type StoredUpload } from './uploads';

type QueryOut<E> = E extends { query: infer Q extends z.ZodType } ? z.output<Q> : undefined;
type BodyOut<E> = E extends { body: 'multipart' }
  ? StoredUpload[]
  : E extends { body: infer B extends z.ZodType }
    ? z.output<B>
    : undefined;

/** A file answer (attachment content): streamed after the transaction. */
export interface BinaryAnswer {
  filePath: string;
  contentType: string;
  fileName: string;
}
type DataIn<E> = E extends { produces: 'binary' }
  ? BinaryAnswer
  : E extends { data: infer D extends z.ZodType }
    ? z.input<D> | JsonBytes<z.input<D>>
    : undefined;

/** Who is calling, in which org, at what server time. Zero ids for auth:none operations. */
export interface Ctx {
  userId: number;
  orgId: number;
  now: number;
}

export interface OpInput<E extends EndpointDef> {
  params: PathParams<E['path']>;
  query: QueryOut<E>;
  body: BodyOut<E>;
  ctx: Ctx;
}

/**
 * A handler runs inside one SQLite transaction; a throw rolls everything back, except an
 * HttpError with `keepWrites` (a refusal that must leave a mark, such as a revoked family).
 */
export type OpHandler<K extends OperationId, P = undefined> = (
  input: OpInput<Endpoints[K]> & { prepared: P },
) => DataIn<Endpoints[K]>;

/**
 * Work that must not hold the transaction or the event loop (a password check on the thread
 * pool): it runs after parsing and before the transaction; what it answers reaches the
 * handler as `prepared`. `peer` is the caller's address.
 */
export type OpPrepare<K extends OperationId, P> = (
  input: OpInput<Endpoints[K]> & { peer: string },
) => Promise<P>;

export interface Router {
  op<K extends OperationId, P = undefined>(
    id: K,
    handler: OpHandler<K, P>,
    prepare?: OpPrepare<K, P>,
  ): void;
  /** A route outside the endpoint table (this server's extensions). */
  readonly app: FastifyInstance;
  readonly deps: ServerDeps;
}

const parseOrThrow = <S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: string,
): z.output<S> => {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw badRequest(`invalid ${where}`, fieldErrorsOf(parsed.error, input));
  return parsed.data;
};

/**
 * The envelope {success, message, code, data?, timestamp} as JSON, `data` serialized once: the
 * same bytes as JSON.stringify of the whole. Data handed over as JSON bytes already (JsonBytes)
 * goes in as it is, and the envelope is bytes too.
 */
const envelopeJson = (code: number, data: unknown, now: number): string | Buffer => {
  const head = `{"success":true,"message":"${code === 200 ? 'OK' : 'Done'}","code":${code}`;
  const tail = `,"timestamp":"${new Date(now).toISOString()}"}`;
  if (data instanceof JsonBytes)
    return Buffer.concat([Buffer.from(`${head},"data":`), data.bytes, Buffer.from(tail)]);
  const dataJson = JSON.stringify(data);
  return dataJson === undefined ? head + tail : `${head},"data":${dataJson}${tail}`;
};

/** The caller: token and org checked, or zero ids for an auth:none operation. */
const callerOf = (row: EndpointDef, deps: ServerDeps, req: FastifyRequest, now: number): Ctx => {
  if (row.auth === 'none') return { userId: 0, orgId: 0, now };
  const userId = authenticate(deps.db, req.headers.authorization, now);
  const orgId = resolveOrg(deps.db, userId, req.headers['x-org-id']);
  return { userId, orgId, now };
};

/** The body by the row's schema; a multipart body's files are stored first (the caller owns them). */
const bodyOf = async (
  row: EndpointDef,
  req: FastifyRequest,
  deps: ServerDeps,
): Promise<{ body: unknown; uploads: StoredUpload[] }> => {
  if (row.body === 'multipart') {
    const uploads = await receiveUploads(req, deps);
    return { body: uploads, uploads };
  }
  const body = row.body ? parseOrThrow(row.body, req.body, 'request body') : undefined;
  return { body, uploads: [] };
};

/**
 * The request's Idempotency-Key, if it has one that counts. The extension scopes keys to a
 * signed-in user. Sign-in and refresh have none: their keys would share one space across
 * callers (a 409 tells a key was used) and store live tokens for 24 h (a replayed refresh would
 * bypass rotation). Ignored there.
 */
const keyedRequestOf = (
  row: EndpointDef,
  deps: ServerDeps,
  req: FastifyRequest,
  ctx: Ctx,
  input: { body: unknown; uploads: readonly StoredUpload[] },
): KeyedRequest | undefined => {
  if (row.method !== 'POST' || row.auth === 'none' || deps.quirks.has('ignore-idempotency-key'))
    return undefined;
  const key = checkedKey(req.headers['idempotency-key']);
  if (key === undefined) return undefined;
  const hashed =
    row.body === 'multipart'
      ? input.uploads.map((u) => [u.originalName, u.size, u.sha256])
      : input.body;
  const hash = requestHash(req.method, req.url.split('?')[0] ?? '', ctx.orgId, hashed);
  return { userId: ctx.userId, key, hash };
};

type Outcome = { replay: StoredAnswer } | { result: unknown } | { refusal: HttpError };

/**
 * One SQLite transaction: the kept answer of a replayed key, or the handler's work (and, with a
 * key, its answer kept). A refusal with `keepWrites` commits and is answered after.
 */
const transact = (
  deps: ServerDeps,
  row: EndpointDef,
  id: OperationId,
  keyed: KeyedRequest | undefined,
  now: number,
  run: () => unknown,
): Outcome =>
  deps.db.transaction((): Outcome => {
    const kept = keyed && keptAnswer(deps.db, keyed, now);
    if (kept) return { replay: kept };
    let result: unknown;
    try {
      result = run();
    } catch (error) {
      if (error instanceof HttpError && error.keepWrites) return { refusal: error };
      throw error;
    }
    if (keyed && row.produces !== 'binary') {
      const code = row.status ?? 200;
      const data = deps.checkResponses ? checkData(row, id, result) : result;
      const response = code === 204 ? '' : envelopeJson(code, data, now).toString();
      keepAnswer(deps.db, keyed, { status: code, response }, now);
    }
    return { result };
  })();

const sendReplay = (reply: FastifyReply, answer: StoredAnswer) => {
  reply.header('idempotent-replayed', 'true');
  if (answer.status === 204) return reply.code(204).send();
  return reply.code(answer.status).type('application/json').send(answer.response);
};

const sendFile = async (reply: FastifyReply, file: BinaryAnswer) => {
  const { createReadStream } = await import('node:fs');
  // Bytes an org member uploaded: never sniffed, never rendered in the server's origin.
  return reply
    .code(200)
    .type(file.contentType)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('content-disposition', contentDisposition(file.fileName))
    .send(createReadStream(file.filePath));
};

const sendResult = (
  reply: FastifyReply,
  deps: ServerDeps,
  row: EndpointDef,
  id: OperationId,
  result: unknown,
  now: number,
) => {
  const code = row.status ?? 200;
  if (code === 204) return reply.code(204).send();
  const data = deps.checkResponses ? checkData(row, id, result) : result;
  return reply
    .code(code)
    .type('application/json')
    .send(envelopeJson(code, data, now));
};

/**
 * Binds one row of the endpoint table to a handler: auth, org, parsing of path, query and
 * body by the row's schemas, the transaction, Idempotency-Key, the envelope, and (when
 * checkResponses is on) a check of the answer against the row's `data` schema.
 */
export const createRouter = (
  app: FastifyInstance,
  deps: ServerDeps,
  registered: Set<OperationId>,
): Router => ({
  app,
  deps,
  op(id, handler, prepare) {
    const row: EndpointDef = endpoints[id];
    const paramsSchema = pathParamsSchema(row.path);
    const url = row.path.replace(/\{(\w+)\}/g, ':$1');
    registered.add(id);
    app.route({
      method: row.method,
      url,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const now = deps.clock.now();
        const ctx = callerOf(row, deps, req, now);
        const params = parseOrThrow(paramsSchema, req.params, 'path parameters');
        const query = row.query
          ? parseOrThrow(row.query, req.query ?? {}, 'query parameters')
          : undefined;
        const { body, uploads } = await bodyOf(row, req, deps);
        let outcome: Outcome;
        try {
          const keyed = keyedRequestOf(row, deps, req, ctx, { body, uploads });
          const prepared = prepare
            ? await prepare({ params, query, body, ctx, peer: req.ip } as never)
            : undefined;
          outcome = transact(deps, row, id, keyed, now, () =>
            handler({ params, query, body, ctx, prepared } as never),
          );
          if ('refusal' in outcome) throw outcome.refusal;
        } catch (error) {
          await discardUploads(uploads);
          throw error;
        }
        if ('replay' in outcome) {
          // A replayed create must not leave the second copy of the files behind.
          await discardUploads(uploads);
          return sendReplay(reply, outcome.replay);
        }
        if (row.produces === 'binary') return sendFile(reply, outcome.result as BinaryAnswer);
        return sendResult(reply, deps, row, id, outcome.result, now);
      },
    });
  },
});

/**
 * A download's Content-Disposition: the name as RFC 5987 UTF-8, plus a quoted fallback for old
 * clients that keeps only printable ASCII without quotes, backslashes or semicolons.
 */
const contentDisposition = (fileName: string): string => {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\;]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
};

/** The server's own answer must fit the contract; a mismatch is a server bug, so a 500. */
const checkData = (row: EndpointDef, id: string, result: unknown): unknown => {
  if (!row.data) return undefined;
  const parsed = row.data.safeParse(result instanceof JsonBytes ? result.parse() : result);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.')}: ${i.message}`)
      .join('; ');
    throw new HttpError(500, `answer of ${id} does not fit the contract: ${detail}`);
  }
  return result;
};
