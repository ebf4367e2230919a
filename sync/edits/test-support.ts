/** A seeded replica in a temp dir, and the context of edits made on it, for the edits' tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BulkTask } from '../../shared/api';
import { serverDataTables } from '../db/migrations';
import type { Sqlite } from '../db/open';
import { bulkItems, NOW, seedReplica } from '../db/queries/read.fixture';
import { Replica } from '../db/replica';
import { allMutations, type QueuedMutation } from '../outbox';
import { applyEdit, type EditContext } from '.';

export interface EditFixture {
  dir: string;
  replica: Replica;
  db: Sqlite;
  ctx: EditContext;
  /** Applies an edit at `ctx.now` (or `at`). */
  edit(command: unknown, at?: number): ReturnType<typeof applyEdit>;
  rows(): QueuedMutation[];
  close(): void;
}

/** The read fixture's replica (user 1 signed in), edits at its NOW. */
export const editFixture = (seed = true): EditFixture => {
  const dir = mkdtempSync(join(tmpdir(), 'edits-'));
  const replica = Replica.openFile(join(dir, 'replica.sqlite'));
  if (seed) seedReplica(replica);
  const ctx: EditContext = { now: NOW, userId: 1, dataDir: dir };
  return {
    dir,
    replica,
    db: replica.db,
    ctx,
    edit: (command, at) => applyEdit(replica.db, command, { ...ctx, now: at ?? ctx.now }),
    rows: () => allMutations(replica.db),
    close: () => {
      replica.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** The tables of server data (the sync state and the first fill's stage are the engine's). */
export const serverTables = serverDataTables.filter(
  (t) => t !== 'sync_state' && t !== 'tasks_stage',
);

/** Server-data tables, row by row (a diff shows what changed). */
export const dumpServerData = (db: Sqlite): Record<string, unknown[]> =>
  Object.fromEntries(
    serverTables.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all()]),
  );

/** Every row of every table the edits write, the outbox's too, to prove an edit changed nothing. */
export const dumpReplica = (db: Sqlite): string =>
  JSON.stringify({
    ...dumpServerData(db),
    outbox: db.prepare('SELECT * FROM outbox ORDER BY 1').all(),
    outbox_files: db.prepare('SELECT * FROM outbox_files ORDER BY 1, 2').all(),
  });

/** The read fixture's bulk task `taskId` as the server sends it, with `change`. */
export const serverTask = (taskId: number, change: Partial<BulkTask> = {}): BulkTask => {
  const t = bulkItems().find((x) => x.taskId === taskId);
  if (!t) throw new Error(`no fixture task ${taskId}`);
  return { ...t, ...change };
};
