import { createHash } from 'node:crypto';
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

const idempotencyKeyPattern = /^[\x21-\x7e]{1,255}$/;
const dayMs = 24 * 60 * 60 * 1000;

const parseOrThrow = <S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: string,
): z.output<S> => {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw badRequest(`invalid ${where}`, fieldErrorsOf(parsed.error, input));
  return parsed.data;
};

const requestHash = (req: FastifyRequest, orgId: number, body: unknown): string =>
  createHash('sha256')
    .update(`${req.method} ${req.url.split('?')[0]} ${orgId}\n`)
    .update(JSON.stringify(body ?? null))
    .digest('hex');

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
        let ctx: Ctx = { userId: 0, orgId: 0, now };
        if (row.auth !== 'none') {
          const userId = authenticate(deps.db, req.headers.authorization, now);
          const orgId = resolveOrg(deps.db, userId, req.headers['x-org-id']);
          ctx = { userId, orgId, now };
        }
        const params = parseOrThrow(paramsSchema, req.params, 'path parameters');
        const query = row.query
          ? parseOrThrow(row.query, req.query ?? {}, 'query parameters')
          : undefined;

        let uploads: StoredUpload[] = [];
        let body: unknown;
        if (row.body === 'multipart') {
          uploads = await receiveUploads(req, deps);
          body = uploads;
        } else if (row.body) {
          body = parseOrThrow(row.body, req.body, 'request body');
        }

        // The extension scopes keys to a signed-in user. Sign-in and refresh have none: their
        // keys would share one space across callers (a 409 tells a key was used) and store
        // live tokens for 24 h (a replayed refresh would bypass rotation). Ignored there.
        const rawKey =
          row.method === 'POST' && row.auth !== 'none' && !deps.quirks.has('ignore-idempotency-key')
            ? req.headers['idempotency-key']
            : undefined;
        const key = Array.isArray(rawKey) ? rawKey[0] : rawKey;
        if (key !== undefined && !idempotencyKeyPattern.test(key)) {
          await discardUploads(uploads);
          throw badRequest('invalid Idempotency-Key', [
            { field: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' },
          ]);
        }
        let prepared: unknown;
        if (prepare) {
          try {
            prepared = await prepare({ params, query, body, ctx, peer: req.ip } as never);
          } catch (error) {
            await discardUploads(uploads);
            throw error;
          }
        }
        const hash =
          key === undefined
            ? ''
            : requestHash(
                req,
                ctx.orgId,
                row.body === 'multipart'
                  ? uploads.map((u) => [u.originalName, u.size, u.sha256])
                  : body,
              );
        const code = row.status ?? 200;

        type Outcome =
          | { replay: { status: number; response: string } }
          | { result: unknown }
          | { refusal: HttpError };
        let outcome: Outcome;
        try {
          outcome = deps.db.transaction((): Outcome => {
            if (key !== undefined) {
              deps.db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?').run(now - dayMs);
              const prior = deps.db
                .prepare(
                  'SELECT request_hash, status, response FROM idempotency_keys WHERE user_id = ? AND key = ?',
                )
                .get(ctx.userId, key) as
                | { request_hash: string; status: number; response: string }
                | undefined;
              if (prior) {
                if (prior.request_hash !== hash)
                  throw new HttpError(
                    409,
                    'Idempotency-Key was already used for a different request',
                  );
                return { replay: { status: prior.status, response: prior.response } };
              }
            }
            let result: unknown;
            try {
              result = handler({ params, query, body, ctx, prepared } as never);
            } catch (error) {
              if (error instanceof HttpError && error.keepWrites) return { refusal: error };
              throw error;
            }
            if (key !== undefined && row.produces !== 'binary') {
              const data = deps.checkResponses ? checkData(row, id, result) : result;
              deps.db
                .prepare(
                  'INSERT INTO idempotency_keys (user_id, key, request_hash, status, response, created_at) VALUES (?, ?, ?, ?, ?, ?)',
                )
                .run(
                  ctx.userId,
                  key,
                  hash,
                  code,
                  code === 204 ? '' : envelopeJson(code, data, now).toString(),
                  now,
                );
            }
            return { result };
          })();
        } catch (error) {
          await discardUploads(uploads);
          throw error;
        }

        if ('refusal' in outcome) {
          await discardUploads(uploads);
          throw outcome.refusal;
        }
        if ('replay' in outcome) {
          // A replayed create must not leave the second copy of the files behind.
          await discardUploads(uploads);
          reply.header('idempotent-replayed', 'true');
          if (outcome.replay.status === 204) return reply.code(204).send();
          return reply
            .code(outcome.replay.status)
            .type('application/json')
            .send(outcome.replay.response);
        }
        if (row.produces === 'binary') {
          const file = outcome.result as BinaryAnswer;
          const { createReadStream } = await import('node:fs');
          // Bytes an org member uploaded: never sniffed, never rendered in the server's origin.
          return reply
            .code(200)
            .type(file.contentType)
            .header('x-content-type-options', 'nosniff')
            .header('content-security-policy', "default-src 'none'; sandbox")
            .header('content-disposition', contentDisposition(file.fileName))
            .send(createReadStream(file.filePath));
        }
        if (code === 204) return reply.code(204).send();
        const data = deps.checkResponses ? checkData(row, id, outcome.result) : outcome.result;
        return reply
          .code(code)
          .type('application/json')
          .send(envelopeJson(code, data, now));
      },
    });
  },
});

/**
 * A download's Content-Disposition: the name as RFC 5987 UTF-8, plus a quoted fallback for old
 * clients that keeps only printable ASCII without quotes, backslashes or semicolons.
 */
export const contentDisposition = (fileName: string): string => {
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
