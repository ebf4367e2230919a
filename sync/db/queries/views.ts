/**
 * Read models for the app's screens, answered from the replica alone: a task's detail, a
 * project's board, status counts, "my tasks", plus the checklist and attachment DTOs they
 * embed. Each view reads ids with an index first and builds DTOs only for what it returns
 * (a board column or a "my tasks" bucket may be capped), so it stays fast on 100k tasks.
 */
import type { Attachment, ChecklistItem, Task, TimerRecord } from '../../../shared/api';
import { DAY_MS } from '../../../shared/filters/sql-fragment';
import { stmt } from '../kysely';
import type { Sqlite } from '../open';
import type { AttachmentsTable, ChecklistItemsTable } from '../types';
import { timersOfTask } from './activity-read';
import { parseExtra, toIso } from './convert';
import {
  loadUserRefs,
  readTask,
  readTasks,
  refOf,
  type TaskScope,
  taskScopeSql,
} from './tasks-read';

// ---- checklist items and attachments -------------------------------------------------------

/** The parent of a task, or null for a top-level task (also when the task is unknown). */
const parentOf = (db: Sqlite, taskId: number): number | null =>
  (
    stmt(db, 'SELECT parent_task_id FROM tasks WHERE task_id = ?').get(taskId) as
      | { parent_task_id: number | null }
      | undefined
  )?.parent_task_id ?? null;

/**
 * The checklist of a task or subtask, by position (spec: "ordered by index"). The contract's
 * addressing: an item on a subtask reports taskId = the parent and subtaskId = the subtask.
 */
export const readChecklist = (db: Sqlite, onTaskId: number): ChecklistItem[] => {
  const parent = parentOf(db, onTaskId);
  const rows = stmt(
    db,
    `SELECT checklist_id, task_id, name, completed, assignee_id, position, created_time, modified_time, extra
     FROM checklist_items WHERE task_id = ? ORDER BY position, checklist_id`,
  ).all(onTaskId) as ChecklistItemsTable[];
  return rows.map(
    (r): ChecklistItem => ({
      ...parseExtra(r.extra),
      checklistId: r.checklist_id,
      taskId: parent ?? r.task_id,
      subtaskId: parent === null ? null : r.task_id,
      name: r.name,
      completed: r.completed === 1,
      assigneeId: r.assignee_id,
      position: r.position,
      createdTime: toIso(r.created_time),
      modifiedTime: toIso(r.modified_time),
    }),
  );
};

const ATTACHMENT_COLUMNS =
  'attachment_id, task_id, project_id, file_name, extension, content_type, size, download_url, created_by, created_time, extra';

const attachmentDtos = (
  db: Sqlite,
  rows: readonly AttachmentsTable[],
  parentTaskId: number | null,
): Attachment[] => {
  const users = loadUserRefs(
    db,
    rows.map((r) => r.created_by),
  );
  return rows.map(
    (r): Attachment => ({
      ...parseExtra(r.extra),
      attachmentId: r.attachment_id,
      fileName: r.file_name,
      extension: r.extension,
      contentType: r.content_type,
      size: r.size,
      downloadUrl: r.download_url,
      // Like checklist items: on a subtask, taskId is the parent and subtaskId the subtask.
      taskId: r.task_id === null ? null : (parentTaskId ?? r.task_id),
      subtaskId: r.task_id !== null && parentTaskId !== null ? r.task_id : null,
      projectId: r.project_id,
      createdBy: refOf(users, r.created_by),
      createdTime: toIso(r.created_time),
    }),
  );
};

/** Attachments of a task or subtask, oldest first (the server's order). */
export const readTaskAttachments = (db: Sqlite, onTaskId: number): Attachment[] =>
  attachmentDtos(
    db,
    stmt(
      db,
      `SELECT ${ATTACHMENT_COLUMNS} FROM attachments WHERE task_id = ? ORDER BY created_time, attachment_id`,
    ).all(onTaskId) as AttachmentsTable[],
    parentOf(db, onTaskId),
  );

/** The file name of an attachment the replica holds, or null. */
export const attachmentFileName = (db: Sqlite, attachmentId: number): string | null =>
  (
    stmt(db, 'SELECT file_name FROM attachments WHERE attachment_id = ?').get(attachmentId) as
      | { file_name: string }
      | undefined
  )?.file_name ?? null;

/** Attachments of a project itself (not of its tasks), oldest first. */
export const readProjectAttachments = (db: Sqlite, projectId: number): Attachment[] =>
  attachmentDtos(
    db,
    stmt(
      db,
      `SELECT ${ATTACHMENT_COLUMNS} FROM attachments WHERE project_id = ? AND task_id IS NULL ORDER BY created_time, attachment_id`,
    ).all(projectId) as AttachmentsTable[],
    null,
  );

// ---- task detail ---------------------------------------------------------------------------

export interface TaskDetail {
  task: Task;
  /** Direct subtasks, by id (the server's default list order). */
  subtasks: Task[];
  checklist: ChecklistItem[];
  attachments: Attachment[];
  /** The signed-in user's timers on this task, oldest first; a running one keeps growing. */
  timers: TimerRecord[];
}

export const taskDetail = (db: Sqlite, taskId: number, nowMs: number): TaskDetail | null => {
  const task = readTask(db, taskId, nowMs);
  if (!task) return null;
  const subtaskIds = (
    stmt(db, 'SELECT task_id FROM tasks WHERE parent_task_id = ? ORDER BY task_id').all(taskId) as {
      task_id: number;
    }[]
  ).map((r) => r.task_id);
  return {
    task,
    subtasks: readTasks(db, subtaskIds, nowMs),
    checklist: readChecklist(db, taskId),
    attachments: readTaskAttachments(db, taskId),
    timers: timersOfTask(db, taskId, nowMs),
  };
};

// ---- status counts and the project board ---------------------------------------------------

export interface StatusCount {
  /** The status name as stored (null: a task without status). */
  status: string | null;
  count: number;
  /** How many of them are complete: a status whose tasks are all complete is a "done" one. */
  completed: number;
}

/**
 * Statuses come from the data, never from a fixed list (contract). Without a caller's order,
 * statuses holding open tasks come first, then the "done" ones, each by name; statuses named
 * in `statusOrder` (case-insensitive) come before all others, in that order.
 */
const compareStatuses =
  (statusOrder: readonly string[]) =>
  (a: StatusCount, b: StatusCount): number => {
    const rank = (s: StatusCount) => {
      const i = statusOrder.findIndex((o) => o.toLowerCase() === (s.status ?? '').toLowerCase());
      return i === -1 ? statusOrder.length : i;
    };
    const done = (s: StatusCount) => (s.count > 0 && s.completed === s.count ? 1 : 0);
    return (
      rank(a) - rank(b) ||
      done(a) - done(b) ||
      (a.status ?? '\uffff').localeCompare(b.status ?? '\uffff', 'en', { sensitivity: 'base' }) ||
      (a.status ?? '').localeCompare(b.status ?? '')
    );
  };

/** Tasks per status in a scope (any list of tasks-read.ts, unfiltered). */
export const statusCounts = (
  db: Sqlite,
  scope: TaskScope,
  opts: { statusOrder?: readonly string[] } = {},
): StatusCount[] => {
  const where = taskScopeSql(scope);
  const rows = stmt(
    db,
    `SELECT t.status AS status, COUNT(*) AS count, TOTAL(t.completed) AS completed
     FROM tasks t WHERE ${where.sql} GROUP BY t.status`,
  ).all(...where.params) as StatusCount[];
  return rows
    .map((r) => ({ status: r.status, count: r.count, completed: Math.round(r.completed) }))
    .sort(compareStatuses(opts.statusOrder ?? []));
};

export interface BoardColumn extends StatusCount {
  /** The first `perStatus` tasks of the column: oldest first (created time, then id). */
  tasks: Task[];
}

export interface ProjectBoard {
  projectId: number;
  total: number;
  columns: BoardColumn[];
}

/**
 * A project's top-level tasks by status. Cards are in creation order, which no edit other
 * than a status change moves, so the board does not reshuffle under the user. Columns hold
 * at most `perStatus` cards (default 200); `count` is always the full number.
 */
export const projectBoard = (
  db: Sqlite,
  projectId: number,
  nowMs: number,
  opts: { perStatus?: number; statusOrder?: readonly string[] } = {},
): ProjectBoard => {
  const counts = statusCounts(db, { kind: 'project', projectId }, opts);
  const perStatus = opts.perStatus ?? 200;
  const idsOf = stmt(
    db,
    `SELECT task_id FROM tasks WHERE project_id = ? AND parent_task_id IS NULL AND status IS ?
     ORDER BY created_time IS NULL, created_time, task_id LIMIT ?`,
  );
  const columnIds = counts.map((c) =>
    (idsOf.all(projectId, c.status, perStatus) as { task_id: number }[]).map((r) => r.task_id),
  );
  const tasks = new Map(readTasks(db, columnIds.flat(), nowMs).map((t) => [t.taskId, t]));
  return {
    projectId,
    total: counts.reduce((n, c) => n + c.count, 0),
    columns: counts.map((c, i) => ({
      ...c,
      tasks: (columnIds[i] ?? []).flatMap((id) => tasks.get(id) ?? []),
    })),
  };
};

// ---- my tasks --------------------------------------------------------------------------------

export interface MyTasks {
  /** Due before now (the server's `overdue`), most overdue first. */
  overdue: Task[];
  /** Due from now to the end of the current UTC day. */
  today: Task[];
  /** Due in the 7 UTC days after today. */
  upcoming: Task[];
  /** Full sizes of the buckets (the lists may be capped by `limit`). */
  counts: { overdue: number; today: number; upcoming: number };
}

/**
 * Open tasks (any level) the user owns, by due date then id. The buckets do not overlap and
 * `overdue` agrees with each task's own `overdue` flag: a task due at 09:00 today is overdue
 * at 10:00. That is the server's rule, in UTC days; My tasks' chips count by the user's own
 * day instead, as its groups do (shared/due-groups.ts, `dueGroupCounts`). Counts and the first `limit` ids of each bucket come from range scans of one
 * index on the owner rows (0005); DTOs are built only for the returned ones.
 */
export const myTasks = (
  db: Sqlite,
  userId: number,
  nowMs: number,
  opts: { limit?: number } = {},
): MyTasks => {
  const limit = opts.limit ?? 20;
  const endOfToday = Math.floor(nowMs / DAY_MS) * DAY_MS + DAY_MS;
  const endOfUpcoming = endOfToday + 7 * DAY_MS;
  const range =
    '\n     FROM task_owners INDEXED BY task_owners_due\n     WHERE user_id = ? AND completed = 0 AND due_date >= ? AND due_date < ?';
  const count = stmt(db, `SELECT COUNT(*) AS n ${range}`);
  const ids = stmt(db, `SELECT task_id AS id ${range} ORDER BY due_date, task_id LIMIT ?`);
  // Overdue: everything due before now (a NULL due date never is).
  const bounds = {
    overdue: [Number.MIN_SAFE_INTEGER, nowMs],
    today: [nowMs, endOfToday],
    upcoming: [endOfToday, endOfUpcoming],
  } as const;
  const shown = {} as Record<keyof typeof bounds, number[]>;
  const counts = {} as MyTasks['counts'];
  for (const key of ['overdue', 'today', 'upcoming'] as const) {
    const [from, to] = bounds[key];
    counts[key] = (count.get(userId, from, to) as { n: number }).n;
    shown[key] = (ids.all(userId, from, to, limit) as { id: number }[]).map((r) => r.id);
  }
  const tasks = new Map(
    readTasks(db, [...shown.overdue, ...shown.today, ...shown.upcoming], nowMs).map((t) => [
      t.taskId,
      t,
    ]),
  );
  const pick = (list: number[]) => list.flatMap((id) => tasks.get(id) ?? []);
  return {
    overdue: pick(shown.overdue),
    today: pick(shown.today),
    upcoming: pick(shown.upcoming),
    counts,
  };
};
