/**
 * The demo user's engine in a test's child process: signed in to the server at `serverUrl`
 * (org 1) and opened on `dataDir`, not started.
 */
import { createApiClient, signIn } from '../../sync/api';
import { openEngine } from '../../sync/engine/engine';
import type { EngineOptions } from '../../sync/engine/engine-api';

export const openDemoEngine = async (
  dataDir: string,
  serverUrl: string,
  options: Pick<EngineOptions, 'pullIntervalMs' | 'backoff'>,
) => {
  // The demo seed's user (support.ts `demo`; not imported: it would bundle the server in).
  const session = await signIn(serverUrl, 'demo@example.com', 'demo1234');
  const client = createApiClient({ baseUrl: serverUrl, orgId: 1, session });
  const engine = openEngine({ dataDir, client, userId: session.user?.userId ?? 0, ...options });
  return { client, engine };
};
