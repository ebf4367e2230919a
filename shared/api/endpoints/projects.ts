import { emptyObject } from '../common';
import { page } from '../envelope';
import { projectListQuery } from '../list-queries';
import { project, projectCreateRequest, projectUpdateRequest } from '../projects';
import { endpoint } from './define';
import { PROJECTS_PATH as P } from './shared';

/** Projects: Projects of a space. */
export const projectEndpoints = {
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
} as const;
