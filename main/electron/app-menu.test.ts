import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import type { TrayAction } from '../tray/tray-menu';
import { appMenuTemplate } from './app-menu';

/** Each item as role or label (with its accelerator), separators as ---; submenus indented. */
const outline = (items: readonly MenuItemConstructorOptions[], indent = ''): string[] =>
  items.flatMap((i) => {
    const self =
      i.type === 'separator'
        ? '---'
        : `${i.role ?? i.label}${i.accelerator ? ` (${i.accelerator})` : ''}`;
    const sub = Array.isArray(i.submenu) ? outline(i.submenu, `${indent}  `) : [];
    return [`${indent}${self}`, ...sub];
  });

const settingsIn = (template: readonly MenuItemConstructorOptions[]) =>
  template.flatMap((i) =>
    Array.isArray(i.submenu) ? i.submenu.filter((s) => s.label === 'Settings…') : [],
  );

describe('Settings… in the app menu', () => {
  it('on macOS: in the app menu after About, with the standard items spelled out', () => {
    const t = appMenuTemplate({ state: 'off' }, () => {}, 'darwin');
    expect(outline(t).slice(0, 13)).toEqual([
      'appMenu',
      '  about',
      '  ---',
      '  Settings… (CmdOrCtrl+,)',
      '  ---',
      '  services',
      '  ---',
      '  hide',
      '  hideOthers',
      '  unhide',
      '  ---',
      '  quit',
      // File keeps its standard submenu (Close Window).
      'fileMenu',
    ]);
    expect(t.map((i) => i.role)).toEqual([
      'appMenu',
      'fileMenu',
      'editMenu',
      'viewMenu',
      'windowMenu',
      'help',
    ]);
    expect(settingsIn(t)).toHaveLength(1);
  });

  it.each(['linux', 'win32'] as const)('on %s: first in File, Quit kept below it', (platform) => {
    const t = appMenuTemplate({ state: 'off' }, () => {}, platform);
    expect(outline(t).slice(0, 5)).toEqual([
      'fileMenu',
      '  Settings… (CmdOrCtrl+,)',
      '  ---',
      '  quit',
      // Edit keeps its standard submenu, so copy and paste shortcuts work.
      'editMenu',
    ]);
    expect(t.some((i) => i.role === 'appMenu')).toBe(false);
    expect(settingsIn(t)).toHaveLength(1);
  });

  it.each(['darwin', 'linux'] as const)('on %s a click asks for the Settings view', (platform) => {
    const clicked: TrayAction[] = [];
    const [item] = settingsIn(appMenuTemplate({ state: 'idle' }, (a) => clicked.push(a), platform));
    (item?.click as (() => void) | undefined)?.();
    expect(clicked).toEqual([{ kind: 'open-view', view: 'settings' }]);
  });
});
