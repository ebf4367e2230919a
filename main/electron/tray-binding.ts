import path from 'node:path';
import { dialog, globalShortcut, Menu, nativeImage, powerMonitor, Tray } from 'electron';
import type { Settings } from '../../shared/bridge';
import type { AppView } from '../../shared/bridge/events';
import type { BridgeEndpoint } from '../bridge/endpoint';
import { startNotifier } from '../notify/notifier';
import { AwayController } from '../tray/away-controller';
import { awayChoices } from '../tray/away-edits';
import { callBridge, followSettings } from '../tray/bridge-calls';
import { lastWindowChoice, lastWindowQuestion, lastWindowStep } from '../tray/last-window';
import { TrayController } from '../tray/tray-controller';
import type { TrayItem } from '../tray/tray-menu';
import { menuTemplate } from '../tray/tray-template';
import {
  type DesktopLimits,
  NOTICES_FILE,
  noTrayNotice,
  noticesOnce,
  shortcutNotice,
} from './desktop-limits';
import { trayIconPng } from './tray-icon';

/**
 * The Electron side of the tray quick timer, idle questions, global shortcut and native
 * notices: each Electron API is handed to a controller that holds the logic (main/tray,
 * main/notify) and is tested without Electron.
 */
export interface ShellHooks {
  openApp(): void;
  openTask(taskId: number): void;
  openView(view: AppView): void;
  checkForUpdates(): void;
  restartToUpdate(): void;
  quit(): void;
  log(message: string): void;
  /** A native notice (native-notices.ts); `onClick` runs when the user clicks it. */
  notify(title: string, body: string, onClick?: () => void): boolean;
}

const IDLE_POLL_MS = 15_000;

const trayImage = () => {
  const variant = process.platform === 'darwin' ? trayIconPng.template : trayIconPng.color;
  const image = nativeImage.createFromBuffer(Buffer.from(variant.x1, 'base64'));
  image.addRepresentation({ scaleFactor: 2, buffer: Buffer.from(variant.x2, 'base64') });
  if (process.platform === 'darwin') image.setTemplateImage(true);
  return image;
};

export interface TrayShell {
  dispose(): void;
  /** The updater's items (update-items.ts) for the menu. */
  setUpdateItems(items: readonly TrayItem[]): void;
  /** Reads the host again and rebuilds the menu (the smoke run): what the tray now offers. */
  refreshMenu(): Promise<{ signedIn: boolean; items: readonly TrayItem[] }>;
  /** Windows has no powerMonitor `shutdown`; the window's `session-end` says it. */
  sessionEnding(): void;
  /**
   * The last window was closed: stay (in the tray), quit, or open the window again (the user
   * chose to keep the app, asked because a timer runs and there is no tray).
   */
  lastWindowClosed(): Promise<'stay' | 'quit' | 'reopen'>;
}

/** Makes the tray icon; null where it cannot be made (the controller then draws nowhere). */
const makeTray = (log: (message: string) => void): Tray | null => {
  try {
    return new Tray(trayImage());
  } catch (e) {
    log(`no tray icon: ${(e as Error).message}`);
    return null;
  }
};

export const startTrayShell = (
  endpoint: BridgeEndpoint,
  dataDir: string,
  hooks: ShellHooks,
  /** What this desktop does not give the app (desktop-limits.ts). */
  limits: DesktopLimits,
): TrayShell => {
  const tray = makeTray(hooks.log);
  const hasTray = tray !== null && limits.tray;
  const once = noticesOnce(path.join(dataDir, NOTICES_FILE));
  const notice = (n: { title: string; body: string }) => hooks.notify(n.title, n.body);
  if (!hasTray) {
    hooks.log('no tray icon on this desktop: closing the last window quits');
    once.show(noTrayNotice(limits), notice);
  }
  const showError = (message: string) => void hooks.notify('Worktray', message);
  let away: AwayController | null = null;
  const controller = new TrayController({
    endpoint,
    hooks: { ...hooks, showError },
    tray: {
      // Text beside the icon exists on macOS only (Electron's setTitle does nothing elsewhere);
      // Windows and Linux show the tooltip.
      setTitle: (title) => {
        if (process.platform === 'darwin') tray?.setTitle(title);
      },
      setToolTip: (text) => tray?.setToolTip(text),
      setMenu: (items, onAction) =>
        tray?.setContextMenu(Menu.buildFromTemplate(menuTemplate(items, onAction))),
    },
    onRead: () => void away?.atLaunch(),
  });
  away = new AwayController({
    endpoint,
    timer: controller,
    dataDir,
    idleMinutes: 5,
    idleSeconds: () => powerMonitor.getSystemIdleTime(),
    ask: async (prompt) => {
      const { response } = await dialog.showMessageBox({
        type: 'question',
        message: prompt.message,
        detail: prompt.detail,
        buttons: prompt.buttons,
        cancelId: prompt.cancelId,
        defaultId: prompt.cancelId,
        noLink: true,
      });
      return awayChoices[response] ?? 'keep';
    },
    onError: showError,
  });
  const awayRef = away;

  const ticker = setInterval(() => {
    controller.tick();
    void awayRef.tick();
  }, 1_000);
  const idlePoll = setInterval(() => void awayRef.pollIdle(), IDLE_POLL_MS);
  const onSuspend = () => awayRef.suspend();
  const onResume = () => void awayRef.resume();
  const onShutdown = () => awayRef.shutdown();
  powerMonitor.on('suspend', onSuspend);
  powerMonitor.on('resume', onResume);
  powerMonitor.on('shutdown', onShutdown);

  const stopNotifier = startNotifier({
    endpoint,
    show: (notice, onClick) => hooks.notify(notice.title, notice.body, onClick),
    openTask: hooks.openTask,
    openApp: hooks.openApp,
    onError: (m) => hooks.log(`notification: ${m}`),
  });

  let shortcut: string | null = null;
  const applySettings = (settings: Settings) => {
    awayRef.setIdleMinutes(settings.idleMinutes);
    if (settings.globalShortcut === shortcut) return;
    if (shortcut) globalShortcut.unregister(shortcut);
    shortcut = null;
    const next = settings.globalShortcut;
    if (!next) return;
    try {
      if (globalShortcut.register(next, () => void controller.toggleLast())) shortcut = next;
      else if (limits.wayland) {
        // Not "taken by another application": the desktop's portal gave none (or the user
        // declined it).
        hooks.log(`the desktop's shortcut portal did not give ${next}`);
        once.show(shortcutNotice(next, { ...limits, tray: hasTray }, process.platform), notice);
      } else hooks.log(`the global shortcut ${next} is taken by another application`);
    } catch (e) {
      hooks.log(`the global shortcut ${next} cannot be used: ${(e as Error).message}`);
    }
  };

  void controller.start();
  // Subscribed before the first read, so a change made meanwhile is not missed.
  const stopFollowing = followSettings(endpoint, applySettings, (m) => hooks.log(m));
  callBridge(endpoint, 'settings.get', {})
    .then(applySettings)
    .catch((e: unknown) => hooks.log(`settings: ${(e as Error).message}`));

  return {
    async lastWindowClosed() {
      // Without a tray, whether a timer runs decides: read it now.
      if (!hasTray) await controller.refresh();
      const step = lastWindowStep(hasTray, controller.state);
      if (step !== 'ask') return step;
      const question = lastWindowQuestion(controller.state, Date.now());
      const { response } = await dialog.showMessageBox({
        type: 'question',
        ...question,
        defaultId: question.cancelId,
        noLink: true,
      });
      const choice = lastWindowChoice(response);
      if (choice !== 'stop-and-quit') return choice;
      const active = controller.state.active;
      // An edit like any: applied here at once and sent by the outbox (now, or at next launch).
      if (active) await controller.perform({ kind: 'stop', trackId: active.trackId });
      return 'quit';
    },
    sessionEnding: onShutdown,
    setUpdateItems: (items) => controller.setUpdateItems(items),
    async refreshMenu() {
      await controller.refresh();
      return { signedIn: controller.state.signedIn, items: controller.menuItems };
    },
    dispose() {
      clearInterval(ticker);
      clearInterval(idlePoll);
      powerMonitor.off('suspend', onSuspend);
      powerMonitor.off('resume', onResume);
      powerMonitor.off('shutdown', onShutdown);
      stopFollowing();
      stopNotifier();
      controller.dispose();
      if (shortcut) globalShortcut.unregister(shortcut);
      tray?.destroy();
    },
  };
};
