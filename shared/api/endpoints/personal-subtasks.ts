import { emptyObject } from '../common';
import { taskListQuery } from '../list-queries';
import { generalSubtaskCreateRequest, generalSubtaskUpdateRequest, task } from '../tasks';
import { endpoint } from './define';
import { taskPage } from './shared';

/** Personal Subtasks: Subtasks of personal tasks. */
export const personalSubtaskEndpoints = {
  getPersonalSubtasks: endpoint({
    tag: 'Personal Subtasks',
    method: 'GET',
    path: '/v1/tasks/{parentTaskId}/subtasks',
    source: 'spec',
    summary: 'List subtasks of a personal task',
    query: taskListQuery,
    data: taskPage,
  }),
  createPersonalSubtask: endpoint({
    tag: 'Personal Subtasks',
    method: 'POST',
    path: '/v1/tasks/{parentTaskId}/subtasks',
    source: 'spec',
    summary: 'Create a personal subtask',
    body: generalSubtaskCreateRequest,
    data: task,
  }),
  updatePersonalSubtask: endpoint({
    tag: 'Personal Subtasks',
    method: 'PUT',
    path: '/v1/tasks/{parentTaskId}/subtasks/{subtaskId}',
    source: 'spec',
    summary: 'Update a personal subtask',
    body: generalSubtaskUpdateRequest,
    data: task,
  }),
  deletePersonalSubtask: endpoint({
    tag: 'Personal Subtasks',
    method: 'DELETE',
    path: '/v1/tasks/{parentTaskId}/subtasks/{subtaskId}',
    source: 'spec',
    summary: 'Delete a personal subtask',
    data: emptyObject,
  }),
} as const;
