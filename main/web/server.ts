import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BridgeErrorCode, BridgeResponse } from '../../shared/bridge/define';
import type { BridgeEndpoint } from '../bridge/endpoint';
import { baseHeaders, openRegularFile, serveStatic, streamFile } from './static';

export interface WebBridgeOptions {
  endpoint: BridgeEndpoint;
  /** The built renderer (renderer/dist); null serves a page saying the UI is not built. */
  staticDir: string | null;
  /** The per-launch secret; a random one by default. */
  secret?: string;
  /** 0 (default): any free port. */
  port?: number;
  /** Largest call body (an upload travels as base64 in it). */
  maxBodyBytes?: number;
}

export interface WebBridge {
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  secret: string;
  /** The page to open: the origin with the secret in the query. */
  url: string;
  close(): Promise<void>;
}

export const SECRET_HEADER = 'x-worktray-secret';

const statusOf: Record<BridgeErrorCode, number> = {
  'invalid-input': 400,
  'invalid-output': 500,
  'unknown-method': 404,
  forbidden: 403,
  'not-signed-in': 401,
  unauthorized: 401,
  'not-found': 404,
  offline: 503,
  rejected: 422,
  internal: 500,
};

const sendJson = (res: ServerResponse, status: number, body: BridgeResponse) => {
  res.writeHead(status, {
    ...baseHeaders,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  res.end(JSON.stringify(body));
};

const refuse = (res: ServerResponse, code: BridgeErrorCode, message: string, status?: number) =>
  sendJson(res, status ?? statusOf[code], { ok: false, error: { code, message } });

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compared as digests of one length, so neither the bytes nor the length leak through timing. */
const sameSecret = (given: string | null, secret: Buffer): boolean =>
  given !== null && timingSafeEqual(digest(given), secret);

class BodyTooLarge extends Error {}

const readBody = async (req: IncomingMessage, max: number): Promise<string> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/**
 * Browser mode: the bridge over HTTP on 127.0.0.1. Calls are `POST /bridge/<method>` with a
 * JSON body, events one Server-Sent Events stream at `/bridge/events`, attachment content at
 * `/bridge/attachments/<id>`. Every bridge request needs the per-launch secret in a header;
 * `?secret=` counts only on the GETs a browser cannot add headers to (the EventSource stream,
 * an attachment link), never on a call. A request naming
 * another Host (DNS rebinding) or coming from another Origin is refused. The built renderer is
 * served beside it with a strict CSP.
 */
export const startWebBridge = async (options: WebBridgeOptions): Promise<WebBridge> => {
  const secret = options.secret ?? randomBytes(32).toString('base64url');
  const secretDigest = digest(secret);
  const maxBody = options.maxBodyBytes ?? 48 * 1024 * 1024;
  const streams = new Set<ServerResponse>();
  let port = 0;

  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  const events = (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, {
      ...baseHeaders,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write('retry: 2000\n\n');
    streams.add(res);
    const off = options.endpoint.subscribe((event, payload) => {
      res.write(`data: ${JSON.stringify({ event, payload })}\n\n`);
    });
    // Comments keep proxies and idle timers from closing a quiet stream.
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    const end = () => {
      clearInterval(ping);
      off();
      streams.delete(res);
    };
    req.on('close', end);
    res.on('close', end);
  };

  const call = async (req: IncomingMessage, res: ServerResponse, method: string) => {
    const type = req.headers['content-type'] ?? '';
    if (!/^application\/json\b/i.test(type))
      return refuse(res, 'invalid-input', 'a bridge call is a JSON body (application/json)', 415);
    let input: unknown;
    try {
      const text = await readBody(req, maxBody);
      input = text.trim() === '' ? {} : JSON.parse(text);
    } catch (e) {
      if (e instanceof BodyTooLarge)
        return refuse(res, 'invalid-input', `the body is larger than ${maxBody} bytes`, 413);
      return refuse(res, 'invalid-input', 'the body is not JSON');
    }
    const answer = await options.endpoint.call(method, input);
    sendJson(res, answer.ok ? 200 : statusOf[answer.error.code], answer);
  };

  const attachment = async (res: ServerResponse, id: string) => {
    const answer = await options.endpoint.call('attachments.open', { attachmentId: Number(id) });
    if (!answer.ok) return sendJson(res, statusOf[answer.error.code], answer);
    const file = answer.value as { path: string; fileName: string; contentType: string | null };
    // Opened before any header goes, so content that vanished still gets a proper answer.
    const opened = await openRegularFile(file.path);
    if (!opened) return refuse(res, 'not-found', `the content of ${file.fileName} is gone`);
    res.writeHead(200, {
      ...baseHeaders,
      'content-type': file.contentType ?? 'application/octet-stream',
      'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      // A user's file must not run as a page of this origin (an HTML or SVG attachment).
      'content-security-policy':
        "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'",
      // The browser keeps no copy: signing out must leave the account's files nowhere.
      'cache-control': 'no-store',
    });
    await streamFile(opened.handle, res);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (!allowedHosts().has(req.headers.host ?? ''))
      return refuse(res, 'forbidden', 'this host name is not served here', 421);
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const path = url.pathname;
    if (!path.startsWith('/bridge/')) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return refuse(res, 'forbidden', `${req.method} is not served here`, 405);
      return serveStatic(options.staticDir, req, res, path);
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().has(origin))
      return refuse(res, 'forbidden', `calls from ${origin} are refused`);
    const rest = path.slice('/bridge/'.length);
    const file = /^attachments\/(-?\d{1,16})$/.exec(rest);
    // The query form only where a page cannot set a header (EventSource, a link), and only for
    // reads: a secret in a URL ends up in history and logs, so it must not be able to act.
    const linkable = req.method === 'GET' && (rest === 'events' || file !== null);
    const header = req.headers[SECRET_HEADER];
    const given =
      typeof header === 'string' ? header : linkable ? url.searchParams.get('secret') : null;
    if (!sameSecret(given, secretDigest))
      return refuse(res, 'forbidden', 'missing or wrong secret: open the URL the host printed');
    if (rest === 'events' && req.method === 'GET') return events(req, res);
    if (file && req.method === 'GET') return attachment(res, file[1] ?? '');
    if (req.method !== 'POST') return refuse(res, 'forbidden', 'bridge calls are POSTs', 405);
    let method: string;
    try {
      method = decodeURIComponent(rest);
    } catch {
      return refuse(res, 'invalid-input', 'the method name is not valid URL encoding');
    }
    return call(req, res, method);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (res.headersSent) return void res.destroy();
      refuse(res, 'internal', `the host failed: ${e instanceof Error ? e.message : String(e)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port ?? 0, host: '127.0.0.1' }, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    secret,
    url: `${origin}/?secret=${encodeURIComponent(secret)}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of streams) s.end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
