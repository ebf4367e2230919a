/**
 * The held-answer test's worker: opens the engine on a data directory (an earlier run made it),
 * applies one edit and syncs until killed. The parent kills it while the server holds the
 * answer to that edit's request: committed on the server, never recorded here.
 *   node held-answer-child.mjs DATA_DIR SERVER_URL COMMAND_JSON
 */
import { createApiClient, signIn } from '../../sync/api';
import { openEngine } from '../../sync/engine/engine';

const [dataDir, serverUrl, command] = process.argv.slice(2);
if (!dataDir || !serverUrl || !command) throw new Error('usage: DATA_DIR URL COMMAND_JSON');

const session = await signIn(serverUrl, 'demo@example.com', 'demo1234');
const client = createApiClient({ baseUrl: serverUrl, orgId: 1, session });
const engine = openEngine({
  dataDir,
  client,
  userId: session.user?.userId ?? 0,
  pullIntervalMs: 3_600_000,
  backoff: { baseMs: 20, capMs: 100 },
});
engine.start();
await engine.syncNow();
engine.edit(JSON.parse(command));
console.log('EDITED');
// Sends at once; the answer never comes (the parent kills this process meanwhile).
for (;;) {
  await engine.syncNow();
  await new Promise((r) => setTimeout(r, 50));
}
