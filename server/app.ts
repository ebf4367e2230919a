import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type OperationId, operationIds } from '../shared/api';
import { type Clock, createClock } from './clock';
import { openDb } from './db/open';
import type { Quirk, ServerDeps } from './deps';
import { createFaults, type FaultRates, type Faults, faultRatesSchema } from './faults';
import { registerAdmin } from './http/admin';
import { apiErrorBody, HttpError } from './http/errors';
import { isLoopbackBind, isWildcardBind, registerHostGuard } from './http/host-guard';
import { createRouter } from './http/route';
import { routeModules } from './routes';
import { type Seed, seedDatabase } from './seed';

export interface ServerOptions {
  /** Data directory (database and files); null keeps the database in memory. */
  dataDir: string | null;
  faults?: FaultRates;
  admin?: boolean;
  quirks?: Quirk[];
  accessTtlSec?: number;
  refreshTtlSec?: number;
  checkResponses?: boolean;
  clock?: Clock;
  /** Host names answered beyond the loopback ones (a bind beyond loopback, --allow-host). */
  allowedHosts?: string[];
}

export interface BuiltApp {
  app: FastifyInstance;
  deps: ServerDeps;
  /** Operations of the endpoint table that have no route (must be empty). */
  missing: OperationId[];
}

// Fastify's own error codes that are the client's fault, and what they mean in the contract.
const fastifyErrorStatus: Record<string, number> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 400,
  FST_ERR_CTP_EMPTY_JSON_BODY: 400,
  FST_ERR_CTP_BODY_TOO_LARGE: 413,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 415,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 400,
  FST_INVALID_MULTIPART_CONTENT_TYPE: 415,
};

export const buildApp = async (options: ServerOptions): Promise<BuiltApp> => {
  const db = openDb(options.dataDir);
  // Without a data dir the files are as disposable as the in-memory database: the server owns
  // the temp dir and removes it when it closes (test runs start thousands of servers).
  const scratchFiles = !options.dataDir;
  const deps: ServerDeps = {
    db,
    clock: options.clock ?? createClock(),
    faults: createFaults(options.faults ?? faultRatesSchema.parse({})),
    filesDir: options.dataDir
      ? join(options.dataDir, 'files')
      : mkdtempSync(join(tmpdir(), 'wm-files-')),
    quirks: new Set(options.quirks ?? []),
    accessTtlSec: options.accessTtlSec ?? 900,
    refreshTtlSec: options.refreshTtlSec ?? 2_592_000,
    checkResponses: options.checkResponses ?? true,
  };

  const app = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 100 },
    forceCloseConnections: true,
  });
  await app.register(multipart);

  app.setErrorHandler((error, req, reply) => {
    const now = deps.clock.now();
    const path = req.url.split('?')[0] ?? req.url;
    if (error instanceof HttpError) {
      for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
      return reply
        .code(error.statusCode)
        .send(apiErrorBody(error.statusCode, error.message, path, now, error.fieldErrors));
    }
    const code = (error as { code?: string }).code ?? '';
    const status = fastifyErrorStatus[code] ?? (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) {
      process.stderr.write(
        `server error on ${req.method} ${path}: ${(error as Error).stack ?? String(error)}\n`,
      );
      return reply.code(500).send(apiErrorBody(500, 'internal server error', path, now));
    }
    const message =
      status === 400 && code.includes('JSON')
        ? 'the request body is not valid JSON'
        : (error as Error).message;
    return reply
      .code(status)
      .send(
        apiErrorBody(
          status,
          message,
          path,
          now,
          status === 400 ? [{ field: '(body)', message }] : [],
        ),
      );
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? req.url;
    reply
      .code(404)
      .send(apiErrorBody(404, `no operation at ${req.method} ${path}`, path, deps.clock.now()));
  });

  // First of all hooks: a request for a foreign Host runs nothing (no fault, no route).
  registerHostGuard(app, options.allowedHosts ?? [], () => deps.clock.now());

  // The HTTP Date is the server's clock too (tests move it): a client estimating the offset
  // from answers must not see two clocks on one answer.
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('date', new Date(deps.clock.now()).toUTCString());
    // No answer of this server is ever to be sniffed into something else (HTML from JSON).
    reply.header('x-content-type-options', 'nosniff');
    return payload;
  });
  registerFaultHooks(app, deps);
  if (options.admin) registerAdmin(app, deps);

  const registered = new Set<OperationId>();
  const router = createRouter(app, deps, registered);
  for (const register of routeModules) register(router);
  const missing = operationIds.filter((id) => !registered.has(id));
  app.addHook('onClose', async () => {
    db.close();
    if (scratchFiles) rmSync(deps.filesDir, { recursive: true, force: true });
  });
  return { app, deps, missing };
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Keeps a committed answer back until the admin route releases it. The client's connection
 * closing ends the hold too (the client died): Fastify then writes to a closed socket, which
 * sends nothing, and finishes the request as usual, so nothing stays behind.
 */
const holdAnswer = <T>(
  faults: Faults,
  req: FastifyRequest,
  reply: FastifyReply,
  payload: T,
): T | Promise<T> => {
  const res = reply.raw;
  // Gone before its answer was ready: there is nobody to hold it for.
  if (res.destroyed || req.raw.socket.destroyed) return payload;
  return new Promise<T>((resolve) => {
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      res.off('close', end);
      forget();
      resolve(payload);
    };
    const forget = faults.hold({
      release: end,
      drop: () => {
        req.raw.socket.destroy();
        end();
      },
    });
    res.once('close', end);
  });
};

const registerFaultHooks = (app: FastifyInstance, deps: ServerDeps) => {
  const dropped = new WeakSet<object>();
  const malformed = new WeakSet<object>();
  const held = new WeakSet<object>();
  const late5xx = new WeakSet<object>();
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/v1/')) return;
    // 'close' comes once the answer is sent or the connection is gone, whichever is first.
    reply.raw.once('close', deps.faults.began());
    const path = req.url.split('?')[0] ?? req.url;
    const { kind, latencyMs, retryAfterSec } = deps.faults.decide(req.method, path);
    if (latencyMs > 0) await sleep(latencyMs);
    if (kind === 'reset') {
      req.raw.socket.destroy();
      return reply.hijack();
    }
    if (kind === '5xx')
      return reply
        .code(503)
        .send(apiErrorBody(503, 'injected fault: service unavailable', path, deps.clock.now()));
    if (kind === '429')
      return reply
        .code(429)
        .header('retry-after', String(retryAfterSec))
        .send(apiErrorBody(429, 'injected fault: rate limited', path, deps.clock.now()));
    if (kind === 'gone')
      return reply
        .code(410)
        .send(
          apiErrorBody(
            410,
            'injected fault: this export can no longer be continued; start a fresh one',
            path,
            deps.clock.now(),
          ),
        );
    if (kind === 'drop') dropped.add(req);
    if (kind === 'malformed') malformed.add(req);
    if (kind === 'hold') held.add(req);
    if (kind === 'late5xx') late5xx.add(req);
  });
  app.addHook('onSend', async (req, reply, payload) => {
    if (dropped.has(req)) {
      // The handler has committed; the client never learns it.
      req.raw.socket.destroy();
      return payload;
    }
    if (malformed.has(req)) {
      if (typeof payload === 'string') return payload.slice(0, Math.floor(payload.length / 2));
      // The bulk export answers bytes.
      if (Buffer.isBuffer(payload)) return payload.subarray(0, Math.floor(payload.length / 2));
    }
    if (held.has(req)) return holdAnswer(deps.faults, req, reply, payload);
    if (late5xx.has(req)) {
      // The handler has committed; the client is told it failed.
      const path = req.url.split('?')[0] ?? req.url;
      reply.code(503).type('application/json; charset=utf-8');
      return JSON.stringify(
        apiErrorBody(503, 'injected fault: service unavailable', path, deps.clock.now()),
      );
    }
    return payload;
  });
  // Before Fastify waits for connections to end: a held answer would otherwise keep it waiting.
  app.addHook('preClose', async () => {
    deps.faults.dropHeld();
  });
};

export interface RunningServer {
  url: string;
  port: number;
  deps: ServerDeps;
  /** What seeding did, or null. */
  seeded: string | null;
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 (port 0 = any free port). */
export const startServer = async (
  options: ServerOptions & { port?: number; host?: string; seed?: Seed },
): Promise<RunningServer> => {
  const host = options.host ?? '127.0.0.1';
  // Bound to one address beyond loopback, that address is a name the server answers as.
  const allowedHosts = [
    ...(options.allowedHosts ?? []),
    ...(isLoopbackBind(host) || isWildcardBind(host)
      ? []
      : [host.includes(':') ? `[${host}]` : host]),
  ];
  const { app, deps, missing } = await buildApp({ ...options, allowedHosts });
  if (missing.length > 0) {
    await app.close();
    throw new Error(`the server has no route for: ${missing.join(', ')}`);
  }
  // Seed before listening: no client ever sees a half-seeded server.
  const seeded = options.seed ? seedDatabase(deps, options.seed) : null;
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, port, deps, seeded, close: () => app.close() };
};
