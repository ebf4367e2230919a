import type { BulkQuery, BulkTask, Project } from '../../shared/api';
import type { Db } from '../db/open';
import { badRequest } from '../http/errors';
import { JsonBytes } from '../http/json-bytes';
import {
  type ProjectRaw,
  type TaskRaw,
  writeBulkProjectItems,
  writeBulkTaskItems,
} from './bulk-items';
import { JsonWriter } from './json-writer';
import { PROJECT_COLUMN_LIST, PROJECT_COLUMNS } from './projects-dto';
import { rawStmt } from './statements';
import { TASK_COLUMN_LIST, TASK_COLUMNS } from './tasks-dto';

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

/**
 * The rows of an export after a page's start, in (modified_time, id) order: `mt >= t AND (mt >
 * t OR id > i)` is strictly after (t, i). Tombstones only come to a pull with modifiedSince.
 */
const exportSql = (table: string, alias: string, idColumn: string, columns: string): string =>
  `SELECT ${columns} FROM ${table} ${alias}
     WHERE ${alias}.org_id = ? AND ${alias}.modified_time >= ? AND (${alias}.modified_time > ? OR ${alias}.${idColumn} > ?) AND (? = 1 OR ${alias}.deleted = 0)
     ORDER BY ${alias}.modified_time, ${alias}.${idColumn} LIMIT ?`;

const TASK_EXPORT_SQL = exportSql('tasks', 't', 'task_id', TASK_COLUMNS);
const PROJECT_EXPORT_SQL = exportSql('projects', 'p', 'project_id', PROJECT_COLUMNS);

/** Where a raw row of an export holds its id and modified_time (the cursor's key). */
interface KeyAt {
  id: number;
  time: number;
}

/** The page function of one export: a page as the JSON of its `data` (what the route sends). */
const exportPages =
  <R extends readonly unknown[], T>(
    sql: string,
    key: KeyAt,
    writeItems: (w: JsonWriter, db: Db, orgId: number, rows: R[], now: number) => void,
  ) =>
  (db: Db, orgId: number, q: BulkQuery, now: number): JsonBytes<BulkPageOf<T>> => {
    const start = startOf(q);
    // One row more than asked tells whether another page follows.
    const rows = rawStmt(db, sql).all(
      orgId,
      start.t,
      start.t,
      start.i,
      start.since === null ? 0 : 1,
      q.size + 1,
    ) as R[];
    const more = rows.length > q.size;
    const pageRows = more ? rows.slice(0, q.size) : rows;
    const last = pageRows[pageRows.length - 1];
    const nextCursor =
      more && last
        ? encodeCursor({ t: last[key.time] as number, i: last[key.id] as number, s: start.since })
        : null;
    const w = new JsonWriter(pageRows.length * 2048 + 256);
    w.ascii('{"items":[');
    writeItems(w, db, orgId, pageRows, now);
    w.ascii('],"nextCursor":').str(nextCursor).ascii(',"serverTime":').num(now).ascii('}');
    return new JsonBytes(w.done());
  };

/** A page of the task export. */
export const bulkTasksJson = exportPages<TaskRaw, BulkTask>(
  TASK_EXPORT_SQL,
  { id: TASK_COLUMN_LIST.indexOf('task_id'), time: TASK_COLUMN_LIST.indexOf('modified_time') },
  writeBulkTaskItems,
);

/** The same page as objects (tests, tools): exactly what the route's JSON holds. */
export const bulkTasks = (db: Db, orgId: number, q: BulkQuery, now: number): BulkPageOf<BulkTask> =>
  bulkTasksJson(db, orgId, q, now).parse();

/** A page of the project export. */
export const bulkProjectsJson = exportPages<ProjectRaw, Project>(
  PROJECT_EXPORT_SQL,
  {
    id: PROJECT_COLUMN_LIST.indexOf('project_id'),
    time: PROJECT_COLUMN_LIST.indexOf('modified_time'),
  },
  writeBulkProjectItems,
);

/** The same page as objects. */
export const bulkProjects = (
  db: Db,
  orgId: number,
  q: BulkQuery,
  now: number,
): BulkPageOf<Project> => bulkProjectsJson(db, orgId, q, now).parse();
