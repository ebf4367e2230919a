/**
 * Who the app is to the OS, settled before anything else asks: its Chromium profile (where the
 * single-instance lock lives) and, on Windows, the Application User Model ID its notices are
 * shown and labelled under.
 */

/** electron-builder.yml's `appId`; the installer gives the Start menu shortcut this ID. */
export const APP_USER_MODEL_ID = 'app.worktray.desktop';

/** The part of Electron's `app` this needs (the stand-in's in tests). */
export interface IdentityApp {
  readonly isPackaged: boolean;
  getPath(name: 'userData'): string;
  setPath(name: 'userData', path: string): void;
  setAppUserModelId(id: string): void;
}

/**
 * A run from sources gets a profile of its own beside the installed app's. Electron names the
 * profile after the package (`worktray`) when run from sources and after the product
 * (`Worktray`) when installed: one folder on a case-insensitive file system (macOS, Windows),
 * so one single-instance lock, and `npm start` quit at once while the installed app ran.
 */
export const devProfile = (userData: string): string => `${userData}-dev`;

/**
 * Call before `requestSingleInstanceLock` (the lock is taken in the profile) and before the
 * first notice. Windows shows a toast only for an app with an ID, and labels it by the
 * shortcut that carries the same one: the installed app's is the appId; a run from sources has
 * no shortcut, and Electron's advice there is the executable's path.
 */
export const settleIdentity = (
  app: IdentityApp,
  { platform, execPath }: { platform: NodeJS.Platform; execPath: string },
): void => {
  if (!app.isPackaged) app.setPath('userData', devProfile(app.getPath('userData')));
  if (platform === 'win32') app.setAppUserModelId(app.isPackaged ? APP_USER_MODEL_ID : execPath);
};
