import type { MenuItemConstructorOptions } from 'electron';
import type { TrayAction, TrayItem } from './tray-menu';

const toItem = (
  item: TrayItem,
  onAction: (action: TrayAction) => void,
): MenuItemConstructorOptions => {
  if (item.type === 'separator') return { type: 'separator' };
  if (item.type === 'label') return { label: item.label, enabled: false };
  if (item.type === 'submenu') {
    return { label: item.label, submenu: menuTemplate(item.items, onAction) };
  }
  return { label: item.label, click: () => onAction(item.action) };
};

/** The tray's items as an Electron menu template; a click hands the item's action back. */
export const menuTemplate = (
  items: readonly TrayItem[],
  onAction: (action: TrayAction) => void,
): MenuItemConstructorOptions[] => items.map((item) => toItem(item, onAction));
