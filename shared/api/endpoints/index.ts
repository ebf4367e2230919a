import { authEndpoints } from './auth';
import { bulkEndpoints } from './bulk-export';
import { notificationEndpoints } from './notifications';
import { personalSubtaskEndpoints } from './personal-subtasks';
import { personalTaskEndpoints } from './personal-tasks';
import { projectAttachmentEndpoints } from './project-attachments';
import { projectSubtaskEndpoints } from './project-subtasks';
import { projectTaskEndpoints } from './project-tasks';
import { projectEndpoints } from './projects';
import { spaceEndpoints } from './spaces';
import { taskAttachmentEndpoints } from './task-attachments';
import { commentEndpoints } from './task-comments';
import { timerEndpoints } from './task-timer';
import { checklistEndpoints } from './tasks-checklist';

export * from './define';
export { createProjectTaskData } from './project-tasks';

/**
 * Every operation of the /v1 contract, keyed by operation id: one file per tag of the spec,
 * in the spec's order of `tags` (./define).
 */
export const endpoints = {
  ...authEndpoints,
  ...personalTaskEndpoints,
  ...personalSubtaskEndpoints,
  ...spaceEndpoints,
  ...projectEndpoints,
  ...projectTaskEndpoints,
  ...projectSubtaskEndpoints,
  ...checklistEndpoints,
  ...taskAttachmentEndpoints,
  ...projectAttachmentEndpoints,
  ...notificationEndpoints,
  ...timerEndpoints,
  ...commentEndpoints,
  ...bulkEndpoints,
} as const;
export type Endpoints = typeof endpoints;
export type OperationId = keyof Endpoints;
export const operationIds = Object.keys(endpoints) as OperationId[];
