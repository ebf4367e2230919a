import { z } from 'zod';
import type { BridgeEndpoint } from './endpoint';

const answer = z.object({ path: z.string(), opened: z.boolean() });

/**
 * The desktop's `app.openLogsFolder`: the host (in its worker) makes the folder and names it,
 * this side opens it in the file manager (`shell.openPath`, which answers an error message or
 * '').
 */
export const hostOpensLogsFolder = (
  endpoint: BridgeEndpoint,
  openPath: (path: string) => Promise<string>,
): BridgeEndpoint => ({
  subscribe: (listener) => endpoint.subscribe(listener),
  async call(method, input) {
    const result = await endpoint.call(method, input);
    if (method !== 'app.openLogsFolder' || !result.ok) return result;
    const parsed = answer.safeParse(result.value);
    if (!parsed.success) return result;
    const failure = await openPath(parsed.data.path);
    return { ok: true, value: { path: parsed.data.path, opened: failure === '' } };
  },
});
