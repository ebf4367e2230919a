import { describe, expect, it } from 'vitest';
import { memoryHost } from './memory-host.test-support';
import { TrayController } from './tray-controller';
import type { TrayAction, TrayItem } from './tray-menu';
import { updateItems } from './update-items';

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
const titles = { 11: 'Write notes', 12: 'Review budget', 13: 'Call printer' };

const setup = () => {
  let clock = T0;
  const host = memoryHost(() => clock, titles);
  const shown = { title: '', tooltip: '', menus: 0, items: [] as TrayItem[] };
  const opened: string[] = [];
  const errors: string[] = [];
  const tray = new TrayController({
    endpoint: host.endpoint,
    now: () => clock,
    refreshDelayMs: 5,
    tray: {
      setTitle: (t) => {
        shown.title = t;
      },
      setToolTip: (t) => {
        shown.tooltip = t;
      },
      setMenu: (items) => {
        shown.menus++;
        shown.items = items;
      },
    },
    hooks: {
      openApp: () => opened.push('app'),
      openTask: (id) => opened.push(`task ${id}`),
      openView: (view) => opened.push(`view ${view}`),
      checkForUpdates: () => opened.push('check for updates'),
      restartToUpdate: () => opened.push('restart to update'),
      quit: () => opened.push('quit'),
      showError: (m) => errors.push(m),
    },
  });
  const labels = () =>
    shown.items.flatMap((i) =>
      i.type === 'submenu'
        ? [i.label, ...i.items.map((s) => `  ${'label' in s ? s.label : ''}`)]
        : 'label' in i
          ? [i.label]
          : [],
    );
  const action = (label: string): TrayAction => {
    const all = shown.items.flatMap((i) => (i.type === 'submenu' ? i.items : [i]));
    const item = all.find((i) => i.type === 'action' && i.label === label);
    if (item?.type !== 'action') throw new Error(`no menu item ${label}: ${labels()}`);
    return item.action;
  };
  return {
    host,
    tray,
    shown,
    opened,
    errors,
    labels,
    action,
    advance: (ms: number) => {
      clock += ms;
    },
  };
};

describe('TrayController over the bridge', () => {
  it('shows the update items it is given; their clicks reach the hooks', async () => {
    const s = setup();
    await s.tray.start();
    const menus = s.shown.menus;
    s.tray.setUpdateItems(updateItems({ state: 'off' }));
    expect(s.labels()).toContain('Check for updates (no update feed set)');
    s.tray.setUpdateItems(updateItems({ state: 'idle' }));
    await s.tray.perform(s.action('Check for updates'));
    s.tray.setUpdateItems(updateItems({ state: 'ready', version: '0.2.0' }));
    await s.tray.perform(s.action('Restart to update (0.2.0)'));
    expect(s.opened).toEqual(['check for updates', 'restart to update']);
    expect(s.shown.menus).toBe(menus + 3);
    // The same items again: the native menu is not rebuilt.
    s.tray.setUpdateItems(updateItems({ state: 'ready', version: '0.2.0' }));
    expect(s.shown.menus).toBe(menus + 3);
  });

  it('starts, ticks each second without calling the host, pauses, resumes, switches, stops', async () => {
    const s = setup();
    // Time two tasks so they are recent.
    for (const taskId of [13, 12]) {
      await s.host.endpoint.call('edits.apply', { kind: 'timer.start', taskId });
      await s.host.endpoint.call('edits.apply', {
        kind: 'timer.stop',
        trackId: s.host.timers.length,
      });
      s.advance(1_000);
    }
    await s.tray.start();
    expect(s.shown.tooltip).toBe('Worktray: no timer running');
    expect(s.labels()).toContain('Review budget');

    await s.tray.perform(s.action('Review budget'));
    expect(s.host.applied.at(-1)).toEqual({ kind: 'timer.start', taskId: 12 });
    expect(s.shown.title).toBe('0:00:00');

    const menus = s.shown.menus;
    let calls = 0;
    const call = s.host.endpoint.call;
    s.host.endpoint.call = (m, i) => {
      calls++;
      return call(m, i);
    };
    for (let i = 0; i < 75; i++) {
      s.advance(1_000);
      s.tray.tick();
    }
    expect(s.shown.title).toBe('0:01:15');
    expect(s.shown.tooltip).toBe('Worktray: Review budget (0:01:15)');
    expect(calls).toBe(0);
    expect(s.shown.menus).toBe(menus);

    await s.tray.perform(s.action('Pause'));
    s.advance(600_000);
    s.tray.tick();
    expect(s.shown.title).toBe('0:01:15 ⏸');
    await s.tray.perform(s.action('Resume'));
    s.advance(5_000);
    s.tray.tick();
    expect(s.shown.title).toBe('0:01:20');

    expect(s.labels()).toEqual(expect.arrayContaining(['Switch task', '  Call printer']));
    await s.tray.perform(s.action('Call printer'));
    expect(s.host.applied.slice(-2)).toEqual([
      { kind: 'timer.stop', trackId: 3 },
      { kind: 'timer.start', taskId: 13 },
    ]);
    expect(s.host.summary().slice(-2)).toEqual([
      [12, 'STOPPED', 80],
      [13, 'RUNNING', 0],
    ]);
    expect(s.shown.tooltip).toBe('Worktray: Call printer (0:00:00)');

    await s.tray.perform(s.action('Stop'));
    expect(s.shown.tooltip).toBe('Worktray: no timer running');
    expect(s.errors).toEqual([]);
    s.tray.dispose();
  });

  it('the global shortcut stops the active timer or starts the last task', async () => {
    const s = setup();
    await s.tray.start();
    await s.tray.toggleLast();
    expect(s.host.applied).toEqual([]);
    await s.host.endpoint.call('edits.apply', { kind: 'timer.start', taskId: 11 });
    await s.tray.refresh();
    await s.tray.toggleLast();
    expect(s.host.summary()).toEqual([[11, 'STOPPED', 0]]);
    await s.tray.toggleLast();
    expect(s.host.summary()).toEqual([
      [11, 'STOPPED', 0],
      [11, 'RUNNING', 0],
    ]);
  });

  it('follows changes made elsewhere (the window, a pull) from the replica events', async () => {
    const s = setup();
    await s.tray.start();
    await s.host.endpoint.call('edits.apply', { kind: 'timer.start', taskId: 11 });
    await new Promise((r) => setTimeout(r, 30));
    expect(s.shown.tooltip).toBe('Worktray: Write notes (0:00:00)');
  });

  it('a refused edit is shown and a switch whose stop fails starts nothing', async () => {
    const s = setup();
    await s.host.endpoint.call('edits.apply', { kind: 'timer.start', taskId: 11 });
    await s.host.endpoint.call('edits.apply', { kind: 'timer.stop', trackId: 1 });
    await s.host.endpoint.call('edits.apply', { kind: 'timer.start', taskId: 12 });
    await s.tray.start();
    s.host.refuseNext('timer.stop');
    await s.tray.perform(s.action('Write notes'));
    expect(s.errors).toEqual(['timer.stop refused']);
    expect(s.host.summary()).toEqual([
      [11, 'STOPPED', 0],
      [12, 'RUNNING', 0],
    ]);
  });

  it('open, show task, settings and quit go to the shell; signed out shows the sign-in line', async () => {
    const s = setup();
    await s.host.endpoint.call('edits.apply', { kind: 'timer.start', taskId: 11 });
    await s.tray.start();
    await s.tray.perform(s.action('Show task'));
    await s.tray.perform(s.action('Open Worktray'));
    await s.tray.perform(s.action('Settings…'));
    await s.tray.perform(s.action('Quit Worktray'));
    expect(s.opened).toEqual(['task 11', 'app', 'view settings', 'quit']);
    s.host.signOut();
    await s.tray.refresh();
    expect(s.labels()[0]).toBe('Sign in to track time');
    // Settings are this machine's: they open signed out too.
    await s.tray.perform(s.action('Settings…'));
    expect(s.opened.at(-1)).toBe('view settings');
  });

  it('shows the sync state beside the timer and follows the engine status events', async () => {
    const s = setup();
    await s.host.endpoint.call('edits.apply', { kind: 'timer.start', taskId: 11 });
    s.host.setSync({ online: true, pending: 0, failed: 0 });
    await s.tray.start();
    expect(s.labels()).toContain('All synced');

    s.host.setSync({ online: false, pending: 3, failed: 0 });
    await new Promise((r) => setTimeout(r, 30));
    expect(s.labels()).toContain('Offline — 3 edits waiting');
    expect(s.shown.tooltip).toBe('Worktray: Write notes (0:00:00)');

    s.host.setSync({ online: true, pending: 0, failed: 1 });
    await new Promise((r) => setTimeout(r, 30));
    expect(s.labels()).not.toContain('Offline — 3 edits waiting');
    await s.tray.perform(s.action('1 edit failed — open Sync'));
    expect(s.opened).toEqual(['view sync']);

    s.host.signOut();
    await s.tray.refresh();
    expect(s.labels()).not.toContain('1 edit failed — open Sync');
  });
});
