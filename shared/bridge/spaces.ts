import { z } from 'zod';
import { entityId } from '../edits/commands';
import { projectRow, spaceRow } from './common';
import { method } from './define';

/** A project's top-level tasks (what its list and board show): all, done, overdue. */
export const projectTasks = z.object({
  total: z.number().int().min(0),
  done: z.number().int().min(0),
  overdue: z.number().int().min(0),
});

/** One space at a glance: its members, and its projects with how far along each is. */
export const spaceOverview = z.object({
  space: spaceRow,
  projects: z.array(projectRow.extend({ tasks: projectTasks })),
});
export type SpaceOverview = z.infer<typeof spaceOverview>;

export const spaceMethods = {
  /** Null when the space is not (or no longer) in the replica. */
  'spaces.overview': method(z.strictObject({ spaceId: entityId }), spaceOverview.nullable()),
};
