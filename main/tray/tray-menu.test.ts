import { describe, expect, it } from 'vitest';
import { signedOutState, type TrayTimerState, trayStateFrom } from './timer-state';
import { buildTrayView, type TrayItem, trayMenuKey } from './tray-menu';

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
const recent = [
  { taskId: 11, taskTitle: 'Write the release notes' },
  { taskId: 12, taskTitle: 'Review R&D budget' },
  { taskId: 13, taskTitle: 'Call the printer' },
];
const state = (active: TrayTimerState['active'], more: Partial<TrayTimerState> = {}) => ({
  signedIn: true,
  active,
  recent,
  observedAt: T0,
  ...more,
});
const running = state({
  trackId: 501,
  taskId: 11,
  taskTitle: 'Write the release notes',
  state: 'RUNNING',
  durationSeconds: 3_723,
});
const paused = state({ ...running.active!, state: 'PAUSED' });

/** The menu as readable lines: labels, `[action]` items with their action kind, `---`. */
const outline = (items: TrayItem[], indent = ''): string[] =>
  items.flatMap((item) => {
    if (item.type === 'separator') return [`${indent}---`];
    if (item.type === 'label') return [`${indent}${item.label}`];
    if (item.type === 'submenu')
      return [`${indent}${item.label} >`, ...outline(item.items, `${indent}  `)];
    return [`${indent}[${item.label}] ${JSON.stringify(item.action)}`];
  });

describe('buildTrayView', () => {
  it('signed out: asks to sign in, offers the app', () => {
    const view = buildTrayView(signedOutState(T0), T0);
    expect(view.title).toBe('');
    expect(view.tooltip).toBe('Worktray: not signed in');
    expect(outline(view.items)).toEqual([
      'Sign in to track time',
      '---',
      '[Open Worktray] {"kind":"open-app"}',
      '[Settings…] {"kind":"open-view","view":"settings"}',
      '[Quit Worktray] {"kind":"quit"}',
    ]);
  });

  it('no timer: offers to start one of the recent tasks', () => {
    const view = buildTrayView(state(null), T0 + 5_000);
    expect(view.title).toBe('');
    expect(view.tooltip).toBe('Worktray: no timer running');
    expect(outline(view.items)).toEqual([
      'No timer running',
      '---',
      'Start a timer on',
      '[Write the release notes] {"kind":"start","taskId":11}',
      '[Review R&&D budget] {"kind":"start","taskId":12}',
      '[Call the printer] {"kind":"start","taskId":13}',
      '---',
      '[Open Worktray] {"kind":"open-app"}',
      '[Settings…] {"kind":"open-view","view":"settings"}',
      '[Quit Worktray] {"kind":"quit"}',
    ]);
  });

  it('no timer and nothing timed yet', () => {
    expect(outline(buildTrayView(state(null, { recent: [] }), T0).items).slice(0, 3)).toEqual([
      'No timer running',
      '---',
      'No recent tasks',
    ]);
  });

  it('running: the elapsed time ticks in the title and tooltip; pause, stop, switch', () => {
    const view = buildTrayView(running, T0 + 17_900);
    expect(view.title).toBe('1:02:20');
    expect(view.tooltip).toBe('Worktray: Write the release notes (1:02:20)');
    expect(buildTrayView(running, T0 + 60_000).title).toBe('1:03:03');
    expect(outline(view.items)).toEqual([
      '▶ Write the release notes',
      '[Pause] {"kind":"pause","trackId":501}',
      '[Stop] {"kind":"stop","trackId":501}',
      '[Show task] {"kind":"open-task","taskId":11}',
      '---',
      'Switch task >',
      '  [Review R&&D budget] {"kind":"switch","trackId":501,"taskId":12}',
      '  [Call the printer] {"kind":"switch","trackId":501,"taskId":13}',
      '---',
      '[Open Worktray] {"kind":"open-app"}',
      '[Settings…] {"kind":"open-view","view":"settings"}',
      '[Quit Worktray] {"kind":"quit"}',
    ]);
  });

  it('paused: the time stands still; resume instead of pause', () => {
    const later = buildTrayView(paused, T0 + 3_600_000);
    expect(later.title).toBe('1:02:03 ⏸');
    expect(later.tooltip).toBe('Worktray: Write the release notes (paused at 1:02:03)');
    expect(outline(later.items).slice(0, 3)).toEqual([
      '⏸ Write the release notes (paused at 1:02:03)',
      '[Resume] {"kind":"resume","trackId":501}',
      '[Stop] {"kind":"stop","trackId":501}',
    ]);
  });

  it('running on a task that is the only recent one: no switch menu', () => {
    const only = { ...running, recent: [recent[0]!] };
    expect(outline(buildTrayView(only, T0).items)).not.toContain('Switch task >');
  });

  it('cuts long titles and names untitled tasks', () => {
    const long = state({
      trackId: 9,
      taskId: 77,
      taskTitle: 'x'.repeat(60),
      state: 'RUNNING',
      durationSeconds: 0,
    });
    expect(buildTrayView(long, T0).tooltip).toBe(`Worktray: ${'x'.repeat(39)}… (0:00:00)`);
    const untitled = state({ ...long.active!, taskTitle: '  ' });
    expect(buildTrayView(untitled, T0).tooltip).toBe('Worktray: Task 77 (0:00:00)');
  });

  it('its menu key ignores the ticking clock but not the state', () => {
    expect(trayMenuKey(running)).toBe(trayMenuKey({ ...running }));
    expect(trayMenuKey(running)).not.toBe(trayMenuKey(paused));
    expect(trayMenuKey(running)).not.toBe(trayMenuKey(state(null)));
  });
});

describe('trayStateFrom', () => {
  it('reads the bridge answers, keeping five recent tasks and only an active timer', () => {
    const timer = {
      trackId: 501,
      taskId: 11,
      userId: 1,
      state: 'RUNNING' as const,
      startTime: T0 - 3_723_000,
      durationSeconds: 3_723,
      sync: 'synced' as const,
    };
    const tasks = Array.from({ length: 7 }, (_, i) => ({
      taskId: i + 1,
      taskTitle: `T${i + 1}`,
      projectId: null,
      lastTimedAt: T0 - i,
    }));
    const s = trayStateFrom(
      { active: { timer, taskTitle: 'Write', projectId: null } },
      { tasks },
      T0,
    );
    expect(s.active).toEqual({
      trackId: 501,
      taskId: 11,
      taskTitle: 'Write',
      state: 'RUNNING',
      durationSeconds: 3_723,
    });
    expect(s.recent.map((t) => t.taskId)).toEqual([1, 2, 3, 4, 5]);
    const stopped = trayStateFrom(
      { active: { timer: { ...timer, state: 'STOPPED' }, taskTitle: 'Write', projectId: null } },
      { tasks: [] },
      T0,
    );
    expect(stopped.active).toBeNull();
  });
});
