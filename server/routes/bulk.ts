import type { Router } from '../http/route';
import { bulkProjects, bulkTasks } from '../store/bulk';

/** The bulk export, the replica's source (semantics in ../store/bulk). */
export const registerBulkRoutes = (r: Router) => {
  const { db } = r.deps;
  r.op('bulkTasks', ({ query, ctx }) => bulkTasks(db, ctx.orgId, query, ctx.now));
  r.op('bulkProjects', ({ query, ctx }) => bulkProjects(db, ctx.orgId, query, ctx.now));
};
