import type { ChecklistCreateRequest, ChecklistUpdateRequest } from '../../shared/api';
import type { Db } from '../db/open';
import type { Ctx, Router } from '../http/route';
import {
  createChecklistItem,
  deleteChecklistItem,
  listChecklist,
  updateChecklistItem,
} from '../store/checklists';
import { findSubtask, findTask, type TaskRef } from '../store/lookup';

type WithId<P> = P & { checklistId: number };

/** The four checklist operations on the task a path names; task and subtask paths differ only there. */
const checklistHandlers = <P>(db: Db, taskOf: (orgId: number, params: P) => TaskRef) => ({
  list: ({ params, ctx }: { params: P; ctx: Ctx }) => listChecklist(db, taskOf(ctx.orgId, params)),
  create: ({ params, body, ctx }: { params: P; body: ChecklistCreateRequest; ctx: Ctx }) =>
    createChecklistItem(db, taskOf(ctx.orgId, params), body, ctx),
  update: ({ params, body, ctx }: { params: WithId<P>; body: ChecklistUpdateRequest; ctx: Ctx }) =>
    updateChecklistItem(db, taskOf(ctx.orgId, params), params.checklistId, body, ctx),
  remove: ({ params, ctx }: { params: WithId<P>; ctx: Ctx }) => {
    deleteChecklistItem(db, taskOf(ctx.orgId, params), params.checklistId, ctx);
    return undefined;
  },
});

/**
 * Tasks Checklist: `/v1/tasks/{taskId}/checklists` takes any live task of the org (personal
 * or project task); the `/subtasks/{subtaskId}` variants take a subtask of that task only.
 */
export const registerChecklistRoutes = (r: Router) => {
  const { db } = r.deps;

  const task = checklistHandlers(db, (orgId, p: { taskId: number }) =>
    findTask(db, orgId, p.taskId),
  );
  r.op('getAllCheckListsForTask', task.list);
  r.op('createCheckListForTask', task.create);
  r.op('updateCheckListForTask', task.update);
  r.op('deleteCheckListForTask', task.remove);

  const subtask = checklistHandlers(db, (orgId, p: { taskId: number; subtaskId: number }) =>
    findSubtask(db, orgId, p.taskId, p.subtaskId),
  );
  r.op('getAllCheckListsForSubtask', subtask.list);
  r.op('createCheckListForSubtask', subtask.create);
  r.op('updateCheckListForSubtask', subtask.update);
  r.op('deleteCheckListForSubtask', subtask.remove);
};
