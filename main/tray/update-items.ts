import type { UpdateStatus } from '../services/updater';
import { menuLabel, type TrayItem } from './tray-menu';

/**
 * The update items of the tray and the app menu (main/electron/app-menu.ts): "Check for
 * updates", disabled and saying why while no feed is set, and what the last check found.
 * Null (no updater, as in tests of other items): none.
 */
export const updateItems = (status: UpdateStatus | null): TrayItem[] => {
  if (!status) return [];
  const check: TrayItem = {
    type: 'action',
    label: 'Check for updates',
    action: { kind: 'check-updates' },
  };
  const note = (text: string): TrayItem => ({ type: 'label', label: menuLabel(text) });
  switch (status.state) {
    case 'off':
      return [note('Check for updates (no update feed set)')];
    case 'idle':
      return [check];
    case 'checking':
      return [note('Checking for updates…')];
    case 'up-to-date':
      return [note(`Up to date (${status.version})`), check];
    case 'downloading': {
      const percent = status.percent === null ? '' : ` (${status.percent}%)`;
      return [note(`Downloading update ${status.version}${percent}`)];
    }
    case 'ready':
      return [
        {
          type: 'action',
          label: menuLabel(`Restart to update (${status.version})`),
          action: { kind: 'restart-to-update' },
        },
      ];
    case 'error':
      return [note(`Update check failed: ${status.message}`), check];
  }
};
