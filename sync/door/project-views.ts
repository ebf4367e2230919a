/** The views of spaces and projects, and the lists beside them (users, custom fields). */
import { fieldDefinitionsFor } from '../db/queries/custom-fields';
import { readAllProjects, readProject } from '../db/queries/projects-read';
import { navigationRows, readSpaces } from '../db/queries/spaces-read';
import { usersByName } from '../db/queries/users';
import { projectBoard } from '../db/queries/views';
import type { Answer, ViewContext } from './context';
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
export const spacesTree = (ctx: ViewContext): Answer<'spaces.tree'> => {
  const projects = withMarks(
    ctx.db,
    'project',
    readAllProjects(ctx.db, ctx.now),
    (p) => p.projectId,
  );
  const spaces = withMarks(ctx.db, 'space', readSpaces(ctx.db), (s) => s.spaceId);
  return { spaces: withProjects(spaces, projects) };
};

/** The navigation tree: names and ids only, for the sidebar and the palette. */
export const spacesNav = (ctx: ViewContext): Answer<'spaces.nav'> => {
  const rows = navigationRows(ctx.db);
  const projects = withMarks(ctx.db, 'project', rows.projects, (p) => p.projectId);
  const spaces = withMarks(ctx.db, 'space', rows.spaces, (s) => s.spaceId);
  return { spaces: withProjects(spaces, projects) };
};

export const projectView = (ctx: ViewContext, projectId: number): Answer<'projects.get'> => {
  const p = readProject(ctx.db, projectId, ctx.now);
  return p ? withMark(ctx.db, 'project', p, p.projectId) : null;
};

export const boardView = (
  ctx: ViewContext,
  projectId: number,
  perStatus: number,
): Answer<'projects.board'> => {
  const board = projectBoard(ctx.db, projectId, ctx.now, { perStatus });
  return {
    ...board,
    columns: board.columns.map((c) => ({
      ...c,
      tasks: withMarks(ctx.db, 'task', c.tasks, (t) => t.taskId),
    })),
  };
};

export const usersList = (ctx: ViewContext): Answer<'users.list'> => ({
  users: usersByName(ctx.db),
});

/** The definitions a project's tasks carry (its space's, then its own), or every one. */
export const customFieldsFor = (
  ctx: ViewContext,
  projectId: number | undefined,
): Answer<'customFields.forScope'> => ({ fields: fieldDefinitionsFor(ctx.db, projectId) });
