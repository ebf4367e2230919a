/**
 * A process replaying 500 edits is killed with SIGKILL at random moments, 20 times; after the
 * restarts nothing is lost and nothing is duplicated: the server ends in the state the plan
 * describes, and the replica equals the server. The server ignores Idempotency-Key, so a
 * create killed between the server's commit and our record of it must be reconciled.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/app';
import { Replica } from '../../sync/db/replica';
import { bundleForNode } from '../support/node-bundle';
import { expectedState, makePlan, PLAN_SIZE } from './crash-plan';
import { tempDir } from './support';

let server: RunningServer | undefined;

let workerScript = '';

beforeAll(async () => {
  // Bundled once: 21 launches of the worker then start in a fraction of a second each.
  // Inside the repository, so the bundle finds better-sqlite3 in node_modules.
  const outdir = join(import.meta.dirname, '../../node_modules/.cache/worktray-crash-test');
  await bundleForNode({ 'crash-child': join(import.meta.dirname, 'crash-child.ts') }, outdir);
  workerScript = join(outdir, 'crash-child.js');
  server = await startServer({
    dataDir: null,
    seed: { kind: 'demo' },
    quirks: ['ignore-idempotency-key'],
  });
});
afterAll(async () => {
  await server?.close();
});

/** Runs the worker; kills it after `killAfterMs` (or lets it finish). Resolves its output. */
const runChild = (dataDir: string, prefix: string, killAfterMs: number | null) =>
  new Promise<{ out: string; killed: boolean; code: number | null }>((resolve) => {
    // One process (not the tsx CLI, whose own child would outlive a kill).
    const p = spawn(process.execPath, [workerScript, dataDir, server?.url ?? '', prefix], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let timer: ReturnType<typeof setTimeout> | null = null;
    p.stdout.on('data', (d) => {
      out += String(d);
      // The kill is timed from the moment the worker starts working, not from its spawn.
      if (killAfterMs !== null && timer === null && out.includes('START '))
        timer = setTimeout(() => p.kill('SIGKILL'), killAfterMs);
    });
    p.stderr.on('data', (d) => {
      out += String(d);
    });
    p.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ out, killed: signal === 'SIGKILL', code });
    });
  });

const serverTasks = (prefix: string) => {
  const db = server?.deps.db;
  if (!db) throw new Error('no server');
  const tasks = db
    .prepare(
      'SELECT task_id, title, priority FROM tasks WHERE title LIKE ? AND deleted = 0 ORDER BY title',
    )
    .all(`${prefix}%`) as { task_id: number; title: string; priority: string }[];
  const checks = db.prepare(
    'SELECT name, completed FROM checklist_items WHERE task_id = ? ORDER BY name',
  );
  return tasks
    .map((t) => ({
      title: t.title,
      priority: t.priority,
      checks: (checks.all(t.task_id) as { name: string; completed: number }[]).map((c) => ({
        name: c.name,
        completed: c.completed === 1,
      })),
    }))
    .sort((a, b) => a.title.localeCompare(b.title));
};

describe('outbox crash safety', () => {
  it('loses and duplicates nothing across 20 SIGKILLs while replaying 500 edits', async () => {
    const dataDir = tempDir('crash-');
    const prefix = 'crash-';
    /** Kills that hit a worker with edits still to make or to send. */
    let killsMidWork = 0;
    // Random moments, seeded so a failure can be replayed.
    let seed = 20261122;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 20; i++) {
      const r = await runChild(dataDir, prefix, 50 + Math.floor(random() * 400));
      const started = /START (\{.*\})/.exec(r.out)?.[1];
      const at = started ? (JSON.parse(started) as { progress: number; pending: number }) : null;
      if (r.killed && at && (at.progress < PLAN_SIZE || at.pending > 0)) killsMidWork++;
      if (!r.killed && !r.out.includes('DONE')) throw new Error(`worker failed:\n${r.out}`);
    }
    const last = await runChild(dataDir, prefix, null);
    expect(last.out).toContain('DONE');
    expect(killsMidWork).toBeGreaterThanOrEqual(15);
    const want = expectedState(makePlan(prefix));
    expect(serverTasks(prefix)).toEqual(want);
    // The replica agrees with the server.
    const file = readdirSync(dataDir).find((f) => f.endsWith('.sqlite'));
    const replica = Replica.openFile(join(dataDir, file ?? 'missing'));
    try {
      const titles = (
        replica.db
          .prepare('SELECT title FROM tasks WHERE title LIKE ? ORDER BY title')
          .all(`${prefix}%`) as { title: string }[]
      ).map((t) => t.title);
      expect(titles).toEqual(want.map((t) => t.title).sort());
      const pending = replica.db.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number };
      expect(pending.n).toBe(0);
    } finally {
      replica.close();
    }
  }, 300_000);
});
