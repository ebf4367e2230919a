import type { MenuItemConstructorOptions } from 'electron';
import type { UpdateStatus } from '../services/updater';
import { settingsItem, type TrayAction } from '../tray/tray-menu';
import { menuTemplate } from '../tray/tray-template';
import { updateItems } from '../tray/update-items';

/** The shortcut every desktop app gives its settings. */
export const SETTINGS_ACCELERATOR = 'CmdOrCtrl+,';

const settingsMenuItem = (onAction: (action: TrayAction) => void): MenuItemConstructorOptions => ({
  ...menuTemplate([settingsItem], onAction)[0],
  accelerator: SETTINGS_ACCELERATOR,
});

const sep = { type: 'separator' } as const;

/**
 * The application menu: Electron's standard menus (so copy, paste, undo, quit and their shortcuts
 * keep working), Settings… where each platform's users look for it (the app menu after About on
 * macOS, File elsewhere) and Help with the update items the tray shows too. Data only, like the
 * tray menu; updates-binding.ts builds it with `Menu.buildFromTemplate` each time the updater's
 * status changes.
 */
export const appMenuTemplate = (
  updates: UpdateStatus,
  onAction: (action: TrayAction) => void,
  platform: NodeJS.Platform,
): MenuItemConstructorOptions[] => [
  ...(platform === 'darwin'
    ? ([
        {
          // A role's own submenu is replaced by this one: the standard items, spelled out.
          role: 'appMenu',
          submenu: [
            { role: 'about' },
            sep,
            settingsMenuItem(onAction),
            sep,
            { role: 'services' },
            sep,
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            sep,
            { role: 'quit' },
          ],
        },
        { role: 'fileMenu' },
      ] satisfies MenuItemConstructorOptions[])
    : ([
        { role: 'fileMenu', submenu: [settingsMenuItem(onAction), sep, { role: 'quit' }] },
      ] satisfies MenuItemConstructorOptions[])),
  { role: 'editMenu' },
  { role: 'viewMenu' },
  { role: 'windowMenu' },
  { role: 'help', submenu: menuTemplate(updateItems(updates), onAction) },
];
