import type { Router } from '../http/route';
import { bulkProjectsJson, bulkTasksJson } from '../store/bulk';

/** The bulk export, the replica's source (semantics in ../store/bulk). */
export const registerBulkRoutes = (r: Router) => {
  const { db } = r.deps;
  r.op('bulkTasks', ({ query, ctx }) => bulkTasksJson(db, ctx.orgId, query, ctx.now));
  r.op('bulkProjects', ({ query, ctx }) => bulkProjectsJson(db, ctx.orgId, query, ctx.now));
};
