import type { BulkQuery, BulkTask, Project } from '../../shared/api';
import type { Db } from '../db/open';
import { badRequest } from '../http/errors';
import {
  type AttachmentParent,
  type AttachmentRow,
  attachmentColumns,
  attachmentDto,
  type ChecklistRow,
  checklistColumns,
  checklistDto,
} from './items-dto';
import { PROJECT_COLUMNS, type ProjectRow, projectDtos } from './projects-dto';
import { IN_IDS, idsParam, stmt } from './statements';
import { buildTaskDtos, TASK_COLUMNS, type TaskRow } from './tasks-dto';

/**
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

const page = <R, T>(
  rows: R[],
  size: number,
  since: number | null,
  key: (r: R) => { t: number; i: number },
  toDtos: (rows: R[]) => T[],
  now: number,
): BulkPageOf<T> => {
  const more = rows.length > size;
  const pageRows = more ? rows.slice(0, size) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    items: toDtos(pageRows),
    nextCursor: more && last ? encodeCursor({ ...key(last), s: since }) : null,
    serverTime: now,
  };
};

export const bulkTasks = (
  db: Db,
  orgId: number,
  q: BulkQuery,
  now: number,
): BulkPageOf<BulkTask> => {
  const start = startOf(q);
  // One row more than asked tells whether another page follows.
  const rows = stmt(
    db,
    `SELECT ${TASK_COLUMNS} FROM tasks t
     WHERE t.org_id = ? AND t.modified_time >= ? AND (t.modified_time > ? OR t.task_id > ?) AND (? = 1 OR t.deleted = 0)
     ORDER BY t.modified_time, t.task_id LIMIT ?`,
  ).all(orgId, start.t, start.t, start.i, start.since === null ? 0 : 1, q.size + 1) as TaskRow[];
  return page(
    rows,
    q.size,
    start.since,
    (r) => ({ t: r.modified_time, i: r.task_id }),
    (r) => bulkTaskDtos(db, r, now),
    now,
  );
};

/** Task DTOs with their checklist (by position) and attachments (oldest first) embedded. */
const bulkTaskDtos = (db: Db, rows: TaskRow[], now: number): BulkTask[] => {
  if (rows.length === 0) return [];
  const ids = idsParam(rows.map((r) => r.task_id));
  const checklists = stmt(
    db,
    `SELECT ${checklistColumns} FROM checklist_items WHERE task_id IN ${IN_IDS} ORDER BY task_id, position, checklist_id`,
  ).all(ids) as ChecklistRow[];
  const attachments = stmt(
    db,
    `SELECT ${attachmentColumns} FROM attachments WHERE task_id IN ${IN_IDS} ORDER BY created_time, attachment_id`,
  ).all(ids) as AttachmentRow[];
  const { dtos, users } = buildTaskDtos(
    db,
    rows,
    now,
    attachments.map((a) => a.created_by),
  );
  const byTask = <T extends { task_id: number | null }>(list: T[]) => {
    const out = new Map<number, T[]>();
    for (const x of list) {
      if (x.task_id === null) continue;
      const l = out.get(x.task_id);
      if (l) l.push(x);
      else out.set(x.task_id, [x]);
    }
    return out;
  };
  const checklistsOf = byTask(checklists);
  const attachmentsOf = byTask(attachments);
  return rows.map((r, k) => {
    const parent: AttachmentParent =
      r.parent_task_id === null
        ? { kind: 'task', taskId: r.task_id }
        : { kind: 'subtask', taskId: r.parent_task_id, subtaskId: r.task_id };
    // Added to the fresh DTO in place: copying 5,000 objects of 30 keys costs real time.
    const dto: BulkTask = dtos[k]!;
    dto.checklists = (checklistsOf.get(r.task_id) ?? []).map((c) =>
      checklistDto(c, r.parent_task_id),
    );
    dto.attachments = (attachmentsOf.get(r.task_id) ?? []).map((a) =>
      attachmentDto(a, parent, users.get(a.created_by) ?? { userId: a.created_by }),
    );
    return dto;
  });
};

export const bulkProjects = (
  db: Db,
  orgId: number,
  q: BulkQuery,
  now: number,
): BulkPageOf<Project> => {
  const start = startOf(q);
  const rows = stmt(
    db,
    `SELECT ${PROJECT_COLUMNS} FROM projects p
     WHERE p.org_id = ? AND p.modified_time >= ? AND (p.modified_time > ? OR p.project_id > ?) AND (? = 1 OR p.deleted = 0)
     ORDER BY p.modified_time, p.project_id LIMIT ?`,
  ).all(orgId, start.t, start.t, start.i, start.since === null ? 0 : 1, q.size + 1) as ProjectRow[];
  return page(
    rows,
    q.size,
    start.since,
    (r) => ({ t: r.modified_time, i: r.project_id }),
    (r) => projectDtos(db, r, now),
    now,
  );
};
