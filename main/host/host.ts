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
