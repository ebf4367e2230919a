/**
 * The held-answer test's worker: opens the engine on a data directory (an earlier run made it),
 * applies one edit and syncs until killed. The parent kills it while the server holds the
 * answer to that edit's request: committed on the server, never recorded here.
 *   node held-answer-child.mjs DATA_DIR SERVER_URL COMMAND_JSON
 */
import { openDemoEngine } from './demo-engine';

const [dataDir, serverUrl, command] = process.argv.slice(2);
if (!dataDir || !serverUrl || !command) throw new Error('usage: DATA_DIR URL COMMAND_JSON');

const { engine } = await openDemoEngine(dataDir, serverUrl, {
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
