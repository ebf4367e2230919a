/** The views of spaces and projects, and the lists beside them (users, custom fields). */
import { fieldDefinitionsFor } from '../db/queries/custom-fields';
import { readAllProjects, readProject } from '../db/queries/projects-read';
import { navigationRows, readSpaces } from '../db/queries/spaces-read';
import { usersByName } from '../db/queries/users';
import { projectBoard } from '../db/queries/views';
import type { Views } from './context';
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

/** The methods of spaces and projects, under their bridge names. */
export const projectViews = {
  /** Every space with its projects, by id: the spaces view's tree, projects in full. */
  'spaces.tree': (ctx) => {
    const projects = withMarks(
      ctx.db,
      'project',
      readAllProjects(ctx.db, ctx.now),
      (p) => p.projectId,
    );
    const spaces = withMarks(ctx.db, 'space', readSpaces(ctx.db), (s) => s.spaceId);
    return { spaces: withProjects(spaces, projects) };
  },

  /** The navigation tree: names and ids only, for the sidebar and the palette. */
  'spaces.nav': (ctx) => {
    const rows = navigationRows(ctx.db);
    const projects = withMarks(ctx.db, 'project', rows.projects, (p) => p.projectId);
    const spaces = withMarks(ctx.db, 'space', rows.spaces, (s) => s.spaceId);
    return { spaces: withProjects(spaces, projects) };
  },

  'projects.get': (ctx, { projectId }) => {
    const p = readProject(ctx.db, projectId, ctx.now);
    return p ? withMark(ctx.db, 'project', p, p.projectId) : null;
  },

  'projects.board': (ctx, { projectId, perStatus }) => {
    const board = projectBoard(ctx.db, projectId, ctx.now, { perStatus });
    return {
      ...board,
      columns: board.columns.map((c) => ({
        ...c,
        tasks: withMarks(ctx.db, 'task', c.tasks, (t) => t.taskId),
      })),
    };
  },

  'users.list': (ctx) => ({
    users: usersByName(ctx.db),
  }),

  /** The definitions a project's tasks carry (its space's, then its own), or every one. */
  'customFields.forScope': (ctx, { projectId }) => ({
    fields: fieldDefinitionsFor(ctx.db, projectId),
  }),
} satisfies Partial<Views>;
