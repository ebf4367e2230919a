import type { AppUpdater } from 'electron-updater';
import type { Updater } from '../services/updater';

/**
 * electron-updater behind main/services/updater.ts's `Updater`. Loaded on the first check only
 * (a dynamic import, kept out of the bundle: it requires 'electron' itself), so an app with no
 * update feed never loads it, and tests drive the controller with a stand-in instead.
 */
export const loadElectronUpdater = async (log: (message: string) => void): Promise<Updater> => {
  const mod = (await import('electron-updater')) as typeof import('electron-updater') & {
    default?: typeof import('electron-updater');
  };
  const updater: AppUpdater = mod.autoUpdater ?? mod.default?.autoUpdater;
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = true;
  updater.logger = {
    info: () => {},
    warn: (m: unknown) => log(`updater: ${String(m)}`),
    error: (m: unknown) => log(`updater: ${String(m)}`),
  };
  // Failures reach the controller through the promises; without a listener an 'error' event
  // would throw out of the updater's own code.
  updater.on('error', () => {});
  return {
    setFeed: (url) => updater.setFeedURL({ provider: 'generic', url }),
    async check() {
      const result = await updater.checkForUpdates();
      // electron-updater skips the check outside a packaged app.
      if (!result)
        throw new Error('updates apply to the installed app only (this copy runs from a build)');
      if (!result.isUpdateAvailable) return { available: false };
      const download = result.downloadPromise;
      return {
        available: true,
        version: result.updateInfo.version,
        downloaded: download
          ? download.then(() => undefined)
          : Promise.reject(new Error('the download did not start')),
      };
    },
    onProgress: (listener) => {
      updater.on('download-progress', (progress) => listener(progress.percent));
    },
    restart: () => updater.quitAndInstall(),
  };
};
