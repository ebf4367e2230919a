import { z } from 'zod';
import type { BridgeEndpoint } from './endpoint';
import { type MainSide, type MainSideTable, withMainSide } from './main-side';

const answer = z.object({ path: z.string(), opened: z.boolean() });

/**
 * The desktop's `app.openLogsFolder` and `app.openDataFolder`: the host (in its worker) makes
 * and names the folder, this side opens it in the file manager (`shell.openPath`, which answers
 * an error message or '').
 */
export const folderMethods = (openPath: (path: string) => Promise<string>): MainSideTable => {
  const open: MainSide = async (value) => {
    const parsed = answer.safeParse(value);
    if (!parsed.success) return { ok: true, value };
    const failure = await openPath(parsed.data.path);
    return { ok: true, value: { path: parsed.data.path, opened: failure === '' } };
  };
  return { 'app.openLogsFolder': open, 'app.openDataFolder': open };
};

/** The endpoint with those two methods opening their folder. */
export const hostOpensFolders = (
  endpoint: BridgeEndpoint,
  openPath: (path: string) => Promise<string>,
): BridgeEndpoint => withMainSide(endpoint, folderMethods(openPath));
