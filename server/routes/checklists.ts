import type { Router } from '../http/route';
import {
  createChecklistItem,
  deleteChecklistItem,
  listChecklist,
  updateChecklistItem,
} from '../store/checklists';
import { findSubtask, findTask } from '../store/lookup';

/**
 * Tasks Checklist: `/v1/tasks/{taskId}/checklists` takes any live task of the org (personal
 * or project task); the `/subtasks/{subtaskId}` variants take a subtask of that task only.
 */
export const registerChecklistRoutes = (r: Router) => {
  const { db } = r.deps;

  r.op('getAllCheckListsForTask', ({ params, ctx }) =>
    listChecklist(db, findTask(db, ctx.orgId, params.taskId)),
  );
  r.op('createCheckListForTask', ({ params, body, ctx }) =>
    createChecklistItem(db, findTask(db, ctx.orgId, params.taskId), body, ctx),
  );
  r.op('updateCheckListForTask', ({ params, body, ctx }) =>
    updateChecklistItem(db, findTask(db, ctx.orgId, params.taskId), params.checklistId, body, ctx),
  );
  r.op('deleteCheckListForTask', ({ params, ctx }) => {
    deleteChecklistItem(db, findTask(db, ctx.orgId, params.taskId), params.checklistId, ctx);
    return undefined;
  });

  const subtask = (orgId: number, p: { taskId: number; subtaskId: number }) =>
    findSubtask(db, orgId, p.taskId, p.subtaskId);

  r.op('getAllCheckListsForSubtask', ({ params, ctx }) =>
    listChecklist(db, subtask(ctx.orgId, params)),
  );
  r.op('createCheckListForSubtask', ({ params, body, ctx }) =>
    createChecklistItem(db, subtask(ctx.orgId, params), body, ctx),
  );
  r.op('updateCheckListForSubtask', ({ params, body, ctx }) =>
    updateChecklistItem(db, subtask(ctx.orgId, params), params.checklistId, body, ctx),
  );
  r.op('deleteCheckListForSubtask', ({ params, ctx }) => {
    deleteChecklistItem(db, subtask(ctx.orgId, params), params.checklistId, ctx);
    return undefined;
  });
};
