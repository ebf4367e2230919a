import { afterEach, describe, expect, it } from 'vitest';
import type { BulkTask } from '../../../shared/api';
import { mergeFirstFill } from '../../engine/first-fill';
import { PullCancelledError } from '../../engine/progress';
import { serverDataTables } from '../migrations';
import type { Sqlite } from '../open';
import type { Replica } from '../replica';
import { bulkItems, openTestReplica, type TestReplica } from './read.fixture';
import { beginFirstFill, firstFillActive, stagedTaskCount, stageTaskItems } from './tasks-stage';
import { applyTaskItems, writeTasks } from './tasks-write';

/** Every row of server data (the stage included: empty once moved), in a stable order. */
const dump = (db: Sqlite) =>
  Object.fromEntries(
    serverDataTables.map((t) => [
      t,
      (db.prepare(`SELECT * FROM ${t}`).all() as object[]).map((r) => JSON.stringify(r)).sort(),
    ]),
  );

const opened: TestReplica[] = [];
const open = (): Replica => {
  const r = openTestReplica();
  opened.push(r);
  return r.replica;
};
afterEach(() => {
  for (const r of opened.splice(0)) r.close();
});

/** What a direct write of the items leaves: the reference for a staged fill. */
const direct = (items: BulkTask[]) => {
  const r = open();
  r.transaction(() => applyTaskItems(r.db, items));
  return dump(r.db);
};

/** The export's order is not the id order: pages in reverse, split in two. */
const stageInPages = (r: Replica, items: BulkTask[]) => {
  expect(beginFirstFill(r.db)).toBe(true);
  const reversed = [...items].reverse();
  const half = Math.ceil(reversed.length / 2);
  for (const page of [reversed.slice(0, half), reversed.slice(half)])
    r.transaction(() => {
      r.noteServerWrite(page.map((t) => `task:${t.taskId}`));
      stageTaskItems(r.db, page);
    });
};

describe('a staged first fill', () => {
  it('moves into the task tables exactly as a direct write would have written them', async () => {
    const items = bulkItems();
    const r = open();
    stageInPages(r, items);
    // Staged, nothing shows yet: lists never show a random part of a fill.
    expect(r.db.prepare('SELECT COUNT(*) AS n FROM tasks').get()).toEqual({ n: 0 });
    expect(stagedTaskCount(r.db)).toBe(items.length);
    const touched: string[][] = [];
    r.onServerWrite((_db, keys) => touched.push([...keys]));
    await mergeFirstFill(r, { firstChunk: 4 });
    expect(dump(r.db)).toEqual(direct(items));
    expect(stagedTaskCount(r.db)).toBe(0);
    expect(firstFillActive(r.db)).toBe(false);
    // Each moved chunk tells the outbox's hook which tasks it wrote.
    expect(touched.flat().sort()).toEqual(items.map((t) => `task:${t.taskId}`).sort());
    expect(touched.length).toBeGreaterThan(1);
  });

  it('keeps the last copy of a task the export sent twice, and applies a tombstone', async () => {
    const items = bulkItems();
    const [first, second] = items;
    if (!first || !second) throw new Error('fixture: two tasks at least');
    const r = open();
    expect(beginFirstFill(r.db)).toBe(true);
    r.transaction(() =>
      stageTaskItems(r.db, [{ ...first, taskTitle: 'stale copy', tags: ['old'] }, second]),
    );
    r.transaction(() =>
      stageTaskItems(r.db, [...items, { ...second, deleted: true, deletedTime: null }]),
    );
    await mergeFirstFill(r);
    expect(dump(r.db)).toEqual(direct(items.filter((t) => t.taskId !== second.taskId)));
  });

  it('resumes a move that was cancelled mid-way, and writes each task once', async () => {
    const items = bulkItems();
    const r = open();
    stageInPages(r, items);
    const abort = new AbortController();
    await expect(
      mergeFirstFill(r, { firstChunk: 3, signal: abort.signal, onMerged: () => abort.abort() }),
    ).rejects.toBeInstanceOf(PullCancelledError);
    expect(firstFillActive(r.db)).toBe(true);
    expect(r.db.prepare('SELECT COUNT(*) AS n FROM tasks').get()).toEqual({ n: 3 });
    // A restart: a new call reads the stage again and moves only what is left.
    expect(await mergeFirstFill(r, { firstChunk: 3 })).toBe(items.length - 3);
    expect(dump(r.db)).toEqual(direct(items));
    expect(firstFillActive(r.db)).toBe(false);
  });

  it('starts over, whole, when the server data is wiped in the middle of a move', async () => {
    const items = bulkItems();
    const r = open();
    stageInPages(r, items);
    const abort = new AbortController();
    await expect(
      mergeFirstFill(r, { firstChunk: 3, signal: abort.signal, onMerged: () => abort.abort() }),
    ).rejects.toBeInstanceOf(PullCancelledError);
    // A re-bootstrap: the server data goes, and the export is staged again from its start.
    r.wipeServerData();
    stageInPages(r, items);
    await mergeFirstFill(r);
    expect(dump(r.db)).toEqual(direct(items));
  });

  it('does not overwrite a task written meanwhile from a fresher answer', async () => {
    const items = bulkItems();
    const [first] = items;
    if (!first) throw new Error('fixture: one task at least');
    const r = open();
    stageInPages(r, items);
    r.transaction(() => writeTasks(r.db, [{ ...first, taskTitle: 'edited while filling' }]));
    await mergeFirstFill(r);
    expect(r.db.prepare('SELECT title FROM tasks WHERE task_id = ?').get(first.taskId)).toEqual({
      title: 'edited while filling',
    });
    expect(r.db.prepare('SELECT COUNT(*) AS n FROM tasks').get()).toEqual({ n: items.length });
  });

  it('is not used when the replica already holds server tasks', () => {
    const r = open();
    r.transaction(() => applyTaskItems(r.db, bulkItems().slice(0, 1)));
    expect(beginFirstFill(r.db)).toBe(false);
    expect(firstFillActive(r.db)).toBe(false);
  });
});
