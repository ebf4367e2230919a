import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { localEndpoint } from '../../main/bridge/endpoint';
import { createServices, type Services, type ServicesOptions } from '../../main/services/services';
import { fileTokenVault } from '../../main/services/token-vault';
import { SECRET_HEADER, startWebBridge, type WebBridge } from '../../main/web/server';
import type { RunningServer } from '../../server/app';
import type { BridgeInput, BridgeMethod, BridgeOutput } from '../../shared/bridge';
import type { BridgeErrorData } from '../../shared/bridge/define';
import { openEngine } from '../../sync/engine/engine';
import { startDemoServer, tempDir } from '../sync/support';

export interface BridgeFixture {
  server: RunningServer;
  services: Services;
  web: WebBridge;
  dataDir: string;
  /** POSTs a call as the page would (our Origin, the secret); answers status and envelope. */
  post(
    method: string,
    input: unknown,
    init?: { headers?: Record<string, string> },
  ): Promise<{
    status: number;
    body: { ok: true; value: unknown } | { ok: false; error: BridgeErrorData };
  }>;
  /** A call that must succeed, typed by the contract. */
  call<M extends BridgeMethod>(method: M, input: BridgeInput<M>): Promise<BridgeOutput<M>>;
  /** A call that must fail: its error. */
  fail(method: string, input: unknown): Promise<BridgeErrorData & { status: number }>;
  close(): Promise<void>;
}

/**
 * The host's services over `dataDir` as the tests open them: the real engine, a token file in
 * the folder, a long pull interval; `demoUrl` stands for the embedded demo server.
 */
export const openTestServices = (
  dataDir: string,
  demoUrl?: string,
  extra: Partial<ServicesOptions> = {},
): Promise<Services> =>
  createServices({
    dataDir,
    vault: fileTokenVault(join(dataDir, 'session.json')),
    openEngine,
    ...(demoUrl ? { demo: { start: async () => demoUrl, close: async () => {} } } : {}),
    pullIntervalMs: 600_000,
    log: () => {},
    ...extra,
  });

/** A dispatcher call that must succeed: its value. */
export const serviceCall = async (services: Services, method: string, input: unknown) => {
  const r = await services.dispatcher.call(method, input);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value as Record<string, unknown>;
};

/** The fixture, signed in as the demo user through the form (not the demo), first fill done. */
export const startSignedInFixture = async (): Promise<BridgeFixture> => {
  const f = await startBridgeFixture();
  await f.call('session.signIn', {
    serverUrl: f.server.url,
    email: 'demo@example.com',
    password: 'demo1234',
  });
  await f.call('sync.now', {});
  return f;
};

/**
 * The reference server with the demo data, the host's services with the real engine, and the
 * web binding in front of them: what browser mode runs, minus the worker thread.
 */
export const startBridgeFixture = async (
  options: { attachmentUrlTemplate?: string } = {},
): Promise<BridgeFixture> => {
  const server = await startDemoServer();
  const dataDir = tempDir('wt-bridge-');
  const services = await openTestServices(
    dataDir,
    server.url,
    options.attachmentUrlTemplate
      ? {
          attachmentUrl: (id: number) =>
            (options.attachmentUrlTemplate ?? '').replace('{id}', String(id)),
        }
      : {},
  );
  const web = await startWebBridge({
    endpoint: localEndpoint(services.dispatcher, services.hub),
    staticDir: null,
  });
  const post: BridgeFixture['post'] = async (method, input, init = {}) => {
    const res = await fetch(`${web.origin}/bridge/${method}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: web.origin,
        [SECRET_HEADER]: web.secret,
        ...init.headers,
      },
      body: JSON.stringify(input),
    });
    return {
      status: res.status,
      body: (await res.json()) as Awaited<ReturnType<BridgeFixture['post']>>['body'],
    };
  };
  return {
    server,
    services,
    web,
    dataDir,
    post,
    async call(method, input) {
      const { status, body } = await post(method, input);
      if (!body.ok) throw new Error(`${method} failed (${status}): ${JSON.stringify(body.error)}`);
      return body.value as BridgeOutput<typeof method>;
    },
    async fail(method, input) {
      const { status, body } = await post(method, input);
      if (body.ok) throw new Error(`${method} succeeded: ${JSON.stringify(body.value)}`);
      return { ...body.error, status };
    },
    async close() {
      await web.close();
      await services.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/** Collects the SSE stream's events (as the page's EventSource would receive them). */
export const openEvents = async (web: WebBridge) => {
  const controller = new AbortController();
  const res = await fetch(`${web.origin}/bridge/events?secret=${encodeURIComponent(web.secret)}`, {
    headers: { origin: web.origin },
    signal: controller.signal,
  });
  const events: { event: string; payload: unknown }[] = [];
  const reader = res.body?.getReader();
  const pump = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const chunk = await reader?.read().catch(() => ({ done: true, value: undefined }));
      if (!chunk || chunk.done) return;
      buffer += decoder.decode(chunk.value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        for (const line of block.split('\n'))
          if (line.startsWith('data: '))
            events.push(JSON.parse(line.slice(6)) as { event: string; payload: unknown });
        end = buffer.indexOf('\n\n');
      }
    }
  })();
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    events,
    async close() {
      controller.abort();
      await pump;
    },
  };
};

/** Polls until `check` answers something other than undefined/false (or times out). */
export const eventually = async <T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 10_000,
): Promise<T> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
};
