import { z } from 'zod';
import { emptyObject } from '../common';
import { space, spaceCreateRequest, spaceUpdateRequest } from '../spaces';
import { endpoint } from './define';

/** Spaces: Spaces, which contain projects. */
export const spaceEndpoints = {
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
} as const;
