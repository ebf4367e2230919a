import { z } from 'zod';
import { attachment } from './attachments';
import { checklistItem } from './checklists';
import { cursor, opt } from './common';
import { project } from './projects';
import { task } from './tasks';

/** A bulk task item embeds its checklist and attachments (contract). */
export const bulkTask = task.extend({
  checklists: opt(z.array(checklistItem)),
  attachments: opt(z.array(attachment)),
});
export type BulkTask = z.infer<typeof bulkTask>;

export const bulkProject = project;

export const bulkQuery = z.object({
  modifiedSince: z.coerce.number().int().min(0).optional(),
  cursor: cursor.optional(),
  size: z.coerce.number().int().min(1).max(5_000).default(500),
});
export type BulkQuery = z.infer<typeof bulkQuery>;
