/**
 * The first fill of the task tables, in two steps (migration 0008):
 * 1. each page of the export is appended to `tasks_stage`, one row per task (its rows for
 *    every table, as JSON), in the same transaction as the cursor after it;
 * 2. when the export has ended, the staged tasks move into the task tables in task id order,
 *    a bounded chunk per transaction, with the highest id moved recorded in the same
 *    transaction; then the stage is emptied, in chunks too. A kill at any point resumes.
 * The export comes in modification order, unrelated to ids: written directly, each task
 * dirtied a different page of every table and index it touches, and each commit wrote them
 * all to the WAL. Staged, pages are only appended, and the move appends in key order.
 * Only a fill that starts on a replica without server tasks is staged (`beginFirstFill`):
 * until the move ends, lists show none of the fill's tasks rather than a random part of them.
 * The move runs without the task tables' secondary indexes, built again after it
 * (tasks-stage-indexes.ts, sync/engine/first-fill.ts).
 */
import type { BulkTask } from '../../../shared/api';
import { stmt } from '../kysely';
import type { Sqlite } from '../open';
import { writeTx } from '../write-tx';
import { childInserts, encodeStagePage, type StagePage } from './task-rows';
import { deleteTasks, flushPageShared, upsertTasksSql } from './tasks-write';

const firstFillKey = 'tasks_first_fill';
/** The highest task id moved out of the stage so far. */
const mergedKey = 'tasks_first_fill_merged';

/**
 * Starts a staged first fill when the replica holds no server task yet (local ones, not yet
 * pushed, have negative ids); true while one is under way, including one resumed.
 */
export const beginFirstFill = (db: Sqlite): boolean =>
  writeTx(db, () => {
    const active = firstFillActive(db);
    if (!active && stmt(db, 'SELECT 1 FROM tasks WHERE task_id > 0 LIMIT 1').get()) return false;
    // Pages are (still) being staged, so no move has begun for this stage; a mark left by a
    // move that a re-bootstrap (a wipe) cut short would skip the new stage's lower ids.
    stmt(db, 'DELETE FROM replica_info WHERE key = ?').run(mergedKey);
    if (!active)
      stmt(db, 'INSERT INTO replica_info (key, value) VALUES (?, ?)').run(firstFillKey, '1');
    return true;
  });

export const firstFillActive = (db: Sqlite): boolean =>
  stmt(db, 'SELECT 1 FROM replica_info WHERE key = ?').get(firstFillKey) !== undefined;

/**
 * Appends staged tasks given as the JSON of a `StagedTask[]`. jsonb_each hands each task over
 * as JSONB already (json_each would print it back to text for jsonb() to parse again: the same
 * rows at 2-3x the cost).
 */
export const stageTasksJson = (db: Sqlite, json: string): void => {
  stmt(
    db,
    `INSERT INTO tasks_stage (task_id, data) SELECT value ->> '$[0][0]', jsonb(value) FROM jsonb_each(?)`,
  ).run(json);
};

/** Appends tombstones: the last staged copy of a task wins, and a tombstone deletes it. */
export const stageTombstones = (db: Sqlite, taskIds: readonly number[]): void => {
  if (taskIds.length === 0) return;
  stmt(db, 'INSERT INTO tasks_stage (task_id, data) SELECT value, NULL FROM json_each(?)').run(
    JSON.stringify(taskIds),
  );
};

/** Appends an encoded page to the stage. Call in a transaction. */
export const writeStagePage = (
  db: Sqlite,
  page: StagePage,
): { upserted: number; deleted: number } => {
  if (page.staged !== null) stageTasksJson(db, page.staged);
  flushPageShared(db, page.shared);
  stageTombstones(db, page.dead);
  return { upserted: page.upserted, deleted: page.dead.length };
};

/** One page of the export during a first fill, appended to the stage. */
export const stageTaskItems = (
  db: Sqlite,
  items: readonly BulkTask[],
): { upserted: number; deleted: number } => writeStagePage(db, encodeStagePage(items));

/** Rows in the stage (a task sent twice counts twice). */
export const stagedTaskCount = (db: Sqlite): number =>
  (stmt(db, 'SELECT COUNT(*) AS n FROM tasks_stage').get() as { n: number }).n;

/**
 * The staged rows to move, by task id (the last copy of each), ids at or below the highest
 * already moved left out; read `limit` rows per call from `afterSeq` on, so that no call
 * blocks for long. `next` is null when the stage has been read to its end.
 */
export const readStageOrder = (
  db: Sqlite,
  order: Map<number, number>,
  afterSeq: number,
  limit: number,
): { next: number | null } => {
  const rows = stmt(
    db,
    'SELECT seq, task_id FROM tasks_stage WHERE seq > ? ORDER BY seq LIMIT ?',
  ).all(afterSeq, limit) as { seq: number; task_id: number }[];
  const merged = mergedUpTo(db);
  for (const r of rows) if (r.task_id > merged) order.set(r.task_id, r.seq);
  return { next: rows.length < limit ? null : (rows.at(-1)?.seq ?? null) };
};

/** True once a move has written its first chunk (the stage is then read, not appended). */
export const moveStarted = (db: Sqlite): boolean =>
  stmt(db, 'SELECT 1 FROM replica_info WHERE key = ?').get(mergedKey) !== undefined;

const mergedUpTo = (db: Sqlite): number => {
  const row = stmt(db, 'SELECT CAST(value AS INTEGER) AS n FROM replica_info WHERE key = ?').get(
    mergedKey,
  ) as { n: number } | undefined;
  return row?.n ?? Number.MIN_SAFE_INTEGER;
};

/** Where each part sits in a staged task (`StagedTask`). */
const partIndex = { tags: 1, owners: 2, values: 3, checklist: 4, files: 5 } as const;

const stagedColumns = Array.from({ length: 22 }, (_, i) => `s.data ->> '$[0][${i}]'`).join(', ');
const IN_SEQS = 'seq IN (SELECT value FROM json_each(?))';
/**
 * The staged rows of the seqs given, in the order given (task id order): a CROSS JOIN keeps
 * json_each's order as the outer loop, where `seq IN (…) ORDER BY task_id` sorted every
 * statement's rows again.
 */
const STAGED_IN_ORDER = 'json_each(?) k CROSS JOIN tasks_stage s ON s.seq = k.value';

/**
 * Moves staged rows (by seq, given in task id order, every id above those moved before) into
 * the task tables; the tombstoned ids among them are deleted. Call in a transaction.
 */
export const mergeStagedTasks = (
  db: Sqlite,
  chunk: readonly { taskId: number; seq: number }[],
): number[] => {
  const last = chunk.at(-1);
  if (last === undefined) return [];
  // A task already in the tables got there during the fill from a fresher source (an edit's
  // answer from the server): the staged copy, read earlier, must not overwrite it.
  const present = new Set(
    stmt(db, `SELECT task_id FROM tasks WHERE task_id IN (SELECT value FROM json_each(?))`)
      .pluck()
      .all(JSON.stringify(chunk.map((c) => c.taskId))) as number[],
  );
  const seqs = JSON.stringify(chunk.flatMap((c) => (present.has(c.taskId) ? [] : [c.seq])));
  stmt(
    db,
    upsertTasksSql(`SELECT ${stagedColumns} FROM ${STAGED_IN_ORDER} WHERE s.data IS NOT NULL`),
  ).run(seqs);
  // A part the item did not carry is JSON null, which json_each reads as one null row.
  for (const c of childInserts) {
    const columns = Array.from({ length: c.columns }, (_, i) => `j.value ->> ${i}`).join(', ');
    stmt(
      db,
      `${c.sql} SELECT ${columns} FROM ${STAGED_IN_ORDER}
       CROSS JOIN jsonb_each(s.data, '$[${partIndex[c.part]}]') j WHERE j.type = 'array'`,
    ).run(seqs);
  }
  stmt(db, 'INSERT OR REPLACE INTO replica_info (key, value) VALUES (?, ?)').run(
    mergedKey,
    String(last.taskId),
  );
  const dead = stmt(db, `SELECT task_id FROM tasks_stage WHERE ${IN_SEQS} AND data IS NULL`)
    .pluck()
    .all(seqs) as number[];
  // What was moved before and hangs under a tombstoned task goes with it.
  deleteTasks(db, dead);
  return dead;
};

/**
 * Empties the stage once everything has moved, `limit` rows per call (in seq order, the
 * order they were appended); the first fill ends with the last call. True when done.
 */
export const clearStage = (db: Sqlite, limit: number): boolean => {
  const n = stmt(
    db,
    'DELETE FROM tasks_stage WHERE seq IN (SELECT seq FROM tasks_stage ORDER BY seq LIMIT ?)',
  ).run(limit).changes;
  if (n > 0) return false;
  stmt(db, 'DELETE FROM replica_info WHERE key IN (?, ?)').run(firstFillKey, mergedKey);
  return true;
};
