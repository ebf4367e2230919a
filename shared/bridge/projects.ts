import { z } from 'zod';
import { userRef } from '../api/common';
import { customField } from '../api/custom-fields';
import { entityId } from '../edits/commands';
import { projectRow, spaceRow, syncMark, taskRow } from './common';
import { method, noInput } from './define';
import { statusCount } from './tasks';

export const spaceNode = spaceRow.extend({ projects: z.array(projectRow) });
export type SpaceNode = z.infer<typeof spaceNode>;

/** A project as navigation shows it: a big org has thousands, a full row is ~4 KB each. */
export const navProject = z.object({
  projectId: entityId,
  spaceId: entityId,
  projectName: z.string(),
  sync: syncMark,
});
export const navSpace = z.object({
  spaceId: entityId,
  spaceName: z.string(),
  sync: syncMark,
  projects: z.array(navProject),
});

export const boardColumn = statusCount.extend({
  /** The first cards of the column, oldest first; `count` is the full number. */
  tasks: z.array(taskRow),
});

export const projectMethods = {
  /** Every space of the org with its members and projects (by id). */
  'spaces.tree': method(noInput, z.object({ spaces: z.array(spaceNode) })),
  /** The same tree with names only: the sidebar's and the palette's. */
  'spaces.nav': method(noInput, z.object({ spaces: z.array(navSpace) })),
  /** Null when the project is not (or no longer) in the replica. */
  'projects.get': method(z.strictObject({ projectId: entityId }), projectRow.nullable()),
  'projects.board': method(
    z.strictObject({
      projectId: entityId,
      perStatus: z.number().int().min(1).max(500).default(200),
    }),
    z.object({
      projectId: entityId,
      total: z.number().int().min(0),
      columns: z.array(boardColumn),
    }),
  ),
  /** Every user the replica has seen (owners, members, authors), by name. */
  'users.list': method(noInput, z.object({ users: z.array(userRef) })),
  /**
   * Custom field definitions for a project's tasks (its space's and its own), or with no
   * project every definition of the org.
   */
  'customFields.forScope': method(
    z.strictObject({ projectId: entityId.optional() }),
    z.object({ fields: z.array(customField) }),
  ),
};
