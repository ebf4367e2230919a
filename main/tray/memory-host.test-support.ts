import {
  type BridgeContract,
  BridgeError,
  bridgeContract,
  bridgeEvents,
  bridgeMethodNames,
  defaultSettings,
  type NotificationRow,
  type Settings,
  type SyncStatus,
} from '../../shared/bridge';
import type { EditCommand } from '../../shared/edits/commands';
import { type Implementation, registerBridge } from '../bridge/dispatcher';
import { localEndpoint } from '../bridge/endpoint';
import { createEventHub } from '../bridge/events';

/**
 * A host for the tray and notifier tests: the real dispatcher and event hub over the real
 * contract (so every call the controllers make, and every answer they read, is parsed by it),
 * with the timer moves of the reference server kept in memory. Methods the controllers do not
 * use answer an error.
 */
interface Timer {
  trackId: number;
  taskId: number;
  state: 'RUNNING' | 'PAUSED' | 'STOPPED';
  startTime: number;
  accumulatedMs: number;
  runningSince: number | null;
}

export const memoryHost = (now: () => number, titles: Record<number, string>) => {
  const timers: Timer[] = [];
  const applied: EditCommand[] = [];
  const notifications: NotificationRow[] = [];
  let signedIn = true;
  let nativeNotifications = true;
  let notifyKinds: Settings['notifyKinds'] = defaultSettings.notifyKinds;
  let nextTrack = 1;
  let refuse: string | null = null;
  let syncStatus: SyncStatus | null = null;
  const hub = createEventHub(bridgeEvents);

  const running = (t: Timer) =>
    t.accumulatedMs +
    (t.state === 'RUNNING' && t.runningSince !== null ? now() - t.runningSince : 0);
  const active = () => timers.find((t) => t.state !== 'STOPPED') ?? null;
  const timer = (trackId: number) => {
    const t = timers.find((x) => x.trackId === trackId);
    if (!t) throw new BridgeError({ code: 'not-found', message: `timer ${trackId}` });
    return t;
  };
  const illegal = (move: string, t: Timer) => {
    throw new BridgeError({ code: 'rejected', message: `cannot ${move} a ${t.state} timer` });
  };
  const changed = (entity: string) =>
    hub.emit('replica.changed', { entities: [entity], source: 'edit' });

  const edit = (c: EditCommand) => {
    if (refuse === c.kind)
      throw new BridgeError({ code: 'rejected', message: `${c.kind} refused` });
    applied.push(c);
    switch (c.kind) {
      case 'timer.start': {
        if (active()) throw new BridgeError({ code: 'rejected', message: 'already active' });
        const t: Timer = {
          trackId: nextTrack++,
          taskId: c.taskId,
          state: 'RUNNING',
          startTime: now(),
          accumulatedMs: 0,
          runningSince: now(),
        };
        timers.push(t);
        changed(`timer:${t.trackId}`);
        return { entityKind: 'timer', id: t.trackId, ids: [t.trackId], mutationId: applied.length };
      }
      case 'timer.pause':
      case 'timer.resume':
      case 'timer.stop':
      case 'timer.update': {
        const t = timer(c.trackId);
        if (c.kind === 'timer.pause') {
          if (t.state !== 'RUNNING') illegal('pause', t);
          Object.assign(t, { state: 'PAUSED', accumulatedMs: running(t), runningSince: null });
        } else if (c.kind === 'timer.resume') {
          if (t.state !== 'PAUSED') illegal('resume', t);
          Object.assign(t, { state: 'RUNNING', runningSince: now() });
        } else if (c.kind === 'timer.stop') {
          if (t.state === 'STOPPED') illegal('stop', t);
          Object.assign(t, { state: 'STOPPED', accumulatedMs: running(t), runningSince: null });
        } else if (c.patch.durationSeconds !== undefined) {
          t.accumulatedMs = c.patch.durationSeconds * 1000;
          if (t.state === 'RUNNING') t.runningSince = now();
        }
        changed(`timer:${t.trackId}`);
        return { entityKind: 'timer', id: t.trackId, ids: [t.trackId], mutationId: applied.length };
      }
      case 'timer.range': {
        const t: Timer = {
          trackId: nextTrack++,
          taskId: c.taskId,
          state: 'STOPPED',
          startTime: c.startTime,
          accumulatedMs: c.endTime - c.startTime,
          runningSince: null,
        };
        timers.push(t);
        changed(`timer:${t.trackId}`);
        return { entityKind: 'timer', id: t.trackId, ids: [t.trackId], mutationId: applied.length };
      }
      case 'notification.read': {
        const n = notifications.find((x) => x.notificationId === c.notificationId);
        if (n) n.read = true;
        return { entityKind: 'notification', id: c.notificationId, ids: [], mutationId: null };
      }
      default:
        throw new BridgeError({ code: 'internal', message: `${c.kind}: not in this test host` });
    }
  };

  const timerRow = (t: Timer) => ({
    trackId: t.trackId,
    taskId: t.taskId,
    userId: 1,
    state: t.state,
    startTime: t.startTime,
    durationSeconds: Math.floor(running(t) / 1000),
    sync: 'pending' as const,
  });

  const impl = Object.fromEntries(
    bridgeMethodNames.map((name) => [
      name,
      () => {
        throw new BridgeError({ code: 'internal', message: `${name}: not in this test host` });
      },
    ]),
  ) as unknown as Implementation<BridgeContract>;
  Object.assign(impl, {
    'session.state': () => ({
      signedIn,
      serverUrl: signedIn ? 'http://127.0.0.1:1' : null,
      user: signedIn ? { userId: 1, email: 'demo@example.com' } : null,
      organizations: [],
      currentOrgId: signedIn ? 1 : null,
      demo: false,
      bootstrapping: false,
    }),
    'timers.active': () => {
      const t = active();
      return {
        active: t
          ? { timer: timerRow(t), taskTitle: titles[t.taskId] ?? null, projectId: null }
          : null,
      };
    },
    'timers.recentTasks': () => {
      const seen = new Map<number, number>();
      for (const t of timers) seen.set(t.taskId, Math.max(seen.get(t.taskId) ?? 0, t.startTime));
      return {
        tasks: [...seen]
          .sort((a, b) => b[1] - a[1] || b[0] - a[0])
          .slice(0, 5)
          .map(([taskId, lastTimedAt]) => ({
            taskId,
            taskTitle: titles[taskId] ?? `Task ${taskId}`,
            projectId: null,
            lastTimedAt,
          })),
      };
    },
    'edits.apply': (c: EditCommand) => edit(c),
    'sync.status': () => (signedIn ? syncStatus : null),
    'settings.get': () => ({
      ...defaultSettings,
      globalShortcut: null,
      nativeNotifications,
      notifyKinds,
    }),
    'notifications.list': (i: { unreadOnly: boolean; offset: number; limit: number }) => {
      const items = notifications.filter((n) => !i.unreadOnly || !n.read);
      return { items: items.slice(i.offset, i.offset + i.limit), total: items.length };
    },
  } satisfies Partial<Implementation<BridgeContract>>);

  const dispatcher = registerBridge(bridgeContract, impl);
  return {
    endpoint: localEndpoint(dispatcher, hub),
    hub,
    timers,
    applied,
    notifications,
    /** Timers as the server would report them now: [taskId, state, seconds]. */
    summary: () => timers.map((t) => [t.taskId, t.state, Math.floor(running(t) / 1000)]),
    signOut: () => {
      signedIn = false;
    },
    setNativeNotifications: (on: boolean) => {
      nativeNotifications = on;
    },
    setNotifyKinds: (kinds: Settings['notifyKinds']) => {
      notifyKinds = kinds;
    },
    /** The engine's status from now on, announced as the host does (`sync.status`). */
    setSync: (status: { online: boolean; pending: number; failed: number }) => {
      syncStatus = {
        online: status.online,
        activity: 'idle',
        paused: false,
        needsSignIn: false,
        pending: status.pending,
        pendingByKind: status.pending > 0 ? { timer: status.pending } : {},
        failed: Array.from({ length: status.failed }, (_, i) => ({
          mutationId: i + 1,
          kind: 'timer',
          entity: `timer:${i + 1}`,
          state: 'failed' as const,
          error: null,
          attempts: 1,
          updatedAt: now(),
        })),
        nextRetryAt: null,
        lastSyncAt: null,
        lastError: null,
        bootstrap: null,
        notices: [],
        changesUnseen: 0,
      };
      hub.emit('sync.status', syncStatus);
    },
    refuseNext: (kind: string | null) => {
      refuse = kind;
    },
  };
};
