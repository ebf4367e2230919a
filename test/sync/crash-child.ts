/**
 * The crash test's worker: signs in, opens the engine on a data directory, applies the plan's
 * edits from where the last (killed) run stopped, replaying as it goes, and prints DONE once
 * nothing is pending. Each edit and the plan's progress mark commit in one transaction, so a
 * SIGKILL at any moment leaves either both or neither.
 *   tsx test/sync/crash-child.ts DATA_DIR SERVER_URL PREFIX
 */

import type { EditCommand } from '../../shared/edits/commands';
import { makePlan, type PlanEdit } from './crash-plan';
import { openDemoEngine } from './demo-engine';

const [dataDir, serverUrl, prefix] = process.argv.slice(2);
if (!dataDir || !serverUrl || !prefix) throw new Error('usage: crash-child DATA_DIR URL PREFIX');

const { client, engine } = await openDemoEngine(dataDir, serverUrl, { pullIntervalMs: 2_000 });
const db = engine.replica.db;
const KEY = 'crash_test.progress';
const progress = () =>
  Number(
    (
      db.prepare('SELECT value FROM replica_info WHERE key = ?').get(KEY) as
        | { value: string }
        | undefined
    )?.value ?? 0,
  );
const setProgress = (k: number) =>
  db.prepare('INSERT OR REPLACE INTO replica_info (key, value) VALUES (?, ?)').run(KEY, String(k));

const taskId = (title: string): number => {
  const row = db.prepare('SELECT task_id FROM tasks WHERE title = ?').get(title) as
    | { task_id: number }
    | undefined;
  if (!row) throw new Error(`no task ${title} in the replica`);
  return row.task_id;
};
const checklistId = (title: string, name: string): number => {
  const row = db
    .prepare('SELECT checklist_id FROM checklist_items WHERE task_id = ? AND name = ?')
    .get(taskId(title), name) as { checklist_id: number } | undefined;
  if (!row) throw new Error(`no checklist item ${name} on ${title}`);
  return row.checklist_id;
};

const plan = makePlan(prefix);
/** The model's checklist states, so a toggle knows its target without trusting anything else. */
const done = new Map<string, boolean>();
const toCommand = (e: PlanEdit): EditCommand => {
  switch (e.op) {
    case 'create':
      return { kind: 'task.create', fields: { taskTitle: e.title } };
    case 'priority':
      return { kind: 'task.update', taskId: taskId(e.title), patch: { priority: e.priority } };
    case 'check':
      done.set(`${e.title}/${e.name}`, false);
      return { kind: 'checklist.create', taskId: taskId(e.title), name: e.name };
    case 'toggle': {
      const k = `${e.title}/${e.name}`;
      const next = !(done.get(k) ?? false);
      done.set(k, next);
      return {
        kind: 'checklist.update',
        checklistId: checklistId(e.title, e.name),
        patch: { completed: next },
      };
    }
    case 'delete':
      return { kind: 'task.delete', taskId: taskId(e.title) };
  }
};

const start = progress();
// Replay the model up to where we stopped (no edits: they are already in the replica).
for (const e of plan.slice(0, start)) {
  if (e.op === 'check') done.set(`${e.title}/${e.name}`, false);
  if (e.op === 'toggle')
    done.set(`${e.title}/${e.name}`, !(done.get(`${e.title}/${e.name}`) ?? false));
}
// The parent times its kill from here: work starts now.
console.log(`START ${JSON.stringify({ progress: start, pending: engine.status().pending })}`);
engine.start();
for (let k = start; k < plan.length; k++) {
  const e = plan[k] as PlanEdit;
  db.transaction(() => {
    engine.edit(toCommand(e));
    setProgress(k + 1);
  })();
  // A user's pace (and room for replay between edits): the kills land amid the work.
  await new Promise((r) => setTimeout(r, 8));
}
for (let i = 0; i < 200; i++) {
  await engine.syncNow();
  const s = engine.status();
  if (s.failed.length > 0) {
    console.log(`FAILED ${JSON.stringify(s.failed)}`);
    process.exit(1);
  }
  if (s.pending === 0) break;
  await new Promise((r) => setTimeout(r, 100));
}
console.log(`DONE ${JSON.stringify({ pending: engine.status().pending })}`);
await engine.close();
await client.close();
process.exit(0);
