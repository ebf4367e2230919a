/**
 * Lazy data: what the app fetches on demand (a task's comments, timesheets, attachment
 * files) and serves from the replica when offline. Only storage and reads live here; the
 * engine decides when to fetch. These tables are not server data in the sense of
 * `serverDataTables`: a re-bootstrap keeps them (they are refreshed on the next visit).
 *
 * Every entry records when it was fetched, so "never fetched" (null) differs from "fetched,
 * empty", and the UI can say how old what it shows is.
 */
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import {
  type Comment,
  type Timesheet,
  type TimesheetSummary,
  timesheet,
  timesheetSummary,
} from '../../../shared/api';
import { first, qb, run, stmt } from '../kysely';
import type { Sqlite } from '../open';
import { writeTx } from '../write-tx';
import { commentsOfTask } from './activity-read';
import { extraOf, toMs } from './convert';
import { upsertUsers } from './users';

// ---- generic entries -----------------------------------------------------------------------

export interface Cached<T> {
  value: T;
  fetchedAt: number;
}

export const putCached = (db: Sqlite, key: string, value: unknown, fetchedAt: number): void => {
  run(
    db,
    qb
      .insertInto('lazy_cache')
      .values({ key, body: JSON.stringify(value), fetched_at: fetchedAt })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({ body: JSON.stringify(value), fetched_at: fetchedAt }),
      ),
  );
};

/**
 * The entry, checked with `schema`: a body an older version wrote in another shape is a miss,
 * not a crash.
 */
export const getCached = <S extends z.ZodType>(
  db: Sqlite,
  key: string,
  schema: S,
): Cached<z.output<S>> | null => {
  const row = first(
    db,
    qb.selectFrom('lazy_cache').select(['body', 'fetched_at']).where('key', '=', key),
  );
  if (!row) return null;
  const parsed = schema.safeParse(JSON.parse(row.body));
  return parsed.success ? { value: parsed.data, fetchedAt: row.fetched_at } : null;
};

export const removeCached = (db: Sqlite, key: string): void => {
  run(db, qb.deleteFrom('lazy_cache').where('key', '=', key));
};

// ---- timesheets ----------------------------------------------------------------------------

/** The query a timesheet answers; its key in `lazy_cache`. */
export type TimesheetQuery =
  | { kind: 'timesheet'; from: number; to: number }
  | { kind: 'project-timesheet'; projectId: number; from: number; to: number };

export const timesheetKey = (q: TimesheetQuery | ProjectSummaryQuery): string =>
  q.kind === 'timesheet'
    ? `timesheet:${q.from}:${q.to}`
    : `${q.kind}:${q.projectId}:${q.from}:${q.to}`;

export type ProjectSummaryQuery = {
  kind: 'project-timesheet-summary';
  projectId: number;
  from: number;
  to: number;
};

export const putTimesheet = (
  db: Sqlite,
  q: TimesheetQuery,
  value: Timesheet,
  fetchedAt: number,
): void => putCached(db, timesheetKey(q), value, fetchedAt);

export const getTimesheet = (db: Sqlite, q: TimesheetQuery): Cached<Timesheet> | null =>
  getCached(db, timesheetKey(q), timesheet);

export const putTimesheetSummary = (
  db: Sqlite,
  q: ProjectSummaryQuery,
  value: TimesheetSummary,
  fetchedAt: number,
): void => putCached(db, timesheetKey(q), value, fetchedAt);

export const getTimesheetSummary = (
  db: Sqlite,
  q: ProjectSummaryQuery,
): Cached<TimesheetSummary> | null => getCached(db, timesheetKey(q), timesheetSummary);

// ---- comments ------------------------------------------------------------------------------

const commentKeys = new Set([
  'commentId',
  'taskId',
  'content',
  'createdBy',
  'createdTime',
  'modifiedTime',
]);
const commentsFetchedKey = (taskId: number) => `comments:${taskId}`;

/**
 * All comments of a task as just fetched: they replace the stored ones (a comment deleted on
 * the server disappears here too), with the fetch time kept beside them.
 */
export const putComments = (
  db: Sqlite,
  taskId: number,
  comments: readonly Comment[],
  fetchedAt: number,
): void => {
  writeTx(db, () => {
    stmt(db, 'DELETE FROM comments WHERE task_id = ?').run(taskId);
    const insert = stmt(
      db,
      `INSERT OR REPLACE INTO comments (comment_id, task_id, content, created_by, created_time, modified_time, extra)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const c of comments) {
      insert.run(
        c.commentId,
        taskId,
        c.content,
        c.createdBy?.userId ?? null,
        toMs(c.createdTime) ?? 0,
        toMs(c.modifiedTime),
        extraOf(c, commentKeys),
      );
    }
    upsertUsers(
      db,
      comments.map((c) => c.createdBy),
    );
    putCached(db, commentsFetchedKey(taskId), { count: comments.length }, fetchedAt);
  });
};

/** The stored comments of a task, oldest first; null when they were never fetched. */
export const getComments = (db: Sqlite, taskId: number): Cached<Comment[]> | null => {
  const row = first(
    db,
    qb.selectFrom('lazy_cache').select('fetched_at').where('key', '=', commentsFetchedKey(taskId)),
  );
  return row ? { value: commentsOfTask(db, taskId), fetchedAt: row.fetched_at } : null;
};

// ---- attachment files ----------------------------------------------------------------------

export interface AttachmentFile {
  attachmentId: number;
  /** Absolute path of the content, under the replica's own folder. */
  path: string;
  size: number;
  contentType: string | null;
  fetchedAt: number;
}

/**
 * Where the content of an attachment lives, relative to the replica's folder (sync/db/open.ts
 * `replicaFilesDir`): ids are the server's, so two servers (or a folder replicas shared, as
 * older builds had) can hold different bytes under one name. A row an older build wrote names
 * the same relative path, which is not in the replica's folder: a miss, fetched again.
 */
const relativePath = (attachmentId: number) => join('attachments', `${attachmentId}.bin`);

const toChunks = async function* (
  bytes: Uint8Array | AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  if (bytes instanceof Uint8Array) yield bytes;
  else yield* bytes;
};

/**
 * Stores an attachment's content: written to a temporary file, flushed, then renamed over the
 * final name, so a crash or a cut download never leaves a half file under the real name. The
 * row (stored relative to `filesDir`, so the directory may move) is written after the rename.
 */
export const putAttachmentFile = async (
  db: Sqlite,
  filesDir: string,
  file: {
    attachmentId: number;
    bytes: Uint8Array | AsyncIterable<Uint8Array>;
    contentType?: string | null;
  },
  fetchedAt: number,
): Promise<AttachmentFile> => {
  const rel = relativePath(file.attachmentId);
  const final = join(filesDir, rel);
  const temp = `${final}.${randomBytes(6).toString('hex')}.tmp`;
  await mkdir(join(filesDir, 'attachments'), { recursive: true });
  let size = 0;
  try {
    const handle = await open(temp, 'wx');
    try {
      for await (const chunk of toChunks(file.bytes)) {
        await handle.write(chunk);
        size += chunk.byteLength;
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, final);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  const contentType = file.contentType ?? null;
  stmt(
    db,
    `INSERT OR REPLACE INTO attachment_files (attachment_id, path, size, content_type, fetched_at)
     VALUES (?, ?, ?, ?, ?)`,
  ).run(file.attachmentId, rel, size, contentType, fetchedAt);
  return { attachmentId: file.attachmentId, path: final, size, contentType, fetchedAt };
};

/**
 * The stored content of an attachment, or null when there is none usable: a file that went
 * missing or changed size (deleted by hand, a disk cleanup) forgets its row and is a miss.
 */
export const getAttachmentFile = (
  db: Sqlite,
  filesDir: string,
  attachmentId: number,
): AttachmentFile | null => {
  const row = first(
    db,
    qb
      .selectFrom('attachment_files')
      .select(['path', 'size', 'content_type', 'fetched_at'])
      .where('attachment_id', '=', attachmentId),
  );
  if (!row) return null;
  const path = join(filesDir, row.path);
  const onDisk = statSync(path, { throwIfNoEntry: false });
  if (!onDisk?.isFile() || onDisk.size !== row.size) {
    run(db, qb.deleteFrom('attachment_files').where('attachment_id', '=', attachmentId));
    return null;
  }
  return {
    attachmentId,
    path,
    size: row.size,
    contentType: row.content_type,
    fetchedAt: row.fetched_at,
  };
};

/** Forgets an attachment's content (the attachment was deleted, or space is reclaimed). */
export const removeAttachmentFile = async (
  db: Sqlite,
  filesDir: string,
  attachmentId: number,
): Promise<void> => {
  run(db, qb.deleteFrom('attachment_files').where('attachment_id', '=', attachmentId));
  await rm(join(filesDir, relativePath(attachmentId)), { force: true });
};
