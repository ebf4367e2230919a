import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkTask, task } from '../../../shared/api';
import {
  LOST_ON_WRITE,
  NOW,
  openTestReplica,
  seedReplica,
  type TestReplica,
  taskDto,
  without,
} from './read.fixture';
import {
  HIGHLIGHT_END as E,
  ftsQuery,
  highlightSegments,
  RANK_CAP,
  HIGHLIGHT_START as S,
  searchTasks,
} from './search';
import { catchUpSearchIndex, deferSearchIndex, searchIndexPending } from './search-index';
import { readTask } from './tasks-read';
import { applyTaskItems, deleteTasks, writeTask } from './tasks-write';

let t: TestReplica;
beforeAll(() => {
  t = openTestReplica();
  seedReplica(t.replica);
});
afterAll(() => t.close());

const ids = (text: string, opts: Parameters<typeof searchTasks>[2] = {}) =>
  searchTasks(t.replica.db, text, opts).map((h) => h.taskId);

describe('ftsQuery: user text never becomes FTS5 syntax', () => {
  it.each<[string, string | null]>([
    ['spec', '"spec"*'],
    ['write  spec', '"write" "spec"*'],
    ['he said "hi"', '"he" "said" "hi"*'],
    ['AND OR NOT NEAR(a b)', '"AND" "OR" "NOT" "NEAR" "a" "b"*'],
    ['title:spec -x *', '"title" "spec" "x"*'],
    ['c++', '"c"*'],
    ['***', null],
    ['   ', null],
    ['', null],
  ])('%j → %j', (text, expected) => {
    expect(ftsQuery(text)).toBe(expected);
  });
});

describe('searchTasks', () => {
  it('finds words in titles and descriptions, title hits ranked first', () => {
    // bm25 favours the shorter document: task 1 also has a description.
    expect(ids('spec')).toEqual([2, 1]);
    expect(ids('plan')).toEqual([7, 4]);
    expect(searchTasks(t.replica.db, 'plan')[0]?.score).toBeTypeOf('number');
  });

  it('matches the last word as a prefix, every word required', () => {
    expect(ids('wri')).toEqual([1]);
    expect(ids('write sp')).toEqual([1]);
    expect(ids('sp write')).toEqual([]);
    expect(ids('milk who')).toEqual([13]);
  });

  it('ignores case and diacritics both ways', () => {
    expect(ids('cafe creme')).toEqual([4]);
    expect(ids('CAFÉ')).toEqual([4]);
    expect(ids('resume naive')).toEqual([4]);
    expect(ids('Naïve')).toEqual([4]);
  });

  it('takes quotes, operators and punctuation as plain text', () => {
    expect(ids('"quotes"')).toEqual([4]);
    expect(ids('(parentheses')).toEqual([4]);
    expect(ids('NOT')).toEqual([4]);
    expect(ids('spec*')).toEqual([2, 1]);
    expect(ids('title:spec')).toEqual([]);
    expect(ids("x'); DROP TABLE tasks; --")).toEqual([]);
    expect(ids('"')).toEqual([]);
    expect(readTask(t.replica.db, 1, NOW)).not.toBeNull();
  });

  it('returns summaries with the project and a highlighted snippet', () => {
    const hit = searchTasks(t.replica.db, 'spec').find((h) => h.taskId === 1);
    expect(hit).toMatchObject({
      taskId: 1,
      title: 'Write spec',
      snippet: `Write ${S}spec${E}`,
      projectId: 100,
      projectName: 'Alpha launch',
      parentTaskId: null,
      status: 'To Do',
      completed: false,
    });
    const [desc] = searchTasks(t.replica.db, 'conflict');
    expect(desc?.snippet).toBe(`Outline the sync protocol and the ${S}conflict${E} rules`);
    expect(highlightSegments(desc?.snippet ?? '')).toEqual([
      { text: 'Outline the sync protocol and the ', hit: false },
      { text: 'conflict', hit: true },
      { text: ' rules', hit: false },
    ]);
    const [accent] = searchTasks(t.replica.db, 'creme');
    expect(accent?.snippet).toBe(`Café ${S}crème${E} menu`);
  });

  it('cuts a long description around the first hit', () => {
    const { replica, close } = openTestReplica();
    try {
      const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
      words[25] = 'needle';
      writeTask(
        replica.db,
        task.parse(taskDto({ taskId: 1, taskTitle: 'Long', description: words.join(' ') })),
      );
      const [hit] = searchTasks(replica.db, 'needle');
      expect(hit?.snippet).toBe(`…w22 w23 w24 ${S}needle${E} w26 w27 w28 w29 w30 w31 w32 w33…`);
    } finally {
      close();
    }
  });

  it('within a scope', () => {
    expect(ids('milk')).toEqual([9, 13]);
    expect(ids('milk', { scope: { kind: 'personal', userId: 1 } })).toEqual([9]);
    expect(ids('milk', { scope: { kind: 'subtasks', parentTaskId: 9 } })).toEqual([13]);
    expect(ids('spec', { scope: { kind: 'project', projectId: 100 } })).toEqual([2, 1]);
    expect(ids('spec', { scope: { kind: 'project', projectId: 101 } })).toEqual([]);
    expect(ids('milk', { limit: 1 })).toHaveLength(1);
  });

  it('follows edits and deletes of tasks (the FTS triggers)', () => {
    const { replica, close } = openTestReplica();
    try {
      seedReplica(replica);
      const renamed = task.parse({
        ...taskDto({ taskId: 9, taskTitle: 'Buy oat drink', owners: [1] }),
      });
      writeTask(replica.db, renamed);
      expect(searchTasks(replica.db, 'milk').map((h) => h.taskId)).toEqual([13]);
      expect(searchTasks(replica.db, 'oat').map((h) => h.taskId)).toEqual([9]);
      expect(readTask(replica.db, 9, NOW)).toEqual(without(renamed, LOST_ON_WRITE.task));
      deleteTasks(replica.db, [9]);
      expect(searchTasks(replica.db, 'oat')).toEqual([]);
      expect(searchTasks(replica.db, 'whole')).toEqual([]);
    } finally {
      close();
    }
  });
});

describe('searchTasks: more matches than can be ranked', () => {
  let big: TestReplica;
  beforeAll(() => {
    big = openTestReplica();
    const items = Array.from({ length: RANK_CAP + 5 }, (_, i) =>
      bulkTask.parse(
        taskDto({ taskId: 1000 + i, taskTitle: `Widget ${i}`, projectId: i % 2 ? 100 : 101 }),
      ),
    );
    // Newest of all, but the word only in the description.
    items.push(
      bulkTask.parse(
        taskDto({
          taskId: 9999,
          taskTitle: 'Gadget',
          description: 'a widget inside',
          projectId: 100,
        }),
      ),
    );
    big.replica.transaction(() => applyTaskItems(big.replica.db, items));
  });
  afterAll(() => big.close());

  it('answers the newest title hits first, unranked', () => {
    const hits = searchTasks(big.replica.db, 'widg', { limit: 3 });
    expect(hits.map((h) => [h.taskId, h.score])).toEqual([
      [1000 + RANK_CAP + 4, null],
      [1000 + RANK_CAP + 3, null],
      [1000 + RANK_CAP + 2, null],
    ]);
    expect(hits[0]?.snippet).toBe(`${S}Widget${E} ${RANK_CAP + 4}`);
  });

  it('then the description hits, and within a scope', () => {
    const all = searchTasks(big.replica.db, 'widget', {
      limit: 200,
      scope: { kind: 'project', projectId: 100 },
    });
    expect(all).toHaveLength(200);
    expect(all.every((h) => h.projectId === 100)).toBe(true);
    expect(all[0]?.taskId).toBe(1000 + RANK_CAP + 3); // odd i: project 100
    const few = searchTasks(big.replica.db, 'inside widget');
    expect(few.map((h) => h.taskId)).toEqual([9999]);
    expect(few[0]?.score).toBeTypeOf('number');
  });
});

describe('catchUpSearchIndex', () => {
  // Chunks that stay at the smallest size, and chunks that grow to the largest: no task is
  // left out or indexed twice at a chunk's edge.
  it.each([0, 1e6])(
    'indexes every task written while it was deferred (budget %d ms)',
    async (budgetMs) => {
      const r = openTestReplica();
      try {
        deferSearchIndex(r.replica.db);
        const items = Array.from({ length: 1_234 }, (_, i) =>
          bulkTask.parse(taskDto({ taskId: i + 1, taskTitle: `Gizmo ${i + 1}` })),
        );
        r.replica.transaction(() => applyTaskItems(r.replica.db, items));
        expect(searchTasks(r.replica.db, 'gizmo', { limit: 2_000 })).toHaveLength(0);
        expect(await catchUpSearchIndex(r.replica.db, { firstChunk: 50, budgetMs })).toBe(1_234);
        expect(searchIndexPending(r.replica.db)).toBe(false);
        const indexed = r.replica.db
          .prepare("SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH 'gizmo' ORDER BY rowid")
          .pluck()
          .all();
        expect(indexed).toEqual(items.map((t) => t.taskId));
        expect(searchTasks(r.replica.db, 'gizmo 1234').map((h) => h.taskId)).toEqual([1_234]);
      } finally {
        r.close();
      }
    },
  );
});
