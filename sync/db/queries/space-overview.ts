/**
 * A space's projects read for its overview: each with the counts of its top-level tasks (the
 * tasks its list and board show), done and overdue judged like the task DTO's `completed` and
 * `overdue` (tasks-read.ts `isOverdue`).
 */
import type { Project } from '../../../shared/api';
import { stmt } from '../kysely';
import type { Sqlite } from '../open';
import { IN_JSON, idsJson } from './id-list';
import { PROJECT_COLUMNS, type ProjectRow, projectDtos } from './projects-read';

export interface ProjectTaskCounts {
  total: number;
  done: number;
  overdue: number;
}

/** The space's projects, by id (the server's order), as DTOs. */
export const readSpaceProjects = (db: Sqlite, spaceId: number, nowMs: number): Project[] =>
  projectDtos(
    db,
    stmt(
      db,
      `SELECT ${PROJECT_COLUMNS} FROM projects p WHERE p.space_id = ? ORDER BY p.project_id`,
    ).all(spaceId) as ProjectRow[],
    nowMs,
  );

/** Counts per project id; a project without tasks has none (read it as zeros). */
export const projectTaskCounts = (
  db: Sqlite,
  projectIds: readonly number[],
  nowMs: number,
): Map<number, ProjectTaskCounts> => {
  const rows = stmt(
    db,
    `SELECT t.project_id AS projectId, COUNT(*) AS total, TOTAL(t.completed) AS done,
            TOTAL(t.completed = 0 AND t.due_date IS NOT NULL AND t.due_date < ?) AS overdue
     FROM tasks t
     WHERE t.project_id IN ${IN_JSON} AND t.parent_task_id IS NULL
     GROUP BY t.project_id`,
  ).all(nowMs, idsJson(projectIds)) as {
    projectId: number;
    total: number;
    done: number;
    overdue: number;
  }[];
  return new Map(
    rows.map((r) => [
      r.projectId,
      { total: r.total, done: Math.round(r.done), overdue: Math.round(r.overdue) },
    ]),
  );
};
