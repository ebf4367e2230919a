import { page } from '../envelope';
import { task } from '../tasks';

/**
 * What the rows of several tags share. The task page is one instance, so that every list of
 * tasks names the same schema (one `TaskPage` in the OpenAPI document, one compiled parser).
 */
export const taskPage = page(task);

export const TASK_PATH = '/v1/tasks/{taskId}';
export const SUBTASK_PATH = `${TASK_PATH}/subtasks/{subtaskId}`;
export const PROJECTS_PATH = '/v1/spaces/{spaceId}/projects';
export const PROJECT_TASKS_PATH = `${PROJECTS_PATH}/{projectId}/tasks`;
