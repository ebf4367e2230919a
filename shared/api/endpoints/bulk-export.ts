import { bulkProject, bulkQuery, bulkTask } from '../bulk';
import { bulkPage } from '../envelope';
import { endpoint } from './define';

/** Bulk Export: Cursor-paged export of everything, with tombstones, for sync. */
export const bulkEndpoints = {
  bulkTasks: endpoint({
    tag: 'Bulk Export',
    method: 'GET',
    path: '/v1/bulk/tasks',
    source: 'contract',
    summary: 'All tasks and subtasks, by (modifiedTime, id), with tombstones',
    query: bulkQuery,
    data: bulkPage(bulkTask),
  }),
  bulkProjects: endpoint({
    tag: 'Bulk Export',
    method: 'GET',
    path: '/v1/bulk/projects',
    source: 'contract',
    summary: 'All projects, by (modifiedTime, id), with tombstones',
    query: bulkQuery,
    data: bulkPage(bulkProject),
  }),
} as const;
