import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * What a Linux desktop does not give the app, found at launch so the app can say so and act on
 * it instead of failing quietly:
 * - On Wayland (Electron 38+ runs there natively unless told `--ozone-platform=x11`), a global
 *   shortcut is the desktop's to give, through its GlobalShortcuts portal (Chromium's
 *   `GlobalShortcutsPortal` feature, switched on before ready: KDE Plasma 6, GNOME 48+, Hyprland
 *   have one). Where `globalShortcut.register` is refused there, the app says why in words.
 * - A tray icon needs a StatusNotifierItem host on the session bus; vanilla GNOME has none (the
 *   AppIndicator extension adds one, and Ubuntu ships it on), nor, since 3.26, the old X11 tray.
 *   Electron cannot tell whether its icon appeared, so the bus is asked (`gdbus`), and where
 *   that cannot be asked, the desktop's name decides.
 * Every input is handed in, so tests play any desktop.
 */
export interface DesktopSession {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  /** `app.commandLine.getSwitchValue`: '' for a switch that is absent. */
  switchValue(name: string): string;
}

export interface DesktopLimits {
  /** Will a tray icon show? */
  tray: boolean;
  /** Which of the two the desktop is, for the notices' words. */
  wayland: boolean;
  gnome: boolean;
}

/** Runs the app's own Chromium on Wayland (not through XWayland). */
export const onNativeWayland = ({ platform, env, switchValue }: DesktopSession): boolean => {
  if (platform !== 'linux') return false;
  const chosen = switchValue('ozone-platform') || switchValue('ozone-platform-hint');
  if (chosen === 'x11') return false;
  if (chosen === 'wayland') return true;
  // `auto`, Electron's default since 38: Wayland wherever the session is one.
  return env.XDG_SESSION_TYPE === 'wayland' || Boolean(env.WAYLAND_DISPLAY);
};

const desktopsOf = (env: DesktopSession['env']) =>
  (env.XDG_CURRENT_DESKTOP ?? '')
    .split(':')
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);

/** GNOME desktops that ship a tray host (the AppIndicator extension, or a panel of their own). */
const GNOME_WITH_TRAY = ['ubuntu', 'pop', 'zorin', 'budgie', 'unity'];

export const isGnome = (session: DesktopSession): boolean =>
  session.platform === 'linux' && desktopsOf(session.env).includes('gnome');

/** Runs a program and gives its standard output (execFile); throws when it cannot. */
export type RunProgram = (file: string, args: readonly string[]) => Promise<string>;

/**
 * Is there a StatusNotifierItem host on the session bus? null when it cannot be asked (no
 * `gdbus`, no bus).
 */
export const askTrayHost = async (run: RunProgram): Promise<boolean | null> => {
  try {
    const out = await run('gdbus', [
      'call',
      '--session',
      '--dest',
      'org.freedesktop.DBus',
      '--object-path',
      '/org/freedesktop/DBus',
      '--method',
      'org.freedesktop.DBus.NameHasOwner',
      'org.kde.StatusNotifierWatcher',
    ]);
    if (/\(true,?\)/.test(out)) return true;
    if (/\(false,?\)/.test(out)) return false;
    return null;
  } catch {
    return null;
  }
};

/**
 * Will a tray icon show? Only Linux may have none. Without a StatusNotifierItem host, Chromium
 * falls back to the old X11 tray, which X11 panels other than GNOME's still show.
 */
export const trayShows = (session: DesktopSession, host: boolean | null): boolean => {
  if (session.platform !== 'linux' || host === true) return true;
  const desktops = desktopsOf(session.env);
  const gnome = desktops.includes('gnome');
  if (host === false) return !gnome && !onNativeWayland(session);
  return !gnome || desktops.some((d) => GNOME_WITH_TRAY.includes(d));
};

export const desktopLimits = (session: DesktopSession, host: boolean | null): DesktopLimits => {
  const wayland = onNativeWayland(session);
  return { tray: trayShows(session, host), wayland, gnome: isGnome(session) };
};

/** Chromium's feature that asks a Wayland desktop's portal for global shortcuts. */
export const PORTAL_SHORTCUTS = 'GlobalShortcutsPortal';

/**
 * The `enable-features` switch with the portal's feature added to what was asked for already
 * (a second switch would replace the first); on Linux only, before the app is ready.
 */
export const enableFeaturesWithPortal = (
  platform: NodeJS.Platform,
  current: string,
): string | null => {
  if (platform !== 'linux') return null;
  const features = current.split(',').filter((f) => f.trim() !== '');
  return features.includes(PORTAL_SHORTCUTS) ? null : [...features, PORTAL_SHORTCUTS].join(',');
};

/** `CommandOrControl+Alt+T` as people write it: `Ctrl+Alt+T`, or `⌘⌥T` on a Mac. */
export const acceleratorWords = (accelerator: string, platform: NodeJS.Platform): string => {
  const mac = platform === 'darwin';
  const words: Record<string, [string, string]> = {
    commandorcontrol: ['Ctrl', '⌘'],
    cmdorctrl: ['Ctrl', '⌘'],
    command: ['Super', '⌘'],
    cmd: ['Super', '⌘'],
    control: ['Ctrl', '⌃'],
    ctrl: ['Ctrl', '⌃'],
    alt: ['Alt', '⌥'],
    option: ['Alt', '⌥'],
    altgr: ['AltGr', '⌥'],
    shift: ['Shift', '⇧'],
    super: ['Super', '⌘'],
    meta: ['Super', '⌘'],
  };
  const keys = accelerator.split('+').map((k) => words[k.toLowerCase()]?.[mac ? 1 : 0] ?? k);
  return keys.join(mac ? '' : '+');
};

export interface LimitNotice {
  /** Shown once per data folder: the key is remembered. */
  key: string;
  title: string;
  body: string;
}

/**
 * The global shortcut refused on Wayland: the desktop gives none (no GlobalShortcuts portal),
 * or the user declined it; what does instead.
 */
export const shortcutNotice = (
  accelerator: string,
  limits: DesktopLimits,
  platform: NodeJS.Platform,
): LimitNotice => ({
  key: 'wayland-shortcut',
  title: `${acceleratorWords(accelerator, platform)} can't start the timer on Wayland`,
  body:
    (limits.gnome
      ? 'GNOME gives apps a shortcut from anywhere only from version 48, when you allow it. '
      : "This desktop didn't give Worktray a shortcut that works while you're in another app. ") +
    `Start and stop the timer from ${limits.tray ? 'the tray icon or ' : ''}Worktray's window; ` +
    'your shortcut is kept and tried again at the next start.',
});

/** No tray icon: where it went, and what closing the window now does. */
export const noTrayNotice = (limits: DesktopLimits): LimitNotice => ({
  key: 'no-tray',
  title: 'Worktray has no tray icon here',
  body:
    (limits.gnome
      ? 'GNOME shows tray icons only with the AppIndicator extension. '
      : "This desktop doesn't show tray icons. ") +
    'Closing the window quits Worktray; with a timer running, it asks first.',
});

const shownKeys = z.array(z.string());

/**
 * Notices shown once per data folder: the keys already shown, in a small file (outside input:
 * it passes a schema or counts as empty).
 */
export const noticesOnce = (file: string) => {
  const read = (): string[] => {
    try {
      const parsed = shownKeys.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      return parsed.success ? parsed.data : [];
    } catch {
      return [];
    }
  };
  return {
    /** Shows the notice unless it was shown before; `show` says whether it could be. */
    show(notice: LimitNotice, show: (notice: LimitNotice) => boolean): boolean {
      const shown = read();
      if (shown.includes(notice.key) || !show(notice)) return false;
      try {
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, JSON.stringify([...shown, notice.key]));
      } catch {
        // Not remembered: shown again at the next launch, which is better than never.
      }
      return true;
    },
  };
};

/** Where the app remembers the notices it showed, in its data folder. */
export const NOTICES_FILE = 'notices-shown.json';
