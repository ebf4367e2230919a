import type { BulkQuery, BulkTask, Project } from '../../shared/api';
import type { Db } from '../db/open';
import { badRequest } from '../http/errors';
import { JsonBytes } from '../http/json-bytes';
import {
  PROJECT_RAW_COLUMNS,
  type ProjectRaw,
  TASK_RAW_COLUMNS,
  type TaskRaw,
  writeBulkProjectItems,
  writeBulkTaskItems,
} from './bulk-items';
import { JsonWriter } from './json-writer';
import { rawStmt } from './statements';

/**
 * Slim custom fields in bulk task items (this server's choice; the contract leaves bulk item
 * details to the server, and the client parses tolerantly): a task item's `customFields`
 * carries only the fields that HAVE a value for the task, each as {taskCustomFieldId,
 * fieldName, fieldType, fieldValue: [{taskId, value}]} (a DROPDOWN adds its options' ids and
 * names), except the first item of a page naming a field, which carries it whole. The
 * definitions, with options and audit fields, come with spaces and projects
 * (Space.customFields, Project.customFields; projects in the bulk export keep them whole).
 * getTaskById and the task lists answer full definitions, as before. Items are written as
 * JSON bytes (./bulk-items): the route sends a page without building it as objects first.
 *
 * The bulk export: every task (personal, project, subtasks of both) or project of the org,
 * ordered by (modified_time, id), keyset-paged with an opaque cursor.
 *
 * - Every write sets modified_time = max(now, previous + 1), so (modified_time, id) orders
 *   changes and a row changed after a page was read comes back on a later page or pull.
 * - `modifiedSince` is inclusive: a boundary item may come twice (harmless, the replica
 *   upserts), but none is ever missed. Tombstones (deleted:true) only come with it: a first
 *   full export has nothing to delete.
 * - The cursor is base64url JSON {t, i, s}: the last item's (modified_time, id) and the
 *   modifiedSince it was made for; one that does not decode, or was made for another
 *   modifiedSince, is a 400 on `cursor` (a client mixing pulls must start over, not skip).
 */
interface Cursor {
  t: number;
  i: number;
  s: number | null;
}

const encodeCursor = (c: Cursor): string => Buffer.from(JSON.stringify(c)).toString('base64url');

const badCursor = (cursor: string, message: string) =>
  badRequest('invalid cursor', [{ field: 'cursor', message, rejectedValue: cursor }]);

const decodeCursor = (cursor: string, modifiedSince: number | null): Cursor => {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw badCursor(cursor, 'not a cursor of this export');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor(cursor, 'not a cursor of this export');
  }
  const c = parsed as Partial<Cursor> | null;
  if (
    typeof c !== 'object' ||
    c === null ||
    !Number.isSafeInteger(c.t) ||
    !Number.isSafeInteger(c.i) ||
    !(c.s === null || Number.isSafeInteger(c.s))
  )
    throw badCursor(cursor, 'not a cursor of this export');
  if (c.s !== modifiedSince)
    throw badCursor(
      cursor,
      'the cursor was made for another modifiedSince; start the export again',
    );
  return c as Cursor;
};

/** Where a page starts: after the cursor's item, or at modifiedSince (inclusive), or anywhere. */
const startOf = (q: BulkQuery) => {
  const since = q.modifiedSince ?? null;
  const c = q.cursor === undefined ? null : decodeCursor(q.cursor, since);
  return {
    since,
    // `mt >= t AND (mt > t OR id > i)`: strictly after (t, i) in (modified_time, id) order.
    t: c ? c.t : (since ?? Number.MIN_SAFE_INTEGER),
    i: c ? c.i : -1,
  };
};

// A type alias, not an interface: the envelope's loose schema wants an index-signature-compatible type.
export type BulkPageOf<T> = {
  items: T[];
  nextCursor: string | null;
  serverTime: number;
};

/** `rows` holds one row more than asked when another page follows. */
const pageJson = <R, T>(
  rows: R[],
  size: number,
  since: number | null,
  key: (r: R) => { t: number; i: number },
  writeItems: (w: JsonWriter, rows: R[]) => void,
  now: number,
): JsonBytes<BulkPageOf<T>> => {
  const more = rows.length > size;
  const pageRows = more ? rows.slice(0, size) : rows;
  const last = pageRows[pageRows.length - 1];
  const nextCursor = more && last ? encodeCursor({ ...key(last), s: since }) : null;
  const w = new JsonWriter(pageRows.length * 2048 + 256);
  w.ascii('{"items":[');
  writeItems(w, pageRows);
  w.ascii('],"nextCursor":').str(nextCursor).ascii(',"serverTime":').num(now).ascii('}');
  return new JsonBytes(w.done());
};

/** A page of the task export, as the JSON of its `data` (what the route sends). */
export const bulkTasksJson = (
  db: Db,
  orgId: number,
  q: BulkQuery,
  now: number,
): JsonBytes<BulkPageOf<BulkTask>> => {
  const start = startOf(q);
  // One row more than asked tells whether another page follows.
  const rows = rawStmt(
    db,
    `SELECT ${TASK_RAW_COLUMNS} FROM tasks t
     WHERE t.org_id = ? AND t.modified_time >= ? AND (t.modified_time > ? OR t.task_id > ?) AND (? = 1 OR t.deleted = 0)
     ORDER BY t.modified_time, t.task_id LIMIT ?`,
  ).all(orgId, start.t, start.t, start.i, start.since === null ? 0 : 1, q.size + 1) as TaskRaw[];
  return pageJson(
    rows,
    q.size,
    start.since,
    (r) => ({ t: r[1], i: r[0] }),
    (w, r) => writeBulkTaskItems(w, db, orgId, r, now),
    now,
  );
};

/** The same page as objects (tests, tools): exactly what the route's JSON holds. */
export const bulkTasks = (db: Db, orgId: number, q: BulkQuery, now: number): BulkPageOf<BulkTask> =>
  bulkTasksJson(db, orgId, q, now).parse();

/** A page of the project export, as the JSON of its `data`. */
export const bulkProjectsJson = (
  db: Db,
  orgId: number,
  q: BulkQuery,
  now: number,
): JsonBytes<BulkPageOf<Project>> => {
  const start = startOf(q);
  const rows = rawStmt(
    db,
    `SELECT ${PROJECT_RAW_COLUMNS} FROM projects p
     WHERE p.org_id = ? AND p.modified_time >= ? AND (p.modified_time > ? OR p.project_id > ?) AND (? = 1 OR p.deleted = 0)
     ORDER BY p.modified_time, p.project_id LIMIT ?`,
  ).all(orgId, start.t, start.t, start.i, start.since === null ? 0 : 1, q.size + 1) as ProjectRaw[];
  return pageJson(
    rows,
    q.size,
    start.since,
    (r) => ({ t: r[1], i: r[0] }),
    (w, r) => writeBulkProjectItems(w, db, orgId, r, now),
    now,
  );
};

/** The same page as objects. */
export const bulkProjects = (
  db: Db,
  orgId: number,
  q: BulkQuery,
  now: number,
): BulkPageOf<Project> => bulkProjectsJson(db, orgId, q, now).parse();
