import { join } from 'node:path';
import {
  type BridgeContract,
  type BridgeEvents,
  bridgeContract,
  bridgeEvents,
} from '../../shared/bridge';
import { doorCalls } from '../../sync/door';
import { type Dispatcher, type Implementation, registerBridge } from '../bridge/dispatcher';
import { createEventHub, type EventHub } from '../bridge/events';
import { collectDiagnostics, logsFolder } from './diagnostics';
import { mapServiceError } from './errors';
import { type DemoLauncher, type OpenEngine, SessionService } from './session';
import { SettingsStore } from './settings-store';
import type { TokenVault } from './token-vault';

export interface ServicesOptions {
  /** The app's data dir: settings.json, replicas/, and (demo) the embedded server's data. */
  dataDir: string;
  vault: TokenVault;
  openEngine: OpenEngine;
  demo?: DemoLauncher;
  defaultServerUrl?: string | null;
  /** Fixes the time between pulls (tests); otherwise the `syncIntervalSeconds` setting rules. */
  pullIntervalMs?: number;
  /** Where the UI can fetch an attachment's content (browser mode); null: it opens the path. */
  attachmentUrl?: (attachmentId: number) => string;
  now?: () => number;
  /** Host-side failures: a bug, a failed write of the session. Never carries tokens. */
  log?: (message: string, error?: unknown) => void;
}

export interface Services {
  dispatcher: Dispatcher;
  hub: EventHub<BridgeEvents>;
  session: SessionService;
  settings: SettingsStore;
  close(): Promise<void>;
}

/** Every bridge method over the session, its engine and the replica's queries. */
export const createServices = async (options: ServicesOptions): Promise<Services> => {
  const now = options.now ?? Date.now;
  const log = options.log ?? ((m, e) => console.error(`worktray host: ${m}`, e ?? ''));
  const hub = createEventHub(bridgeEvents);
  const settings = await SettingsStore.load(join(options.dataDir, 'settings.json'));
  for (const p of settings.problems) log(p);
  const session = new SessionService({
    dataDir: options.dataDir,
    vault: options.vault,
    openEngine: options.openEngine,
    hub,
    ...(options.demo ? { demo: options.demo } : {}),
    defaultServerUrl: options.defaultServerUrl ?? null,
    pullIntervalMs: () => options.pullIntervalMs || settings.get().syncIntervalSeconds * 1_000,
    now,
    ...(options.attachmentUrl ? { attachmentUrl: options.attachmentUrl } : {}),
    onBackgroundError: log,
  });

  const currentStatus = () => session.current?.door.status() ?? null;

  const impl: Implementation<BridgeContract> = {
    'session.state': () => session.state(),
    'session.signIn': (i) => session.signIn(i.serverUrl, i.email, i.password),
    'session.startDemo': () => session.startDemo(),
    'session.switchOrg': (i) => session.switchOrg(i.orgId),
    'session.signOut': () => session.signOut(),

    // Every method the engine answers, through the current org's door (not signed in: none).
    ...doorCalls(() => session.require().door),
    // Signed out, the status is null rather than a refusal.
    'sync.status': currentStatus,

    'app.diagnostics': () => collectDiagnostics(options.dataDir, currentStatus()),
    'app.openLogsFolder': () => logsFolder(options.dataDir),
    'app.openDataFolder': () => ({ path: options.dataDir, opened: false }),

    'settings.get': () => settings.get(),
    'settings.set': async (patch) => {
      const next = await settings.set(patch);
      if (patch.syncIntervalSeconds !== undefined) session.applyPullInterval();
      hub.emit('settings.changed', next);
      return next;
    },
  };

  const dispatcher = registerBridge(bridgeContract, impl, {
    mapError: mapServiceError,
    onInternalError: (method, error) => log(`${method} failed`, error),
  });
  return { dispatcher, hub, session, settings, close: () => session.close() };
};
