import type { Task, UserRef } from '../../shared/api';
import type { Db } from '../db/open';
import { customFieldDto, loadFieldCatalog, loadFieldValues } from './custom-fields';
import { columnsOf, type Fields, isOverdue, toDto } from './dto-fields';
import { IN_IDS, idsParam, stmt } from './statements';
import { userRefs } from './users';

/** A row of `tasks`, as every task query selects it (TASK_COLUMNS, table aliased `t`). */
export interface TaskRow {
  task_id: number;
  org_id: number;
  space_id: number | null;
  project_id: number | null;
  parent_task_id: number | null;
  title: string;
  description: string;
  status: string;
  priority: string;
  start_date: number | null;
  due_date: number | null;
  completion: number;
  completed: number;
  completed_time: number | null;
  created_by: number;
  modified_by: number;
  created_time: number;
  modified_time: number;
  deleted: number;
  deleted_time: number | null;
  deleted_by: number | null;
}

/** What a task DTO takes from elsewhere than its row's columns. */
export type TaskPart =
  | 'tags'
  | 'owners'
  | 'overdue'
  | 'customFields'
  | 'subtaskCount'
  | 'checklistCount'
  | 'checklistCompletedCount'
  | 'attachmentCount';

/** The TaskDto's fields (./dto-fields): every task answer, and the bulk export's items. */
export const taskFields = [
  { key: 'taskId', column: 'task_id', shown: 'num' },
  { key: 'tenantId', column: 'org_id', shown: 'num' },
  { key: 'spaceId', column: 'space_id', shown: 'num' },
  { key: 'projectId', column: 'project_id', shown: 'num' },
  { key: 'parentTaskId', column: 'parent_task_id', shown: 'num' },
  { key: 'taskTitle', column: 'title', shown: 'str' },
  { key: 'description', column: 'description', shown: 'str' },
  { key: 'status', column: 'status', shown: 'str' },
  { key: 'priority', column: 'priority', shown: 'str' },
  { key: 'tags', part: 'tags' },
  { key: 'owners', part: 'owners' },
  { key: 'startDate', column: 'start_date', shown: 'iso' },
  { key: 'dueDate', column: 'due_date', shown: 'iso' },
  { key: 'completion', column: 'completion', shown: 'num' },
  { key: 'completedTime', column: 'completed_time', shown: 'iso' },
  { key: 'overdue', part: 'overdue' },
  { key: 'createdBy', column: 'created_by', shown: 'ref' },
  { key: 'modifiedBy', column: 'modified_by', shown: 'ref' },
  { key: 'createdTime', column: 'created_time', shown: 'iso' },
  { key: 'modifiedTime', column: 'modified_time', shown: 'iso' },
  { key: 'deleted', column: 'deleted', shown: 'flag' },
  { key: 'deletedTime', column: 'deleted_time', shown: 'iso' },
  { key: 'customFields', part: 'customFields' },
  { key: 'subtaskCount', part: 'subtaskCount' },
  { key: 'checklistCount', part: 'checklistCount' },
  { key: 'checklistCompletedCount', part: 'checklistCompletedCount' },
  { key: 'attachmentCount', part: 'attachmentCount' },
] as const satisfies Fields<TaskRow, TaskPart>;

/** The columns every task query selects: the fields', then what parts and writes read. */
export const TASK_COLUMN_LIST = columnsOf<TaskRow>(taskFields, ['completed', 'deleted_by']);

export const TASK_COLUMNS = TASK_COLUMN_LIST.map((c) => `t.${c}`).join(', ');

const loadTaskRow = (db: Db, taskId: number): TaskRow | undefined =>
  stmt(db, `SELECT ${TASK_COLUMNS} FROM tasks t WHERE t.task_id = ?`).get(taskId) as
    | TaskRow
    | undefined;

const groupPairs = <V>(rows: { id: number; v: V }[]): Map<number, V[]> => {
  const out = new Map<number, V[]>();
  for (const r of rows) {
    const list = out.get(r.id);
    if (list) list.push(r.v);
    else out.set(r.id, [r.v]);
  }
  return out;
};

const counts = (db: Db, sql: string, ids: string): Map<number, { n: number; done: number }> => {
  const rows = stmt(db, sql).all(ids) as { id: number; n: number; done: number | null }[];
  return new Map(rows.map((r) => [r.id, { n: r.n, done: r.done ?? 0 }]));
};

export interface TaskDtoBatch {
  dtos: Task[];
  /** Every user the DTOs reference, plus `extraUserIds`: reused for embedded items. */
  users: Map<number, UserRef>;
}

/**
 * TaskDtos, exactly the contract's fields (the stored `completed` flag shows as status and
 * completedTime), for a page of rows in the rows' order, with a fixed number of queries
 * whatever the page size (owners, tags, counts, custom fields, users): never one per task.
 * `overdue` is computed at read time against `now` (due before now and not complete).
 */
const buildTaskDtos = (
  db: Db,
  rows: readonly TaskRow[],
  now: number,
  extraUserIds: Iterable<number> = [],
): TaskDtoBatch => {
  const first = rows[0];
  if (!first) return { dtos: [], users: userRefs(db, extraUserIds) };
  const ids = rows.map((r) => r.task_id);
  const p = idsParam(ids);

  const owners = groupPairs(
    stmt(
      db,
      `SELECT task_id AS id, user_id AS v FROM task_owners WHERE task_id IN ${IN_IDS} ORDER BY task_id, user_id`,
    ).all(p) as { id: number; v: number }[],
  );
  const tags = groupPairs(
    stmt(
      db,
      `SELECT task_id AS id, name AS v FROM task_tags WHERE task_id IN ${IN_IDS} ORDER BY task_id, name`,
    ).all(p) as { id: number; v: string }[],
  );
  const subtasks = counts(
    db,
    `SELECT parent_task_id AS id, COUNT(*) AS n, 0 AS done FROM tasks WHERE parent_task_id IN ${IN_IDS} AND deleted = 0 GROUP BY parent_task_id`,
    p,
  );
  const checklists = counts(
    db,
    `SELECT task_id AS id, COUNT(*) AS n, SUM(completed) AS done FROM checklist_items WHERE task_id IN ${IN_IDS} GROUP BY task_id`,
    p,
  );
  const attachments = counts(
    db,
    `SELECT task_id AS id, COUNT(*) AS n, 0 AS done FROM attachments WHERE task_id IN ${IN_IDS} GROUP BY task_id`,
    p,
  );
  const catalog = loadFieldCatalog(
    db,
    first.org_id,
    rows.map((r) => r.space_id),
    rows.map((r) => r.project_id),
  );
  const values =
    catalog.defs.length > 0 ? loadFieldValues(db, ids) : new Map<number, Map<number, unknown>>();

  const userIds: number[] = [...extraUserIds, ...catalog.userIds()];
  for (const r of rows) {
    userIds.push(r.created_by, r.modified_by);
    for (const o of owners.get(r.task_id) ?? []) userIds.push(o);
  }
  const users = userRefs(db, userIds);
  const ref = (id: number): UserRef => users.get(id) ?? { userId: id };

  const parts: Record<TaskPart, (r: TaskRow) => unknown> = {
    tags: (r) => tags.get(r.task_id) ?? [],
    owners: (r) => (owners.get(r.task_id) ?? []).map(ref),
    overdue: (r) => isOverdue(r.due_date, r.completed, now),
    customFields: (r) => {
      const taskValues = values.get(r.task_id);
      return catalog
        .forScope({ spaceId: r.space_id, projectId: r.project_id })
        .map((def) =>
          customFieldDto(
            def,
            catalog,
            users,
            taskValues?.has(def.field_id)
              ? [{ taskId: r.task_id, value: taskValues.get(def.field_id) }]
              : [],
          ),
        );
    },
    subtaskCount: (r) => subtasks.get(r.task_id)?.n ?? 0,
    checklistCount: (r) => checklists.get(r.task_id)?.n ?? 0,
    checklistCompletedCount: (r) => checklists.get(r.task_id)?.done ?? 0,
    attachmentCount: (r) => attachments.get(r.task_id)?.n ?? 0,
  };
  const dtos = rows.map((r) => toDto(taskFields, r, parts, ref) as Task);
  return { dtos, users };
};

export const taskDtos = (db: Db, rows: readonly TaskRow[], now: number): Task[] =>
  buildTaskDtos(db, rows, now).dtos;

/** One task's DTO (after a create or an update: the row is re-read, so it shows what was stored). */
export const taskDtoById = (db: Db, taskId: number, now: number): Task => {
  const row = loadTaskRow(db, taskId);
  if (!row) throw new Error(`task ${taskId} vanished inside its own transaction`);
  const [dto] = taskDtos(db, [row], now);
  if (!dto) throw new Error(`no DTO for task ${taskId}`);
  return dto;
};
