/**
 * Links that open a task: `worktray://task/123` from the operating system (the scheme the
 * installers register) and `app://task/123` from inside the app. Anything else is not a link.
 */

/** The scheme registered with the OS (electron-builder.yml `protocols`). */
export const DEEP_LINK_SCHEME = 'worktray';

const schemes = new Set([`${DEEP_LINK_SCHEME}:`, 'app:']);

export interface TaskLink {
  taskId: number;
}

export const parseDeepLink = (url: string): TaskLink | null => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (!schemes.has(parsed.protocol)) return null;
  // `worktray://task/12` has host `task`; `worktray:task/12` and `worktray:///task/12` do not.
  const segments = `${parsed.host}/${parsed.pathname}`.split('/').filter((s) => s.length > 0);
  if (segments.length !== 2 || segments[0]?.toLowerCase() !== 'task') return null;
  const id = segments[1] ?? '';
  if (!/^[1-9]\d{0,15}$/.test(id)) return null;
  const taskId = Number(id);
  return Number.isSafeInteger(taskId) ? { taskId } : null;
};

/**
 * The link a launch carries on its command line (Windows and Linux hand a clicked link to the
 * app as an argument; macOS uses `open-url` instead). The last link wins.
 */
export const deepLinkFromArgv = (argv: readonly string[]): TaskLink | null => {
  let found: TaskLink | null = null;
  for (const arg of argv) {
    if (!arg.startsWith(`${DEEP_LINK_SCHEME}:`)) continue;
    found = parseDeepLink(arg) ?? found;
  }
  return found;
};
