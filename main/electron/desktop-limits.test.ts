import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  acceleratorWords,
  askTrayHost,
  type DesktopSession,
  desktopLimits,
  enableFeaturesWithPortal,
  noTrayNotice,
  noticesOnce,
  onNativeWayland,
  shortcutNotice,
  trayShows,
} from './desktop-limits';

const linux = (
  env: Record<string, string>,
  switches: Record<string, string> = {},
): DesktopSession => ({
  platform: 'linux',
  env,
  switchValue: (name) => switches[name] ?? '',
});
const gnomeWayland = linux({ XDG_SESSION_TYPE: 'wayland', XDG_CURRENT_DESKTOP: 'GNOME' });

describe('onNativeWayland', () => {
  it('a Wayland session, unless Electron is told to use X11', () => {
    expect(onNativeWayland(gnomeWayland)).toBe(true);
    expect(onNativeWayland(linux({ WAYLAND_DISPLAY: 'wayland-0' }))).toBe(true);
    expect(onNativeWayland(linux({ XDG_SESSION_TYPE: 'x11', DISPLAY: ':0' }))).toBe(false);
    expect(
      onNativeWayland(linux({ XDG_SESSION_TYPE: 'wayland' }, { 'ozone-platform': 'x11' })),
    ).toBe(false);
    expect(
      onNativeWayland(linux({ WAYLAND_DISPLAY: 'wayland-0' }, { 'ozone-platform-hint': 'x11' })),
    ).toBe(false);
    expect(onNativeWayland(linux({}, { 'ozone-platform': 'wayland' }))).toBe(true);
    expect(
      onNativeWayland(linux({ WAYLAND_DISPLAY: 'wayland-0' }, { 'ozone-platform-hint': 'auto' })),
    ).toBe(true);
  });

  it('never on macOS or Windows', () => {
    for (const platform of ['darwin', 'win32'] as const)
      expect(onNativeWayland({ ...gnomeWayland, platform })).toBe(false);
  });
});

describe('trayShows', () => {
  it('believes the session bus where it answers', () => {
    expect(trayShows(gnomeWayland, true)).toBe(true);
    expect(trayShows(linux({ XDG_CURRENT_DESKTOP: 'KDE', WAYLAND_DISPLAY: 'w' }), false)).toBe(
      false,
    );
    expect(trayShows(linux({ XDG_CURRENT_DESKTOP: 'GNOME', XDG_SESSION_TYPE: 'x11' }), false)).toBe(
      false,
    );
    // X11 panels other than GNOME's still show the old kind of tray icon.
    expect(trayShows(linux({ XDG_CURRENT_DESKTOP: 'XFCE', XDG_SESSION_TYPE: 'x11' }), false)).toBe(
      true,
    );
  });

  it('without an answer: no tray on plain GNOME, a tray on its variants and elsewhere', () => {
    expect(trayShows(gnomeWayland, null)).toBe(false);
    expect(trayShows(linux({ XDG_CURRENT_DESKTOP: 'GNOME-Classic:GNOME' }), null)).toBe(false);
    for (const desktop of ['ubuntu:GNOME', 'pop:GNOME', 'Budgie:GNOME', 'KDE', 'X-Cinnamon', ''])
      expect(trayShows(linux({ XDG_CURRENT_DESKTOP: desktop }), null), desktop).toBe(true);
    expect(trayShows({ ...gnomeWayland, platform: 'darwin' }, false)).toBe(true);
  });
});

describe('askTrayHost', () => {
  it("reads gdbus's answer; anything else is no answer", async () => {
    const calls: string[][] = [];
    const answer = (out: string) => async (file: string, args: readonly string[]) => {
      calls.push([file, ...args]);
      return out;
    };
    expect(await askTrayHost(answer('(true,)\n'))).toBe(true);
    expect(await askTrayHost(answer('(false,)\n'))).toBe(false);
    expect(await askTrayHost(answer(''))).toBeNull();
    expect(
      await askTrayHost(async () => {
        throw new Error('spawn gdbus ENOENT');
      }),
    ).toBeNull();
    expect(calls[0]).toEqual(expect.arrayContaining(['gdbus', 'org.kde.StatusNotifierWatcher']));
  });
});

describe('the notices', () => {
  it('GNOME on Wayland: a shortcut refused, no tray, each said in words', () => {
    const limits = desktopLimits(gnomeWayland, null);
    expect(limits).toEqual({ tray: false, wayland: true, gnome: true });
    const shortcut = shortcutNotice('CommandOrControl+Alt+T', limits, 'linux');
    expect(shortcut.title).toBe("Ctrl+Alt+T can't start the timer on Wayland");
    expect(shortcut.body).toContain('only from version 48');
    expect(shortcut.body).toContain("from Worktray's window");
    expect(shortcut.body).not.toContain('tray icon');
    expect(`${shortcut.title} ${shortcut.body}`).not.toMatch(/CommandOrControl|taken by/);
    const tray = noTrayNotice(limits);
    expect(tray.body).toBe(
      'GNOME shows tray icons only with the AppIndicator extension. Closing the window quits ' +
        'Worktray; with a timer running, it asks first.',
    );
    expect(shortcutNotice('Alt+F9', { ...limits, tray: true }, 'linux').body).toContain(
      "the tray icon or Worktray's window",
    );
  });

  it('an X11 desktop with a tray has no limits', () => {
    expect(desktopLimits(linux({ XDG_CURRENT_DESKTOP: 'KDE', DISPLAY: ':0' }), null)).toEqual({
      tray: true,
      wayland: false,
      gnome: false,
    });
  });

  it('writes accelerators as people do', () => {
    expect(acceleratorWords('CommandOrControl+Shift+Y', 'linux')).toBe('Ctrl+Shift+Y');
    expect(acceleratorWords('CmdOrCtrl+Alt+T', 'darwin')).toBe('⌘⌥T');
    expect(acceleratorWords('Super+F9', 'win32')).toBe('Super+F9');
  });
});

describe('noticesOnce', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'notices-once-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const notice = { key: 'no-tray', title: 'Worktray has no tray icon here', body: '…' };

  it('shows a notice once per data folder, across launches', () => {
    const file = path.join(dir, 'a', 'notices-shown.json');
    const shown: string[] = [];
    const show = (n: { key: string }) => {
      shown.push(n.key);
      return true;
    };
    expect(noticesOnce(file).show(notice, show)).toBe(true);
    expect(noticesOnce(file).show(notice, show)).toBe(false);
    expect(noticesOnce(file).show({ ...notice, key: 'wayland-shortcut' }, show)).toBe(true);
    expect(shown).toEqual(['no-tray', 'wayland-shortcut']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(['no-tray', 'wayland-shortcut']);
  });

  it('a notice that could not be shown is tried again; a damaged file counts as empty', () => {
    const file = path.join(dir, 'b.json');
    expect(noticesOnce(file).show(notice, () => false)).toBe(false);
    writeFileSync(file, '{"not":"a list"}');
    expect(noticesOnce(file).show(notice, () => true)).toBe(true);
  });
});

describe('the shortcut portal', () => {
  it('is asked for on Linux, beside the features already switched on, once', () => {
    expect(enableFeaturesWithPortal('linux', '')).toBe('GlobalShortcutsPortal');
    expect(enableFeaturesWithPortal('linux', 'WebRTCPipeWireCapturer')).toBe(
      'WebRTCPipeWireCapturer,GlobalShortcutsPortal',
    );
    expect(enableFeaturesWithPortal('linux', 'A,GlobalShortcutsPortal')).toBeNull();
    expect(enableFeaturesWithPortal('darwin', '')).toBeNull();
    expect(enableFeaturesWithPortal('win32', 'A')).toBeNull();
  });
});
