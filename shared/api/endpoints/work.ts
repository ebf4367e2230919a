import { z } from 'zod';
import { comment } from '../comments';
import { emptyObject } from '../common';
import { page } from '../envelope';
import { commentListQuery, projectListQuery, taskListQuery } from '../list-queries';
import { project, projectCreateRequest, projectUpdateRequest } from '../projects';
import { space, spaceCreateRequest, spaceUpdateRequest } from '../spaces';
import {
  generalSubtaskCreateRequest,
  generalSubtaskUpdateRequest,
  projectSubtaskCreateRequest,
  projectSubtaskUpdateRequest,
  projectTaskCreateRequest,
  projectTaskUpdateRequest,
  task,
  taskCreateRequest,
  taskUpdateRequest,
} from '../tasks';
import { endpoint } from './define';

const P = '/v1/spaces/{spaceId}/projects';
const PT = `${P}/{projectId}/tasks`;
const taskPage = page(task);

/**
 * The create-project-task answer: the spec documents the project shape, the reference
 * server answers the task unless started with the quirk. Either parses; the client tells
 * them apart by `taskId`.
 */
export const createProjectTaskData = z.union([task, project]);

/** Tasks, subtasks, spaces, projects and comments. */
export const workEndpoints = {
  // Personal Tasks
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

  // Personal Subtasks
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

  // Spaces
  getAllSpaces: endpoint({
    tag: 'Spaces',
    method: 'GET',
    path: '/v1/spaces',
    source: 'spec',
    summary: 'List spaces',
    data: z.array(space),
  }),
  createSpace: endpoint({
    tag: 'Spaces',
    method: 'POST',
    path: '/v1/spaces',
    source: 'spec',
    summary: 'Create a space',
    body: spaceCreateRequest,
    data: space,
  }),
  getSpaceById: endpoint({
    tag: 'Spaces',
    method: 'GET',
    path: '/v1/spaces/{spaceId}',
    source: 'spec',
    summary: 'Get a space',
    data: space,
  }),
  updateSpace: endpoint({
    tag: 'Spaces',
    method: 'PUT',
    path: '/v1/spaces/{spaceId}',
    source: 'spec',
    summary: 'Update a space',
    body: spaceUpdateRequest,
    data: space,
  }),
  deleteSpace: endpoint({
    tag: 'Spaces',
    method: 'DELETE',
    path: '/v1/spaces/{spaceId}',
    source: 'spec',
    summary: 'Delete a space',
    data: emptyObject,
  }),

  // Projects
  getAll_2: endpoint({
    tag: 'Projects',
    method: 'GET',
    path: P,
    source: 'spec',
    summary: 'List projects of a space',
    query: projectListQuery,
    data: page(project),
  }),
  createProject: endpoint({
    tag: 'Projects',
    method: 'POST',
    path: P,
    source: 'spec',
    summary: 'Create a project',
    body: projectCreateRequest,
    data: project,
  }),
  getProjectById: endpoint({
    tag: 'Projects',
    method: 'GET',
    path: `${P}/{projectId}`,
    source: 'spec',
    summary: 'Get a project',
    data: project,
  }),
  updateProject: endpoint({
    tag: 'Projects',
    method: 'PUT',
    path: `${P}/{projectId}`,
    source: 'spec',
    summary: 'Update a project',
    body: projectUpdateRequest,
    data: project,
  }),
  deleteProject: endpoint({
    tag: 'Projects',
    method: 'DELETE',
    path: `${P}/{projectId}`,
    source: 'spec',
    summary: 'Delete a project',
    data: emptyObject,
  }),

  // Project Tasks
  getAllTasksInProject_1: endpoint({
    tag: 'Project Tasks',
    method: 'GET',
    path: PT,
    source: 'spec',
    summary: 'List tasks of a project',
    query: taskListQuery,
    data: taskPage,
  }),
  createProjectTask: endpoint({
    tag: 'Project Tasks',
    method: 'POST',
    path: PT,
    source: 'spec',
    summary: 'Create a project task (documented to answer the project)',
    body: projectTaskCreateRequest,
    data: createProjectTaskData,
  }),
  getProjectTaskById: endpoint({
    tag: 'Project Tasks',
    method: 'GET',
    path: `${PT}/{taskId}`,
    source: 'spec',
    summary: 'Get a project task',
    data: task,
  }),
  updateProjectTask: endpoint({
    tag: 'Project Tasks',
    method: 'PUT',
    path: `${PT}/{taskId}`,
    source: 'spec',
    summary: 'Update a project task',
    body: projectTaskUpdateRequest,
    data: task,
  }),
  deleteProjectTask: endpoint({
    tag: 'Project Tasks',
    method: 'DELETE',
    path: `${PT}/{taskId}`,
    source: 'spec',
    summary: 'Delete a project task',
    data: emptyObject,
  }),

  // Project Subtasks
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

  // Task Comments (read only)
  getTaskComments: endpoint({
    tag: 'Task Comments',
    method: 'GET',
    path: '/v1/tasks/{taskId}/comments',
    source: 'contract',
    summary: 'List comments of a task',
    query: commentListQuery,
    data: page(comment),
  }),
} as const;
