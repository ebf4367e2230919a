/**
 * The window's own origin, `app://worktray` (app-protocol.ts serves the bundle there): what the
 * IPC binding and the permission handlers trust, and nothing else.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'worktray';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** A URL (or an origin) on `app://worktray`. */
export const isOurOrigin = (url: string): boolean => {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
};
