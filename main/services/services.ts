import { join } from 'node:path';
import {
  type BridgeContract,
  type BridgeEvents,
  bridgeContract,
  bridgeEvents,
} from '../../shared/bridge';
import { type Dispatcher, type Implementation, registerBridge } from '../bridge/dispatcher';
import { createEventHub, type EventHub } from '../bridge/events';
import {
  activeTimerView,
  commentsView,
  notificationsList,
  openAttachment,
  recentTasks,
  timesheetView,
  unreadCountView,
} from './activity';
import type { ReadContext } from './context';
import { collectDiagnostics, logsFolder } from './diagnostics';
import { statusView } from './engine-events';
import { mapServiceError } from './errors';
import {
  boardView,
  customFieldsFor,
  projectView,
  spacesNav,
  spacesTree,
  usersList,
} from './projects';
import { type DemoLauncher, type OpenEngine, SessionService } from './session';
import { SettingsStore } from './settings-store';
import { listTasks, myTasksView, searchView, statusCountsView, taskDetailView } from './tasks';
import type { TokenVault } from './token-vault';

export interface ServicesOptions {
  /** The app's data dir: settings.json, replicas/, and (demo) the embedded server's data. */
  dataDir: string;
  vault: TokenVault;
  openEngine: OpenEngine;
  demo?: DemoLauncher;
  defaultServerUrl?: string | null;
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
    ...(options.pullIntervalMs ? { pullIntervalMs: options.pullIntervalMs } : {}),
    onBackgroundError: log,
  });

  const ctx = (): ReadContext => {
    const a = session.require();
    return {
      db: a.engine.replica.db,
      userId: a.userId,
      now: now(),
      engine: a.engine,
      filesDir: a.filesDir,
    };
  };
  const engine = () => session.require().engine;
  const status = () => statusView(engine().status());

  const impl: Implementation<BridgeContract> = {
    'session.state': () => session.state(),
    'session.signIn': (i) => session.signIn(i.serverUrl, i.email, i.password),
    'session.startDemo': () => session.startDemo(),
    'session.switchOrg': (i) => session.switchOrg(i.orgId),
    'session.signOut': () => session.signOut(),

    'sync.status': () => {
      const a = session.current;
      return a ? statusView(a.engine.status()) : null;
    },
    'sync.now': async () => {
      await engine().syncNow();
      return status();
    },
    'sync.pause': () => {
      engine().pause();
      return status();
    },
    'sync.resume': () => {
      engine().resume();
      return status();
    },
    'sync.retry': (i) => {
      engine().retry(i.mutationId, i.body as Parameters<ReturnType<typeof engine>['retry']>[1]);
      return status();
    },
    'sync.discard': (i) => {
      engine().discard(i.mutationId);
      return status();
    },
    'sync.resolveConflict': (i) => {
      engine().resolveConflict(i.mutationId, i.choice);
      return status();
    },
    'sync.dismissNotice': (i) => {
      engine().dismissNotice(i.noticeId);
      return status();
    },
    // Paused first, so the restart after the stop does not begin another pull.
    'sync.cancelBootstrap': async () => {
      const e = engine();
      e.pause();
      await e.stop();
      e.start();
      return status();
    },

    'edits.apply': (command) => engine().edit(command),

    'tasks.list': (i) => listTasks(ctx(), i),
    'tasks.detail': (i) => taskDetailView(ctx(), i.taskId),
    'tasks.search': (i) => searchView(ctx(), i),
    'tasks.myTasks': (i) => myTasksView(ctx(), i.limit),
    'tasks.statusCounts': (i) => statusCountsView(ctx(), i.scope),

    'spaces.tree': () => spacesTree(ctx()),
    'spaces.nav': () => spacesNav(ctx()),
    'projects.get': (i) => projectView(ctx(), i.projectId),
    'projects.board': (i) => boardView(ctx(), i.projectId, i.perStatus),
    'users.list': () => usersList(ctx()),
    'customFields.forScope': (i) => customFieldsFor(ctx(), i.projectId),

    'notifications.list': (i) => notificationsList(ctx(), i),
    'notifications.unreadCount': () => unreadCountView(ctx()),
    'comments.list': (i) => commentsView(ctx(), i.taskId),
    'timesheet.range': (i) => timesheetView(ctx(), i.from, i.to),
    'timers.active': () => activeTimerView(ctx()),
    'timers.recentTasks': () => recentTasks(ctx()),
    'attachments.open': (i) => openAttachment(ctx(), i, options.attachmentUrl ?? null),

    'app.diagnostics': () => {
      const a = session.current;
      return collectDiagnostics(options.dataDir, a ? statusView(a.engine.status()) : null);
    },
    'app.openLogsFolder': () => logsFolder(options.dataDir),

    'settings.get': () => settings.get(),
    'settings.set': async (patch) => {
      const next = await settings.set(patch);
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
