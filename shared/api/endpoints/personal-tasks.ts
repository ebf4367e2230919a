import { emptyObject } from '../common';
import { taskListQuery } from '../list-queries';
import { task, taskCreateRequest, taskUpdateRequest } from '../tasks';
import { endpoint } from './define';
import { taskPage } from './shared';

/** Personal Tasks: Tasks that belong to no project. */
export const personalTaskEndpoints = {
  getAll: endpoint({
    tag: 'Personal Tasks',
    method: 'GET',
    path: '/v1/tasks',
    source: 'spec',
    summary: 'List personal tasks',
    query: taskListQuery,
    data: taskPage,
  }),
  createTask: endpoint({
    tag: 'Personal Tasks',
    method: 'POST',
    path: '/v1/tasks',
    source: 'spec',
    summary: 'Create a personal task',
    body: taskCreateRequest,
    data: task,
  }),
  getTaskById: endpoint({
    tag: 'Personal Tasks',
    method: 'GET',
    path: '/v1/tasks/{taskId}',
    source: 'spec',
    summary: 'Get a task',
    data: task,
  }),
  updateTask: endpoint({
    tag: 'Personal Tasks',
    method: 'PUT',
    path: '/v1/tasks/{taskId}',
    source: 'spec',
    summary: 'Update a personal task',
    body: taskUpdateRequest,
    data: task,
  }),
  deleteTask: endpoint({
    tag: 'Personal Tasks',
    method: 'DELETE',
    path: '/v1/tasks/{taskId}',
    source: 'spec',
    summary: 'Delete a personal task',
    data: emptyObject,
  }),
} as const;
