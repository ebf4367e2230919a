import { create } from 'zustand';
import type { BridgeInput, SessionState, Settings, SyncStatus } from '../../shared/bridge';
import { DisposableStore } from '../../shared/lifecycle';
import { bridge } from './bridge';
import { clearCache, refreshAll } from './query';

/** Where the main pane is; the task detail opens beside any list. */
export type Route =
  | { view: 'my' }
  | { view: 'personal' }
  | { view: 'project'; projectId: number; mode: 'list' | 'board' }
  | { view: 'inbox' }
  | { view: 'timesheet' }
  | { view: 'sync' }
  | { view: 'spaces' }
  | { view: 'space'; spaceId: number }
  | { view: 'settings' }
  | { view: 'search'; text: string };

interface AppState {
  session: SessionState | null;
  sessionError: string | null;
  sync: SyncStatus | null;
  settings: Settings | null;
  route: Route;
  openTaskId: number | null;
  /** Upload progress per outbox row (mutation id). */
  uploads: Record<number, { completedBytes: number; totalSize: number }>;
  paletteOpen: boolean;
  helpOpen: boolean;
  newTaskOpen: boolean;
  /** The main view has painted its first answer: secondary reads may start. */
  mainReady: boolean;
  go: (route: Route) => void;
  openTask: (taskId: number | null) => void;
  set: (patch: Partial<AppState>) => void;
}

export const useApp = create<AppState>((set) => ({
  session: null,
  sessionError: null,
  sync: null,
  settings: null,
  route: { view: 'my' },
  openTaskId: null,
  uploads: {},
  paletteOpen: false,
  helpOpen: false,
  newTaskOpen: false,
  mainReady: false,
  go: (route) => set({ route }),
  openTask: (openTaskId) =>
    set({ openTaskId: openTaskId === null ? null : currentTaskId(openTaskId) }),
  set: (patch) => set(patch),
}));

const entityIdOf = (key: string) => Number(key.slice(key.indexOf(':') + 1));

/**
 * Local task ids the server has since given ids to. The rekey event can arrive before the
 * answer of the edit that made the task (they travel apart), so an id is followed when used.
 */
const rekeyedTasks = new Map<number, number>();
export const currentTaskId = (id: number) => rekeyedTasks.get(id) ?? id;

let queuedSync: SyncStatus | null = null;
let lastSyncJson = '';

/**
 * Status events can come in bursts (an engine retrying while offline sends dozens a second):
 * the store takes at most one per frame, and none that says nothing new.
 */
function setSyncCoalesced(sync: SyncStatus) {
  const pending = queuedSync !== null;
  queuedSync = sync;
  if (pending) return;
  const flush = () => {
    const next = queuedSync;
    queuedSync = null;
    if (!next) return;
    const json = JSON.stringify(next);
    if (json === lastSyncJson) return;
    lastSyncJson = json;
    useApp.setState({ sync: next });
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(flush);
  else setTimeout(flush, 0);
}

/** Loads the session and wires every host event to the store; returns an unsubscribe. */
export function connect(): () => void {
  const b = bridge();
  const subscriptions = new DisposableStore();
  subscriptions.addRelease(
    b.on('session.changed', (session) => {
      const before = useApp.getState().session;
      useApp.setState({ session });
      if (before?.currentOrgId !== session.currentOrgId || before?.signedIn !== session.signedIn)
        clearCache({ reread: session.signedIn });
    }),
  );
  subscriptions.addRelease(b.on('sync.status', (sync) => setSyncCoalesced(sync)));
  // The tray or another window may change a setting: this window shows it at once.
  subscriptions.addRelease(b.on('settings.changed', (settings) => useApp.setState({ settings })));
  subscriptions.addRelease(
    b.on('pull.progress', (progress) => {
      const sync = useApp.getState().sync;
      if (sync && progress.mode === 'bootstrap')
        useApp.setState({ sync: { ...sync, bootstrap: progress } });
    }),
  );
  subscriptions.addRelease(b.on('replica.changed', () => refreshAll()));
  subscriptions.addRelease(
    b.on('entity.rekeyed', ({ from, to }) => {
      const { openTaskId } = useApp.getState();
      if (from.startsWith('task:')) {
        rekeyedTasks.set(entityIdOf(from), entityIdOf(to));
        if (openTaskId === entityIdOf(from)) useApp.setState({ openTaskId: entityIdOf(to) });
      }
      refreshAll();
    }),
  );
  subscriptions.addRelease(
    b.on('upload.progress', ({ mutationId, completedBytes, totalSize }) =>
      useApp.setState((s) => ({
        uploads: { ...s.uploads, [mutationId]: { completedBytes, totalSize } },
      })),
    ),
  );
  subscriptions.addRelease(
    b.on('app.navigate', ({ taskId }) => useApp.setState({ openTaskId: taskId })),
  );
  subscriptions.addRelease(
    b.on('app.openView', ({ view }) => useApp.setState({ route: { view } })),
  );
  void (async () => {
    try {
      const [session, settings] = await Promise.all([
        b.invoke('session.state', {}),
        b.invoke('settings.get', {}),
      ]);
      useApp.setState({ session, settings, sessionError: null });
      if (session.signedIn) useApp.setState({ sync: await b.invoke('sync.status', {}) });
    } catch (error) {
      useApp.setState({
        sessionError: error instanceof Error ? error.message : String(error),
      });
    }
  })();
  return () => subscriptions.dispose();
}

export async function saveSettings(patch: BridgeInput<'settings.set'>) {
  const settings = await bridge().invoke('settings.set', patch);
  useApp.setState({ settings });
}
