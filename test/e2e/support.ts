import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { localEndpoint } from '../../main/bridge/endpoint';
import { createServices, type Services } from '../../main/services/services';
import { fileTokenVault } from '../../main/services/token-vault';
import { startWebBridge, type WebBridge } from '../../main/web/server';
import { type RunningServer, startServer } from '../../server/app';
import type { Seed } from '../../server/seed';
import { openEngine } from '../../sync/engine/engine';
import { tempDir } from '../sync/support';

export const repoRoot = resolve(import.meta.dirname, '../..');
export const distDir = join(repoRoot, 'renderer/dist');
export const resultsDir = join(repoRoot, 'test-results');

declare module 'vitest' {
  export interface ProvidedContext {
    /** One name per `vitest run` (vitest.config.ts), the same in every worker. */
    runId: string;
  }
}

let built: Promise<void> | null = null;

/**
 * Builds the renderer (vite, the same build as `npm run build:renderer`) once per test run:
 * files run in two workers, and two builds into one folder would pull it from under a page.
 * The first file to get here builds; the others wait for its mark. Outside a run (no run id)
 * each process builds.
 */
export const buildRenderer = (): Promise<void> => {
  built ??= buildOnce(runId());
  return built;
};

/** This run's id; none outside vitest (bench/ui.ts imports this module too). */
const runId = (): string | undefined => {
  try {
    return inject('runId');
  } catch {
    return undefined;
  }
};

const build = async () => {
  const { build } = await import('vite');
  await build({ configFile: join(repoRoot, 'renderer/vite.config.ts'), logLevel: 'error' });
};

const buildOnce = async (run: string | undefined): Promise<void> => {
  if (!run) return build();
  const mark = join(tmpdir(), `worktray-renderer-${run}.built`);
  const lock = join(tmpdir(), `worktray-renderer-${run}.lock`);
  try {
    mkdirSync(lock);
  } catch {
    // Another worker builds: its mark says when it is done; its lock gone without it, it failed.
    for (const end = Date.now() + 180_000; Date.now() < end; ) {
      if (existsSync(mark)) return;
      if (!existsSync(lock)) {
        if (existsSync(mark)) return;
        throw new Error('the renderer build of another test file failed');
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('timed out waiting for the renderer build of another test file');
  }
  try {
    await build();
    writeFileSync(mark, '');
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
};

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });

/**
 * The reference server on a port we keep, so a test can stop it (the app goes offline) and
 * start it again on the same port and database (the replica is named by the server's origin).
 */
export class ControlledServer {
  private running: RunningServer | null = null;
  readonly dataDir = tempDir('wt-e2e-server-');
  port = 0;
  constructor(private readonly seed: Seed) {}

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  get server(): RunningServer {
    if (!this.running) throw new Error('the server is stopped');
    return this.running;
  }

  async start() {
    const first = this.port === 0;
    this.running = await startServer({
      dataDir: this.dataDir,
      port: this.port,
      host: '127.0.0.1',
      admin: true,
      ...(first ? { seed: this.seed } : {}),
    });
    this.port = this.running.port;
  }

  async stop() {
    await this.running?.close();
    this.running = null;
  }

  async admin(path: string, body: unknown) {
    const res = await fetch(`${this.url}/__admin/${path}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`admin ${path}: ${res.status} ${await res.text()}`);
  }
}

export interface AppFixture {
  server: ControlledServer;
  services: Services;
  web: WebBridge;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Browser mode as `npm start` runs it (host services with the real engine, the web bridge
 * serving the built renderer), in this process, with "Try the demo" pointed at our server.
 */
export const startApp = async (
  options: {
    seed?: Seed;
    pullIntervalMs?: number;
    dataDir?: string;
    server?: ControlledServer;
  } = {},
): Promise<AppFixture> => {
  await buildRenderer();
  const server = options.server ?? new ControlledServer(options.seed ?? { kind: 'demo' });
  if (server.port === 0) await server.start();
  const dataDir = options.dataDir ?? tempDir('wt-e2e-app-');
  const services = await createServices({
    dataDir,
    vault: fileTokenVault(join(dataDir, 'session.json')),
    openEngine,
    demo: { start: async () => server.url, close: async () => {} },
    pullIntervalMs: options.pullIntervalMs ?? 2_000,
    log: () => {},
  });
  const web = await startWebBridge({
    endpoint: localEndpoint(services.dispatcher, services.hub),
    staticDir: distDir,
  });
  return {
    server,
    services,
    web,
    dataDir,
    async close() {
      await web.close();
      await services.close();
    },
  };
};

export const removeDir = (dir: string) => rmSync(dir, { recursive: true, force: true });

/** Ends what a test file started: its browser, the host, the server and their folders. */
export const stopAll = async (browser: Browser | undefined, app: AppFixture | undefined) => {
  await browser?.close();
  await app?.close();
  await app?.server.stop();
  if (app) {
    removeDir(app.dataDir);
    removeDir(app.server.dataDir);
  }
};

export const screenshot = async (page: Page, name: string) => {
  if (!existsSync(resultsDir)) mkdirSync(resultsDir, { recursive: true });
  await page.screenshot({ path: join(resultsDir, `${name}.png`) });
};

/**
 * A failed test's page, kept and told: a screenshot beside the others, and what a CI log
 * can show of it (where the app is, its panels and dialogs, what they say), so a failure
 * seen only on a loaded CI machine explains itself.
 */
export const reportFailure = async (page: Page, name: string) => {
  await screenshot(page, name).catch(() => undefined);
  const seen = await page
    .evaluate(() => {
      const say = (el: Element) =>
        `${el.tagName.toLowerCase()}[${el.getAttribute('aria-label') ?? el.getAttribute('role') ?? ''}]` +
        `${el.getAttribute('aria-busy') === 'true' ? ' busy' : ''}: ${(el.textContent ?? '').replace(/\s+/g, ' ').slice(0, 240)}`;
      const parts = [
        ...document.querySelectorAll('aside, [role="dialog"], [role="alert"], .toast'),
      ];
      const picked = [...document.querySelectorAll('[role="row"][aria-selected="true"]')].map(
        (r) => `${r.getAttribute('data-task-id')} ${(r.textContent ?? '').slice(0, 60)}`,
      );
      const focus = document.activeElement;
      return [
        `url ${location.pathname}${location.hash}; h1 ${document.querySelector('h1')?.textContent ?? '(none)'}`,
        `rows ${document.querySelectorAll('[role="row"]').length}, selected [${picked.join('; ')}]`,
        `focus ${focus?.tagName.toLowerCase()} ${focus?.getAttribute('aria-label') ?? focus?.className ?? ''}`,
        ...parts.map(say),
      ].join('\n  ');
    })
    .catch((e: unknown) => `page not readable: ${e instanceof Error ? e.message : String(e)}`);
  console.error(`failed "${name}", the page:\n  ${seen}`);
};

/** axe-core in the page: violations of WCAG A/AA rules (serious or critical ones). */
export const axe = async (page: Page) => {
  const source = (await import('node:fs')).readFileSync(
    join(repoRoot, 'node_modules/axe-core/axe.min.js'),
    'utf8',
  );
  // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') stays on.
  // Once per document: a run on every view of a session need not parse 500 KB each time.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(source);
  const result = await page.evaluate(async () => {
    const w = window as unknown as {
      axe: {
        run: (
          ctx: Document,
          opts: unknown,
        ) => Promise<{
          violations: { id: string; impact: string | null; nodes: { target: unknown }[] }[];
        }>;
      };
    };
    const r = await w.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] },
      resultTypes: ['violations'],
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)),
    }));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
};
