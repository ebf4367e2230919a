import { z } from 'zod';
import type { BridgeMethod } from '../../shared/bridge';
import type { BridgeEndpoint } from './endpoint';

const answer = z.object({ path: z.string(), opened: z.boolean() });

/** The methods whose answer names a folder the desktop opens: the logs and the data folder. */
const FOLDER_METHODS: ReadonlySet<string> = new Set<BridgeMethod>([
  'app.openLogsFolder',
  'app.openDataFolder',
]);

/**
 * The desktop's `app.openLogsFolder` and `app.openDataFolder`: the host (in its worker) makes
 * and names the folder, this side opens it in the file manager (`shell.openPath`, which answers
 * an error message or '').
 */
export const hostOpensFolders = (
  endpoint: BridgeEndpoint,
  openPath: (path: string) => Promise<string>,
): BridgeEndpoint => ({
  subscribe: (listener) => endpoint.subscribe(listener),
  async call(method, input) {
    const result = await endpoint.call(method, input);
    if (!FOLDER_METHODS.has(method) || !result.ok) return result;
    const parsed = answer.safeParse(result.value);
    if (!parsed.success) return result;
    const failure = await openPath(parsed.data.path);
    return { ok: true, value: { path: parsed.data.path, opened: failure === '' } };
  },
});
