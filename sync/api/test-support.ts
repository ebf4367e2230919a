/**
 * Small real HTTP servers for the client's tests (node:http on 127.0.0.1, port 0): the
 * client is exercised through undici and real sockets, not a mock dispatcher.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Organization } from '../../shared/api/auth';
import { type ApiClient, createApiClient } from './client';
import { createHttp, type HttpOptions } from './http';
import { createSession, type Session, type SessionOptions, type SessionTokens } from './session';

export interface Recorded {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Handler = (
  req: Recorded,
  res: ServerResponse,
  raw: IncomingMessage,
) => void | Promise<void>;

export interface TestServer {
  url: string;
  port: number;
  requests: Recorded[];
  close(): Promise<void>;
}

export const startServer = async (handler: Handler): Promise<TestServer> => {
  const requests: Recorded[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const url = new URL(raw.url ?? '/', 'http://127.0.0.1');
      const rec: Recorded = {
        method: raw.method ?? '',
        url: raw.url ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: raw.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(rec);
      Promise.resolve(handler(rec, res, raw)).catch((e: unknown) => {
        res.statusCode = 599;
        res.end(String(e));
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
};

export const NOW = Date.parse('2025-03-01T12:00:00Z');
export const iso = (ms: number) => new Date(ms).toISOString();

export const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
};

export const ok = (res: ServerResponse, data?: unknown, status = 200) =>
  sendJson(res, status, {
    success: true,
    message: 'OK',
    code: status,
    ...(data === undefined ? {} : { data }),
    timestamp: iso(NOW),
  });

export const fail = (
  res: ServerResponse,
  status: number,
  statusName: string,
  message: string,
  extra: { errors?: { field: string; message: string }[]; headers?: Record<string, string> } = {},
) => {
  const text = JSON.stringify({
    success: false,
    message,
    code: status,
    status: statusName,
    path: '/v1/x',
    timestamp: iso(NOW),
    ...(extra.errors ? { errors: extra.errors } : {}),
  });
  res.writeHead(status, { 'content-type': 'application/json', ...extra.headers });
  res.end(text);
};

export const aTask = (taskId: number, extra: Record<string, unknown> = {}) => ({
  taskId,
  taskTitle: `Task ${taskId}`,
  status: 'To Do',
  createdTime: iso(NOW),
  ...extra,
});

export const aProject = (projectId: number, spaceId = 3) => ({
  projectId,
  spaceId,
  projectName: `P${projectId}`,
});

export const authAnswer = (n: number, orgs: Organization[] = [{ orgId: 1, orgName: 'Acme' }]) => ({
  accessToken: `access-${n}`,
  refreshToken: `refresh-token-${String(n).padStart(6, '0')}`,
  tokenType: 'Bearer',
  expiresIn: 900,
  refreshExpiresIn: 2_592_000,
  user: { userId: 7, firstName: 'Ada', email: 'ada@example.com' },
  organizations: orgs,
});

export const freshTokens = (n = 1, accessExpiresAt = NOW + 900_000): SessionTokens => ({
  accessToken: `access-${n}`,
  refreshToken: `refresh-token-${String(n).padStart(6, '0')}`,
  accessExpiresAt,
  refreshExpiresAt: NOW + 2_592_000_000,
});

/** Short timeouts: a hung test server fails a test in well under a second. */
export const fastHttp: HttpOptions = { timeouts: { connectMs: 500, headersMs: 400, bodyMs: 400 } };

export interface Harness {
  server: TestServer;
  session: Session;
  client: ApiClient;
  close(): Promise<void>;
}

/** A server, a session resumed with fresh tokens (user 7) and a client for org 1. */
export const harness = async (
  handler: Handler,
  options: Partial<SessionOptions> & { orgId?: number; http?: HttpOptions } = {},
): Promise<Harness> => {
  const server = await startServer(handler);
  const http = createHttp(options.http ?? fastHttp);
  const session = createSession(server.url, {
    tokens: freshTokens(),
    user: { userId: 7 },
    clock: () => NOW,
    ...options,
    http,
  });
  const client = createApiClient({ baseUrl: server.url, orgId: options.orgId ?? 1, session });
  return {
    server,
    session,
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
};

/** Resolves with the rejection (so tests can inspect it); fails the test when it resolves. */
export const rejection = async (p: Promise<unknown>): Promise<unknown> => {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to fail');
};
