import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { appMenuTemplate } from '../electron/app-menu';
import type { UpdateStatus } from '../services/updater';
import { signedOutState } from './timer-state';
import { buildTrayView, type TrayAction, type TrayItem } from './tray-menu';
import { menuTemplate } from './tray-template';
import { updateItems } from './update-items';

/** "Check for updates" in the tray and the app menu, for each state of the updater. */
const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);

/** [label, enabled] of each item, as Electron will show them. */
const shown = (items: readonly TrayItem[]) =>
  menuTemplate(items, () => {}).map((i) => [i.label, i.enabled !== false]);

describe('updateItems', () => {
  it.each<[UpdateStatus, (string | boolean)[][]]>([
    [{ state: 'off' }, [['Check for updates (no update feed set)', false]]],
    [{ state: 'idle' }, [['Check for updates', true]]],
    [{ state: 'checking' }, [['Checking for updates…', false]]],
    [
      { state: 'up-to-date', version: '0.1.0' },
      [
        ['Up to date (0.1.0)', false],
        ['Check for updates', true],
      ],
    ],
    [
      { state: 'downloading', version: '0.2.0', percent: 42 },
      [['Downloading update 0.2.0 (42%)', false]],
    ],
    [{ state: 'ready', version: '0.2.0' }, [['Restart to update (0.2.0)', true]]],
    [
      { state: 'error', message: 'could not reach the update feed (ENOTFOUND)' },
      [
        ['Update check failed: could not reach the update feed (ENOTFOUND)', false],
        ['Check for updates', true],
      ],
    ],
  ])('%j', (status, expected) => {
    expect(shown(updateItems(status))).toEqual(expected);
  });

  it('the enabled items hand back their actions', () => {
    const clicked: TrayAction[] = [];
    const click = (status: UpdateStatus) => {
      const item = menuTemplate(updateItems(status), (a) => clicked.push(a)).find(
        (i) => i.enabled !== false,
      );
      (item?.click as (() => void) | undefined)?.();
    };
    click({ state: 'idle' });
    click({ state: 'ready', version: '0.2.0' });
    expect(clicked).toEqual([{ kind: 'check-updates' }, { kind: 'restart-to-update' }]);
  });
});

describe('the tray menu', () => {
  it('has the update items above its footer, signed in or not', () => {
    const view = buildTrayView(signedOutState(T0), T0, null, updateItems({ state: 'off' }));
    expect(shown(view.items).slice(-5)).toEqual([
      ['Check for updates (no update feed set)', false],
      [undefined, true],
      ['Open Worktray', true],
      ['Settings…', true],
      ['Quit Worktray', true],
    ]);
    const signedIn = buildTrayView(
      { signedIn: true, active: null, recent: [], observedAt: T0 },
      T0,
      null,
      updateItems({ state: 'idle' }),
    );
    expect(shown(signedIn.items)).toContainEqual(['Check for updates', true]);
  });
});

describe('the app menu', () => {
  const help = (t: MenuItemConstructorOptions[]) => t.find((i) => i.role === 'help');

  it('keeps the standard menus and puts "Check for updates" in Help', () => {
    const t = appMenuTemplate({ state: 'off' }, () => {}, 'linux');
    expect(t.map((i) => i.role)).toEqual([
      'fileMenu',
      'editMenu',
      'viewMenu',
      'windowMenu',
      'help',
    ]);
    const items = help(t)?.submenu as MenuItemConstructorOptions[];
    expect(items.map((i) => [i.label, i.enabled !== false])).toEqual([
      ['Check for updates (no update feed set)', false],
    ]);
    expect(appMenuTemplate({ state: 'off' }, () => {}, 'darwin')[0]?.role).toBe('appMenu');
  });

  it('enables it once a feed is set, and a click checks', () => {
    const clicked: TrayAction[] = [];
    const t = appMenuTemplate({ state: 'idle' }, (a) => clicked.push(a), 'win32');
    const item = (help(t)?.submenu as MenuItemConstructorOptions[] | undefined)?.[0];
    expect([item?.label, item?.enabled !== false]).toEqual(['Check for updates', true]);
    (item?.click as (() => void) | undefined)?.();
    expect(clicked).toEqual([{ kind: 'check-updates' }]);
  });
});
