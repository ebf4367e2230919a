import { emptyObject } from '../common';
import { taskListQuery } from '../list-queries';
import { projectSubtaskCreateRequest, projectSubtaskUpdateRequest, task } from '../tasks';
import { endpoint } from './define';
import { PROJECT_TASKS_PATH as PT, taskPage } from './shared';

/** Project Subtasks: Subtasks of project tasks. */
export const projectSubtaskEndpoints = {
  getProjectSubtasks: endpoint({
    tag: 'Project Subtasks',
    method: 'GET',
    path: `${PT}/{taskId}/subtasks`,
    source: 'contract',
    summary: 'List subtasks of a project task',
    query: taskListQuery,
    data: taskPage,
  }),
  createProjectSubtask: endpoint({
    tag: 'Project Subtasks',
    method: 'POST',
    path: `${PT}/{taskId}/subtasks`,
    source: 'contract',
    summary: 'Create a project subtask',
    body: projectSubtaskCreateRequest,
    data: task,
  }),
  updateSubtask: endpoint({
    tag: 'Project Subtasks',
    method: 'PUT',
    path: `${PT}/{taskId}/subtasks/{subtaskId}`,
    source: 'spec',
    summary: 'Update a project subtask',
    body: projectSubtaskUpdateRequest,
    data: task,
  }),
  deleteSubtask: endpoint({
    tag: 'Project Subtasks',
    method: 'DELETE',
    path: `${PT}/{taskId}/subtasks/{subtaskId}`,
    source: 'spec',
    summary: 'Delete a project subtask',
    data: emptyObject,
  }),
} as const;
