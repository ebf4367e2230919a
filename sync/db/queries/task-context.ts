/**
 * What places a task for someone who meets it outside its project (My tasks, the task's
 * detail): its space, project and parent by name; and how a list's tasks fall into My tasks'
 * due-day groups (shared/due-groups.ts).
 */
import { type DueGroup, dueGroupBounds } from '../../../shared/due-groups';
import type { SqlFragment } from '../../../shared/filters/sql-fragment';
import { stmt } from '../kysely';
import type { Sqlite } from '../open';
import { IN_JSON, idsJson } from './id-list';
import { dynamicStmt } from './tasks-read';

export interface TaskPath {
  space: { spaceId: number; name: string } | null;
  project: { projectId: number; name: string } | null;
  /** The task a subtask belongs to (same-named subtasks differ by it). */
  parent: { taskId: number; title: string } | null;
}

interface PathRow {
  taskId: number;
  spaceId: number | null;
  spaceName: string | null;
  projectId: number | null;
  projectName: string | null;
  parentId: number | null;
  parentTitle: string | null;
}

// A subtask may carry no project or space of its own: its parent's place is its place.
const PATHS = `
  SELECT t.task_id AS taskId,
         s.space_id AS spaceId, s.space_name AS spaceName,
         pr.project_id AS projectId, pr.project_name AS projectName,
         p.task_id AS parentId, p.title AS parentTitle
  FROM tasks t
  LEFT JOIN tasks p ON p.task_id = t.parent_task_id
  LEFT JOIN projects pr ON pr.project_id = COALESCE(t.project_id, p.project_id)
  LEFT JOIN spaces s ON s.space_id = COALESCE(t.space_id, pr.space_id, p.space_id)
  WHERE t.task_id IN ${IN_JSON}`;

/** The path of each of these tasks the replica holds, by task id (one indexed read). */
export const taskPaths = (db: Sqlite, ids: readonly number[]): Map<number, TaskPath> => {
  const out = new Map<number, TaskPath>();
  if (ids.length === 0) return out;
  for (const r of stmt(db, PATHS).all(idsJson(ids)) as PathRow[]) {
    out.set(r.taskId, {
      space: r.spaceId === null ? null : { spaceId: r.spaceId, name: r.spaceName ?? '' },
      project: r.projectId === null ? null : { projectId: r.projectId, name: r.projectName ?? '' },
      parent: r.parentId === null ? null : { taskId: r.parentId, title: r.parentTitle ?? '' },
    });
  }
  return out;
};

export type DueGroupCounts = Record<DueGroup, number>;

/**
 * How many tasks of a list (`where` over `tasks t`: scope AND filters) fall in each due group
 * on the user's `today` (the UTC midnight of their calendar day). One pass over the list.
 */
export const dueGroupCounts = (db: Sqlite, where: SqlFragment, today: number): DueGroupCounts => {
  const b = dueGroupBounds(today);
  return dynamicStmt(
    db,
    `SELECT COUNT(*) FILTER (WHERE t.due_date < ?) AS overdue,
            COUNT(*) FILTER (WHERE t.due_date >= ? AND t.due_date < ?) AS today,
            COUNT(*) FILTER (WHERE t.due_date >= ? AND t.due_date < ?) AS upcoming,
            COUNT(*) FILTER (WHERE t.due_date >= ?) AS later,
            COUNT(*) FILTER (WHERE t.due_date IS NULL) AS none
     FROM tasks t WHERE ${where.sql}`,
  ).get(
    b.today,
    b.today,
    b.upcoming,
    b.upcoming,
    b.later,
    b.later,
    ...where.params,
  ) as DueGroupCounts;
};
