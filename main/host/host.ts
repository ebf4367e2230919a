import { join } from 'node:path';
import { z } from 'zod';
import { type BridgeEndpoint, localEndpoint } from '../bridge/endpoint';
import { createServices, type Services } from '../services/services';
import type { OpenEngine } from '../services/session';
import type { TokenVault } from '../services/token-vault';
import { embeddedDemoServer } from './demo-server';

/** How the host is set up; crosses into the worker as `workerData`, so plain data only. */
export const hostConfig = z.object({
  /** The app's data dir (settings, replicas, the demo server's data). */
  dataDir: z.string().min(1),
  /** A real service (WORKTRAY_SERVER): offered at sign-in, and the demo is not started. */
  serverUrl: z.preprocess(
    (v) => (v === '' ? null : v),
    z.url({ protocol: /^https?$/, error: 'WORKTRAY_SERVER must be an http(s) URL' }).nullable(),
  ),
  /** Start the embedded demo on a launch with no stored session. */
  demoDefault: z.boolean(),
  pullIntervalMs: z.number().int().min(1_000).optional(),
  /** Where the UI fetches attachment content, `{id}` standing for the id (browser mode). */
  attachmentUrlTemplate: z.string().includes('{id}').optional(),
});
export type HostConfig = z.infer<typeof hostConfig>;

/**
 * The config as a sentence the user can act on when it is wrong (the worker's start-up failure
 * is shown in a dialog or on the console, so zod's JSON of issues would reach the user).
 */
export const readHostConfig = (raw: unknown): HostConfig => {
  const parsed = hostConfig.safeParse(raw);
  if (parsed.success) return parsed.data;
  const given = (key: string) =>
    typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[key] : undefined;
  const sentences = parsed.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? '');
    if (key === 'serverUrl')
      return `WORKTRAY_SERVER (or --server) is ${JSON.stringify(given(key))}, which is not an http(s) URL: set it to the address of your Work-Management service, such as https://work.example.com, or leave it empty to use the built-in demo`;
    if (key === 'dataDir')
      return 'no data folder was given: set WORKTRAY_DATA_DIR (or --data) to a folder Worktray may write to';
    return `the setting ${key || '(config)'} is not valid: ${issue.message}`;
  });
  throw new Error(`${[...new Set(sentences)].join('. ')}.`);
};

export interface Host {
  endpoint: BridgeEndpoint;
  services: Services;
  /** Resolves when the launch's session is resumed, or the demo signed in (or failed to). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export interface HostDeps {
  vault: TokenVault;
  openEngine: OpenEngine;
  log?: (message: string, error?: unknown) => void;
}

/**
 * The services and their engine, wherever they run (a worker in the app, this thread in tests):
 * resumes the last session, or on a first run starts the embedded demo and signs in.
 */
export const startHost = async (config: HostConfig, deps: HostDeps): Promise<Host> => {
  const log = deps.log ?? ((m, e) => console.error(`worktray host: ${m}`, e ?? ''));
  const demo = embeddedDemoServer(join(config.dataDir, 'demo-server'));
  const template = config.attachmentUrlTemplate;
  const services = await createServices({
    dataDir: config.dataDir,
    vault: deps.vault,
    openEngine: deps.openEngine,
    demo,
    defaultServerUrl: config.serverUrl,
    ...(config.pullIntervalMs ? { pullIntervalMs: config.pullIntervalMs } : {}),
    ...(template ? { attachmentUrl: (id) => template.replace('{id}', String(id)) } : {}),
    log,
  });
  const boot = async () => {
    if (await services.session.resume()) return;
    if (config.demoDefault && config.serverUrl === null) await services.session.startDemo();
  };
  const ready = boot().catch((e: unknown) => log('starting the session failed', e));
  return {
    endpoint: localEndpoint(services.dispatcher, services.hub),
    services,
    ready,
    async close() {
      await ready;
      await services.close();
      await demo.close();
    },
  };
};
