import { comment } from '../comments';
import { page } from '../envelope';
import { commentListQuery } from '../list-queries';
import { endpoint } from './define';

/** Task Comments: Comments of a task (read only). */
export const commentEndpoints = {
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
