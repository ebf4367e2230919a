/**
 * Electron's Linux sandbox where the system blocks it. Ubuntu 23.10 and later restrict
 * unprivileged user namespaces through AppArmor (kernel.apparmor_restrict_unprivileged_userns
 * = 1), so Chromium's namespace sandbox cannot start and falls back to the setuid helper
 * `chrome-sandbox` beside the binary; in node_modules/electron/dist that helper is not owned by
 * root with mode 4755, and Electron aborts before any JavaScript runs ("The SUID sandbox helper
 * binary was found, but is not configured correctly", electron/electron#42510, #41066,
 * electron-builder#8440). The deb is not affected: its install script loads an AppArmor profile
 * for the app. `npm start` checks this before it starts Electron, and reads Electron's stderr for
 * the abort after.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What the check reads, passed in so a test can stand in for the machine. */
export interface SandboxProbe {
  platform: NodeJS.Platform;
  /** A file's text; throws when it cannot be read. */
  readFile(path: string): string;
  /** A file's owner and mode; throws when it does not exist. */
  stat(path: string): { uid: number; mode: number };
  /** A folder's entries; throws when it cannot be read. */
  readdir(path: string): string[];
}

export const hostSandboxProbe: SandboxProbe = {
  platform: process.platform,
  readFile: (path) => readFileSync(path, 'utf8'),
  stat: (path) => statSync(path),
  readdir: (path) => readdirSync(path),
};

export const RESTRICT_USERNS_SYSCTL = 'kernel.apparmor_restrict_unprivileged_userns';
const RESTRICT_USERNS_FILE = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';
const APPARMOR_PROFILES = '/etc/apparmor.d';

/** Electron's own words when its sandbox cannot start (it then dies of SIGTRAP). */
export const SANDBOX_FAILURE =
  /The SUID sandbox helper binary was found, but is not configured correctly|No usable sandbox!/;

const quote = (path: string) => (/^[\w@%+=:,./-]+$/.test(path) ? path : `'${path}'`);

/** The helper Electron falls back to: beside its binary. */
export const sandboxHelper = (binary: string): string => join(dirname(binary), 'chrome-sandbox');

/** What to run once (as root) so Electron's sandbox starts on this machine. */
export const sandboxFix = (binary: string): string => {
  const helper = quote(sandboxHelper(binary));
  return (
    `run once: sudo chown root:root ${helper} && sudo chmod 4755 ${helper} ` +
    '(again after each npm ci); or load an AppArmor profile that allows `userns,` for ' +
    `${quote(binary)}, or lift the restriction: sudo sysctl -w ${RESTRICT_USERNS_SYSCTL}=0`
  );
};

const read = (probe: SandboxProbe, path: string): string | null => {
  try {
    return probe.readFile(path);
  } catch {
    return null;
  }
};

/** A loaded-at-boot profile in /etc/apparmor.d that names the binary and allows user namespaces. */
const profileAllows = (binary: string, probe: SandboxProbe): boolean => {
  let names: string[];
  try {
    names = probe.readdir(APPARMOR_PROFILES);
  } catch {
    return false;
  }
  return names.some((name) => {
    const text = read(probe, join(APPARMOR_PROFILES, name));
    return text?.includes(binary) === true && /^\s*userns\s*,/m.test(text);
  });
};

/**
 * Null when Electron's sandbox can start with `binary`; otherwise why not (the browser-mode
 * line's head) and the fix.
 */
export const sandboxBlocked = (
  binary: string,
  probe: SandboxProbe,
): { why: string; detail: string } | null => {
  if (probe.platform !== 'linux') return null;
  if (read(probe, RESTRICT_USERNS_FILE)?.trim() !== '1') return null;
  try {
    const helper = probe.stat(sandboxHelper(binary));
    if (helper.uid === 0 && (helper.mode & 0o4000) !== 0) return null;
  } catch {
    // No helper: Electron finds no usable sandbox either.
  }
  if (profileAllows(binary, probe)) return null;
  return {
    why: "Electron's sandbox cannot start here (AppArmor restricts user namespaces)",
    detail: `${RESTRICT_USERNS_SYSCTL} is 1 and ${sandboxHelper(binary)} is not setuid root; ${sandboxFix(binary)}`,
  };
};
