import type { BridgeOutput } from '../../shared/bridge';

/**
 * What the tray knows about the user's timer: the bridge's `timers.active` and
 * `timers.recentTasks` answers and when they were read. The elapsed time is computed from these
 * each second, so a ticking tray never asks the engine anything.
 */
export interface ActiveTimer {
  trackId: number;
  taskId: number;
  taskTitle: string | null;
  state: 'RUNNING' | 'PAUSED';
  /** Running time when the answer was read (`observedAt`). */
  durationSeconds: number;
}

export interface RecentTaskItem {
  taskId: number;
  taskTitle: string;
}

export interface TrayTimerState {
  signedIn: boolean;
  active: ActiveTimer | null;
  /** Most recent first, at most five. */
  recent: RecentTaskItem[];
  /** Wall-clock ms of the read. */
  observedAt: number;
}

export const RECENT_LIMIT = 5;

export const signedOutState = (now: number): TrayTimerState => ({
  signedIn: false,
  active: null,
  recent: [],
  observedAt: now,
});

/** Builds the state from the two bridge answers. */
export const trayStateFrom = (
  active: BridgeOutput<'timers.active'>,
  recent: BridgeOutput<'timers.recentTasks'>,
  observedAt: number,
): TrayTimerState => {
  const a = active.active;
  const timer = a?.timer;
  return {
    signedIn: true,
    active:
      a && timer && (timer.state === 'RUNNING' || timer.state === 'PAUSED')
        ? {
            trackId: timer.trackId,
            taskId: timer.taskId,
            taskTitle: a.taskTitle,
            state: timer.state,
            durationSeconds: timer.durationSeconds,
          }
        : null,
    recent: recent.tasks
      .slice(0, RECENT_LIMIT)
      .map((t) => ({ taskId: t.taskId, taskTitle: t.taskTitle })),
    observedAt,
  };
};

/** Running seconds at `now`: a running timer grows from the read, a paused one does not. */
export const elapsedSeconds = (state: TrayTimerState, now: number): number => {
  const a = state.active;
  if (!a) return 0;
  if (a.state === 'PAUSED') return a.durationSeconds;
  return a.durationSeconds + Math.max(0, Math.floor((now - state.observedAt) / 1000));
};

/** `0:04:09`, `12:00:00`: hours are not capped (a timer left running for days shows it). */
export const formatElapsed = (seconds: number): string => {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(r).padStart(2, '0')}`;
};

/** Menu labels stay short: a long title is cut with an ellipsis. */
export const shortTitle = (title: string | null, taskId: number, max = 40): string => {
  const t = (title ?? '').trim() || `Task ${taskId}`;
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};
