import type { AppView } from '../../shared/bridge/events';
import { syncItems, type TraySync } from './sync-line';
import {
  elapsedSeconds,
  formatElapsed,
  RECENT_LIMIT,
  shortTitle,
  type TrayTimerState,
} from './timer-state';

/**
 * The tray, as data: its title, tooltip and menu for a timer state at an instant. The Electron
 * binding only turns this into `Menu.buildFromTemplate` and maps a clicked item's action to
 * edits, so every state is tested without Electron.
 */

export type TrayAction =
  | { kind: 'pause'; trackId: number }
  | { kind: 'resume'; trackId: number }
  | { kind: 'stop'; trackId: number }
  | { kind: 'start'; taskId: number }
  /** Stop the current timer and start another task's: one user action. */
  | { kind: 'switch'; trackId: number; taskId: number }
  | { kind: 'open-app' }
  | { kind: 'open-task'; taskId: number }
  /** The window on one of its views: Sync (edits failed), Settings. */
  | { kind: 'open-view'; view: AppView }
  /** The update feed is asked now (main/services/updater.ts). */
  | { kind: 'check-updates' }
  /** Quit and install the downloaded update. */
  | { kind: 'restart-to-update' }
  | { kind: 'quit' };

export type TrayItem =
  | { type: 'label'; label: string }
  | { type: 'separator' }
  | { type: 'action'; label: string; action: TrayAction }
  | { type: 'submenu'; label: string; items: TrayItem[] };

export interface TrayView {
  /** Next to the icon where the platform shows text (macOS); empty when no timer runs. */
  title: string;
  tooltip: string;
  items: TrayItem[];
}

const APP_NAME = 'Worktray';

/** Electron reads `&` in a label as a mnemonic marker; a title's own `&` is doubled. */
export const menuLabel = (text: string) => text.replaceAll('&', '&&');

const sep: TrayItem = { type: 'separator' };

/** Settings…, in the tray and the app menu alike. */
export const settingsItem: TrayItem = {
  type: 'action',
  label: 'Settings…',
  action: { kind: 'open-view', view: 'settings' },
};

const appItems: TrayItem[] = [
  { type: 'action', label: `Open ${APP_NAME}`, action: { kind: 'open-app' } },
  settingsItem,
  { type: 'action', label: `Quit ${APP_NAME}`, action: { kind: 'quit' } },
];

/** Items and a separator before the footer; nothing when there are none. */
const block = (items: readonly TrayItem[]): TrayItem[] => (items.length > 0 ? [...items, sep] : []);

export const buildTrayView = (
  state: TrayTimerState,
  now: number,
  sync: TraySync | null = null,
  /** The update items (update-items.ts), above the footer. */
  updates: readonly TrayItem[] = [],
): TrayView => {
  const footer = [...block(updates), ...appItems];
  if (!state.signedIn) {
    return {
      title: '',
      tooltip: `${APP_NAME}: not signed in`,
      items: [{ type: 'label', label: 'Sign in to track time' }, sep, ...footer],
    };
  }
  const active = state.active;
  const others = state.recent.filter((t) => t.taskId !== active?.taskId).slice(0, RECENT_LIMIT);

  if (!active) {
    const starts: TrayItem[] = others.map((t) => ({
      type: 'action',
      label: menuLabel(shortTitle(t.taskTitle, t.taskId)),
      action: { kind: 'start', taskId: t.taskId },
    }));
    return {
      title: '',
      tooltip: `${APP_NAME}: no timer running`,
      items: [
        { type: 'label', label: 'No timer running' },
        sep,
        ...(starts.length > 0
          ? [{ type: 'label', label: 'Start a timer on' } as TrayItem, ...starts]
          : [{ type: 'label', label: 'No recent tasks' } as TrayItem]),
        sep,
        ...block(syncItems(sync)),
        ...footer,
      ],
    };
  }

  const time = formatElapsed(elapsedSeconds(state, now));
  const title = shortTitle(active.taskTitle, active.taskId);
  const running = active.state === 'RUNNING';
  const switches: TrayItem[] = others.map((t) => ({
    type: 'action',
    label: menuLabel(shortTitle(t.taskTitle, t.taskId)),
    action: { kind: 'switch', trackId: active.trackId, taskId: t.taskId },
  }));
  return {
    title: running ? time : `${time} ⏸`,
    tooltip: `${APP_NAME}: ${title} (${running ? time : `paused at ${time}`})`,
    items: [
      // The header holds no ticking time (a native menu is not redrawn each second): the title
      // and tooltip carry it.
      {
        type: 'label',
        label: menuLabel(running ? `▶ ${title}` : `⏸ ${title} (paused at ${time})`),
      },
      running
        ? { type: 'action', label: 'Pause', action: { kind: 'pause', trackId: active.trackId } }
        : { type: 'action', label: 'Resume', action: { kind: 'resume', trackId: active.trackId } },
      { type: 'action', label: 'Stop', action: { kind: 'stop', trackId: active.trackId } },
      {
        type: 'action',
        label: 'Show task',
        action: { kind: 'open-task', taskId: active.taskId },
      },
      ...(switches.length > 0
        ? [sep, { type: 'submenu', label: 'Switch task', items: switches } as TrayItem]
        : []),
      sep,
      ...block(syncItems(sync)),
      ...footer,
    ],
  };
};

/**
 * What changes the menu (everything but the ticking time): the binding rebuilds the native menu
 * when this key changes and only refreshes the title and tooltip each second.
 */
export const trayMenuKey = (
  state: TrayTimerState,
  sync: TraySync | null = null,
  updates: readonly TrayItem[] = [],
): string => JSON.stringify([state.signedIn, state.active, state.recent, sync, updates]);
