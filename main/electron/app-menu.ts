import type { MenuItemConstructorOptions } from 'electron';
import type { UpdateStatus } from '../services/updater';
import type { TrayAction } from '../tray/tray-menu';
import { menuTemplate } from '../tray/tray-template';
import { updateItems } from '../tray/update-items';

/**
 * The application menu: Electron's standard menus (so copy, paste, undo and their shortcuts
 * keep working) and Help with the update items the tray shows too. Data only, like the tray
 * menu; main.ts builds it with `Menu.buildFromTemplate` each time the updater's status changes.
 */
export const appMenuTemplate = (
  updates: UpdateStatus,
  onAction: (action: TrayAction) => void,
  platform: NodeJS.Platform,
): MenuItemConstructorOptions[] => [
  ...(platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
  { role: 'fileMenu' },
  { role: 'editMenu' },
  { role: 'viewMenu' },
  { role: 'windowMenu' },
  { role: 'help', submenu: menuTemplate(updateItems(updates), onAction) },
];
