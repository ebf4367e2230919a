/**
 * A hostile or broken service for the tests of server-answers-*: a proxy on 127.0.0.1 port 0
 * in front of the reference server that may rewrite each JSON answer before the client sees it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ApiClient, createApiClient, signIn } from '../../sync/api';
import type { SyncEngine } from '../../sync/engine/engine-api';
import { testEngine } from '../sync/engine-setup';
import { demo } from '../sync/support';

export interface Exchange {
  method: string;
  /** Path and query as the client sent them. */
  url: URL;
  /** The status sent on: a rewrite may change it. */
  status: number;
  json: unknown;
}

/** Answers `undefined` to pass the answer on as the server sent it. */
export type Rewrite = (exchange: Exchange) => unknown;

/** An engine signed in as the demo user at `url` (org 1), through its first pull. */
export const engineOn = async (
  url: string,
  opened: { close: () => Promise<void> }[],
): Promise<{ client: ApiClient; engine: SyncEngine }> => {
  const session = await signIn(url, demo.email, demo.password);
  const client = createApiClient({ baseUrl: url, orgId: 1, session });
  const engine = testEngine(client, 'hostile-');
  opened.push({ close: () => engine.close().then(() => client.close()) });
  engine.start();
  await engine.syncNow();
  return { client, engine };
};

export interface HostileProxy {
  url: string;
  /** Requests seen, by path (without the query). */
  requests: string[];
  close: () => Promise<void>;
}

export const startProxy = async (target: string, rewrite: Rewrite): Promise<HostileProxy> => {
  const base = new URL(target);
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    requests.push(url.pathname);
    const headers = { ...req.headers, host: base.host, 'accept-encoding': 'identity' };
    const exchange: Exchange = { method: req.method ?? 'GET', url, status: 502, json: null };
    const up = http.request(url, { method: req.method, headers }, (answer) => {
      exchange.status = answer.statusCode ?? 502;
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        let body = Buffer.concat(chunks);
        const type = String(answer.headers['content-type'] ?? '');
        if (type.includes('json') && body.byteLength > 0) {
          const json: unknown = JSON.parse(body.toString('utf8'));
          exchange.json = json;
          const out = rewrite(exchange);
          if (out !== undefined) body = Buffer.from(JSON.stringify(out), 'utf8');
        }
        const h = { ...answer.headers, 'content-length': String(body.byteLength) };
        delete h['transfer-encoding'];
        res.writeHead(exchange.status, h);
        res.end(body);
      });
      answer.on('error', () => res.destroy());
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** The JSON with every null-valued member left out, at any depth (Spring's NON_NULL). */
export const stripNulls = (json: unknown): unknown => {
  if (Array.isArray(json)) return json.map(stripNulls);
  if (json === null || typeof json !== 'object') return json;
  return Object.fromEntries(
    Object.entries(json)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, stripNulls(v)]),
  );
};
