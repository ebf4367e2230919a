/** The overview of one space: its row with members, its projects with their task counts. */

import { projectTaskCounts, readSpaceProjects } from '../db/queries/space-overview';
import { readSpaces } from '../db/queries/spaces-read';
import type { Views } from './context';
import { withMark, withMarks } from './marks';

const NO_TASKS = { total: 0, done: 0, overdue: 0 };

export const spaceViews = {
  'spaces.overview': (ctx, { spaceId }) => {
    const space = readSpaces(ctx.db, [spaceId])[0];
    if (!space) return null;
    const projects = readSpaceProjects(ctx.db, spaceId, ctx.now);
    const counts = projectTaskCounts(
      ctx.db,
      projects.map((p) => p.projectId),
      ctx.now,
    );
    return {
      space: withMark(ctx.db, 'space', space, spaceId),
      projects: withMarks(ctx.db, 'project', projects, (p) => p.projectId).map((p) => ({
        ...p,
        tasks: counts.get(p.projectId) ?? NO_TASKS,
      })),
    };
  },
} satisfies Partial<Views>;
