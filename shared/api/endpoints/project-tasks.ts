import { z } from 'zod';
import { emptyObject } from '../common';
import { taskListQuery } from '../list-queries';
import { project } from '../projects';
import { projectTaskCreateRequest, projectTaskUpdateRequest, task } from '../tasks';
import { endpoint } from './define';
import { PROJECT_TASKS_PATH as PT, taskPage } from './shared';

/**
 * The create-project-task answer: the spec documents the project shape, the reference
 * server answers the task unless started with the quirk. Either parses; the client tells
 * them apart by `taskId`.
 */
export const createProjectTaskData = z.union([task, project]);

/** Project Tasks: Tasks of a project. */
export const projectTaskEndpoints = {
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
} as const;
