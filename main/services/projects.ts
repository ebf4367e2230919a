import { type UserRef, userRef } from '../../shared/api/common';
import type { CustomField } from '../../shared/api/custom-fields';
import { stmt } from '../../sync/db/kysely';
import {
  PROJECT_COLUMNS,
  type ProjectRow,
  projectDtos,
  readProject,
} from '../../sync/db/queries/projects-read';
import { readSpaces } from '../../sync/db/queries/spaces-read';
import { fieldDto, fieldsForScope, loadFieldDefinitions } from '../../sync/db/queries/tasks-read';
import { projectBoard } from '../../sync/db/queries/views';
import type { ReadContext } from './context';
import { withMark, withMarks } from './marks';

/** Each space with its projects, in the order of both lists. */
const withProjects = <S extends { spaceId: number }, P extends { spaceId: number }>(
  spaces: readonly S[],
  projects: readonly P[],
): (S & { projects: P[] })[] => {
  const bySpace = new Map(spaces.map((s) => [s.spaceId, { ...s, projects: [] as P[] }]));
  for (const p of projects) bySpace.get(p.spaceId)?.projects.push(p);
  return [...bySpace.values()];
};

/** Every space with its projects, by id: the spaces view's tree, projects in full. */
export const spacesTree = (ctx: ReadContext) => {
  const rows = stmt(
    ctx.db,
    `SELECT ${PROJECT_COLUMNS} FROM projects p ORDER BY p.project_id`,
  ).all() as ProjectRow[];
  const projects = withMarks(
    ctx.db,
    'project',
    projectDtos(ctx.db, rows, ctx.now),
    (p) => p.projectId,
  );
  const spaces = withMarks(ctx.db, 'space', readSpaces(ctx.db), (s) => s.spaceId);
  return { spaces: withProjects(spaces, projects) };
};

/**
 * The navigation tree: names and ids only, for the sidebar and the palette. On the 100k bench
 * org the full tree is ~9 MB of JSON and 80-120 ms to build; this is ~170 KB and ~4 ms.
 */
export const spacesNav = (ctx: ReadContext) => {
  const projects = withMarks(
    ctx.db,
    'project',
    stmt(
      ctx.db,
      'SELECT project_id AS projectId, space_id AS spaceId, project_name AS projectName FROM projects ORDER BY project_id',
    ).all() as { projectId: number; spaceId: number; projectName: string }[],
    (p) => p.projectId,
  );
  const spaces = withMarks(
    ctx.db,
    'space',
    stmt(
      ctx.db,
      'SELECT space_id AS spaceId, space_name AS spaceName FROM spaces ORDER BY space_id',
    ).all() as { spaceId: number; spaceName: string }[],
    (s) => s.spaceId,
  );
  return { spaces: withProjects(spaces, projects) };
};

export const projectView = (ctx: ReadContext, projectId: number) => {
  const p = readProject(ctx.db, projectId, ctx.now);
  return p ? withMark(ctx.db, 'project', p, p.projectId) : null;
};

export const boardView = (ctx: ReadContext, projectId: number, perStatus: number) => {
  const board = projectBoard(ctx.db, projectId, ctx.now, { perStatus });
  return {
    ...board,
    columns: board.columns.map((c) => ({
      ...c,
      tasks: withMarks(ctx.db, 'task', c.tasks, (t) => t.taskId),
    })),
  };
};

/** Users seen in server data, by name; a stored reference that no longer parses is skipped. */
export const usersList = (ctx: ReadContext) => {
  const rows = stmt(
    ctx.db,
    `SELECT ref FROM users ORDER BY first_name IS NULL, first_name, last_name, user_id`,
  ).all() as { ref: string }[];
  const users: UserRef[] = [];
  for (const r of rows) {
    const parsed = userRef.safeParse(JSON.parse(r.ref));
    if (parsed.success) users.push(parsed.data);
  }
  return { users };
};

/** The definitions a project's tasks carry (its space's, then its own), or every one. */
export const customFieldsFor = (ctx: ReadContext, projectId: number | undefined) => {
  let fields: CustomField[];
  if (projectId === undefined) {
    const ids = (sql: string) => (stmt(ctx.db, sql).all() as { id: number }[]).map((r) => r.id);
    const defs = loadFieldDefinitions(
      ctx.db,
      ids('SELECT space_id AS id FROM spaces'),
      ids('SELECT project_id AS id FROM projects'),
    );
    fields = defs.map((d) => fieldDto(d, []));
  } else {
    const place = stmt(ctx.db, 'SELECT space_id FROM projects WHERE project_id = ?').get(
      projectId,
    ) as { space_id: number } | undefined;
    const spaceId = place?.space_id ?? null;
    const defs = loadFieldDefinitions(ctx.db, [spaceId], [projectId]);
    fields = fieldsForScope(defs, spaceId, projectId).map((d) => fieldDto(d, []));
  }
  return { fields };
};
