import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BulkTask } from '../../shared/api';
import type { Sqlite } from '../db/open';
import {
  bulkItems,
  NOW,
  openTestReplica,
  seedReplica,
  type TestReplica,
} from '../db/queries/read.fixture';
import { listTasks, type TaskScope } from '../db/queries/tasks-read';
import { beginFirstFill, firstFillActive, stageTaskItems } from '../db/queries/tasks-stage';
import { deferredIndexes, deferTaskIndexes } from '../db/queries/tasks-stage-indexes';
import { applyTaskItems } from '../db/queries/tasks-write';
import { Replica } from '../db/replica';
import { type FillThread, startFillThread } from './fill-thread';
import { mergeFirstFill } from './first-fill';
import { PullCancelledError } from './progress';

const opened: TestReplica[] = [];
let thread: FillThread | null = null;
afterEach(async () => {
  await thread?.close();
  thread = null;
  for (const r of opened.splice(0)) r.close();
});
const open = (): TestReplica => {
  const r = openTestReplica();
  opened.push(r);
  return r;
};

const indexes = (db: Sqlite) =>
  db
    .prepare("SELECT name, tbl_name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name")
    .all();
/** The indexes of a replica that no fill has touched. */
const freshIndexes = () => indexes(open().replica.db);
const rows = (db: Sqlite) =>
  ['tasks', 'task_tags', 'task_owners', 'custom_field_values', 'checklist_items', 'attachments']
    .map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all())
    .map((r) => JSON.stringify(r));

/** A replica the items were written to directly, with every index. */
const directly = (items: BulkTask[]) => {
  const { replica } = open();
  replica.transaction(() => applyTaskItems(replica.db, items));
  return replica;
};
const direct = (items: BulkTask[]) => rows(directly(items).db);

const scopes: TaskScope[] = [
  { kind: 'all' },
  { kind: 'project', projectId: 100 },
  { kind: 'personal', userId: 1 },
  { kind: 'subtasks', parentTaskId: 1 },
];
/** Lists the views make, by index-backed filters and sorts. */
const lists = (db: Sqlite) =>
  scopes.flatMap((scope) =>
    [
      {},
      { status: ['To Do', 'In Progress'] },
      { sort: [{ property: 'dueDate', direction: 'asc' as const }] },
    ].map((q) =>
      listTasks(db, scope, { page: 0, size: 100, sort: [], ...q }, NOW).content.map(
        (t) => t.taskId,
      ),
    ),
  );

const stageAll = (r: Replica, items: BulkTask[]) => {
  expect(beginFirstFill(r.db)).toBe(true);
  r.transaction(() => stageTaskItems(r.db, [...items].reverse()));
};

/** Runs the move in a child process that kills itself with SIGKILL at `point`. */
const killedMove = (file: string, point: 'mid-move' | 'mid-build') =>
  new Promise<NodeJS.Signals | null>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'first-fill-crash-child.ts'), file, point],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    child.once('exit', (_code, signal) => resolve(signal));
  });

describe('the move of a first fill, without the task tables indexes', () => {
  it('builds every index again on the worker thread, and answers lists meanwhile', async () => {
    const items = bulkItems();
    const { replica } = open();
    stageAll(replica, items);
    const abort = new AbortController();
    await expect(
      mergeFirstFill(replica, {
        firstChunk: 3,
        signal: abort.signal,
        onMerged: () => abort.abort(),
      }),
    ).rejects.toBeInstanceOf(PullCancelledError);
    // Mid-move: the indexes are gone, each recorded; lists read the tables without them and
    // answer what the same tasks written with every index answer (the three lowest ids).
    expect(deferredIndexes(replica.db).length).toBeGreaterThan(5);
    expect(indexes(replica.db).length).toBeLessThan(freshIndexes().length);
    const moved = [...items].sort((a, b) => a.taskId - b.taskId).slice(0, 3);
    expect(lists(replica.db)).toEqual(lists(directly(moved).db));
    expect(lists(replica.db).flat().length).toBeGreaterThan(0);
    thread = startFillThread();
    await mergeFirstFill(replica, { thread });
    expect(indexes(replica.db)).toEqual(freshIndexes());
    expect(deferredIndexes(replica.db)).toEqual([]);
    expect(firstFillActive(replica.db)).toBe(false);
    expect(rows(replica.db)).toEqual(direct(items));
    expect(lists(replica.db)).toEqual(lists(directly(items).db));
  });

  it('ends a transaction of the move at its budget, not at the end of a chunk sized too big', async () => {
    const [model] = bulkItems();
    if (!model) throw new Error('no fixture task');
    const items = Array.from({ length: 3000 }, (_, i) => ({
      ...model,
      taskId: 10_000 + i,
      checklists: [],
      attachments: [],
    }));
    const { replica } = open();
    stageAll(replica, items);
    const moved: number[] = [];
    await mergeFirstFill(replica, {
      firstChunk: 2000,
      writeBudgetMs: 0,
      onMerged: (merged) => moved.push(merged),
    });
    // Over its budget after its first quarter, the first transaction moved that quarter only.
    expect(moved[0]).toBe(500);
    expect(moved.at(-1)).toBe(items.length);
    expect(rows(replica.db)).toEqual(direct(items));
  });

  it('builds what a kill left recorded, even with no fill under way any more', async () => {
    const { replica } = open();
    seedReplica(replica);
    const before = lists(replica.db);
    replica.db.transaction(() => deferTaskIndexes(replica.db))();
    expect(lists(replica.db)).toEqual(before);
    expect(await mergeFirstFill(replica)).toBe(0);
    expect(indexes(replica.db)).toEqual(freshIndexes());
    expect(lists(replica.db)).toEqual(before);
  });

  for (const point of ['mid-move', 'mid-build'] as const) {
    it(`ends with every index and the same rows after a SIGKILL ${point}`, async () => {
      const items = bulkItems();
      const { replica, dir } = open();
      stageAll(replica, items);
      const file = join(dir, 'replica.sqlite');
      replica.close();
      expect(await killedMove(file, point)).toBe('SIGKILL');
      const restarted = Replica.openFile(file);
      try {
        const left = deferredIndexes(restarted.db);
        expect(left.length).toBeGreaterThan(0);
        if (point === 'mid-build') expect(left.length).toBeLessThan(freshIndexes().length);
        expect(firstFillActive(restarted.db)).toBe(true);
        await mergeFirstFill(restarted);
        expect(indexes(restarted.db)).toEqual(freshIndexes());
        expect(deferredIndexes(restarted.db)).toEqual([]);
        expect(rows(restarted.db)).toEqual(direct(items));
      } finally {
        restarted.close();
      }
    }, 30_000);
  }
});
