import type { Router } from '../http/route';
import { listComments } from '../store/comments';
import { liveTask } from '../store/task-paths';

/** Task comments, read only and paged. Any live task of the org (a subtask too); else 404. */
export const registerCommentRoutes = (r: Router) => {
  const { db } = r.deps;
  r.op('getTaskComments', ({ params, query, ctx }) => {
    const task = liveTask(db, ctx.orgId, params.taskId);
    return listComments(db, task.task_id, query.page, query.size);
  });
};
