import { app, Menu } from 'electron';
import type { Settings } from '../../shared/bridge';
import type { AppView } from '../../shared/bridge/events';
import type { BridgeEndpoint } from '../bridge/endpoint';
import { UpdateController, type UpdateStatus, updateNotice } from '../services/updater';
import { callBridge, followSettings } from '../tray/bridge-calls';
import type { TrayAction, TrayItem } from '../tray/tray-menu';
import { updateItems } from '../tray/update-items';
import { appMenuTemplate } from './app-menu';
import { loadElectronUpdater } from './electron-updater';

/**
 * Auto-update in the app: the feed from settings (none: off, nothing loaded), a check at launch,
 * when the feed changes and every six hours, "Check for updates" in the app menu and the tray,
 * and what a check found as a notice and a line in both menus.
 */
const CHECK_EVERY_MS = 6 * 60 * 60 * 1000;

export interface UpdatesBinding {
  /** A click on an update item (tray or app menu). */
  perform(action: TrayAction): void;
  dispose(): void;
}

export const startUpdates = ({
  endpoint,
  notify,
  showItems,
  openView,
  log,
}: {
  endpoint: BridgeEndpoint;
  notify(title: string, body: string): void;
  /** The tray's update items. */
  showItems(items: readonly TrayItem[]): void;
  /** The app menu's Settings… */
  openView(view: AppView): void;
  log(message: string): void;
}): UpdatesBinding => {
  const perform = (action: TrayAction) => {
    if (action.kind === 'check-updates') void controller.check({ userAsked: true });
    else if (action.kind === 'restart-to-update') controller.restart();
    else if (action.kind === 'open-view') openView(action.view);
  };
  const show = (status: UpdateStatus, userAsked: boolean) => {
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(appMenuTemplate(status, perform, process.platform)),
    );
    showItems(updateItems(status));
    if (status.state === 'error') log(`update check failed: ${status.message}`);
    const notice = updateNotice(status, userAsked);
    if (notice) notify(notice.title, notice.body);
  };
  const controller = new UpdateController({
    load: () => loadElectronUpdater(log),
    appVersion: app.getVersion(),
    onStatus: show,
  });
  show(controller.status, false);

  let feed: string | null = null;
  const apply = (settings: Settings) => {
    if (settings.updateFeedUrl === feed) return;
    feed = settings.updateFeedUrl;
    controller.setFeed(feed);
    void controller.check({ userAsked: false });
  };
  const stopFollowing = followSettings(endpoint, apply, log);
  callBridge(endpoint, 'settings.get', {})
    .then(apply)
    .catch((e: unknown) => log(`settings: ${(e as Error).message}`));
  const timer = setInterval(() => void controller.check({ userAsked: false }), CHECK_EVERY_MS);

  return {
    perform,
    dispose() {
      clearInterval(timer);
      stopFollowing();
    },
  };
};
