import type { Router } from '../http/route';
import {
  activeTimers,
  addManual,
  addRange,
  deleteTimer,
  pauseTimer,
  personalTask,
  projectTask,
  resumeTimer,
  startTimer,
  stopTimer,
  taskTimers,
  updateTimer,
} from '../store/timers';
import {
  checkWindow,
  projectTimesheet,
  projectTimesheetSummary,
  userTimesheet,
} from '../store/timesheets';

/**
 * Task Timer. The personal variants take a task outside any project (404 for a project
 * task); the project variants take a task of that project. Moves by trackId act on the
 * caller's own timers only.
 */
export const registerTimerRoutes = (r: Router) => {
  const { db } = r.deps;

  // Personal tasks
  r.op('startTimer', ({ params, body, ctx }) =>
    startTimer(db, ctx, personalTask(db, ctx.orgId, params.taskId), null, body),
  );
  r.op('addNewTimeRange', ({ params, body, ctx }) =>
    addRange(db, ctx, personalTask(db, ctx.orgId, params.taskId), null, body),
  );
  r.op('addNewManualTime', ({ params, body, ctx }) =>
    addManual(db, ctx, personalTask(db, ctx.orgId, params.taskId), null, body),
  );

  // Project tasks
  const inProject = (orgId: number, p: { projectId: number; taskId: number }) =>
    projectTask(db, orgId, p.projectId, p.taskId);
  r.op('startProjectTaskTimer', ({ params, body, ctx }) =>
    startTimer(db, ctx, inProject(ctx.orgId, params), params.projectId, body),
  );
  r.op('addRangeTimerForProjectTask', ({ params, body, ctx }) =>
    addRange(db, ctx, inProject(ctx.orgId, params), params.projectId, body),
  );
  r.op('addNewManualTimeForTask', ({ params, body, ctx }) =>
    addManual(db, ctx, inProject(ctx.orgId, params), params.projectId, body),
  );

  // Moves and edits of one record
  r.op('pauseTimer', ({ params, ctx }) => pauseTimer(db, ctx, params.trackId));
  r.op('resumeTimer', ({ params, ctx }) => resumeTimer(db, ctx, params.trackId));
  r.op('stopTimer', ({ params, body, ctx }) => stopTimer(db, ctx, params.trackId, body));
  r.op('updateTimer', ({ params, body, ctx }) => updateTimer(db, ctx, params.trackId, body));
  r.op('deleteTimeTracker', ({ params, ctx }) => {
    deleteTimer(db, ctx, params.trackId);
    return undefined;
  });

  // Reading
  r.op('getActiveTimers', ({ ctx }) => activeTimers(db, ctx));
  r.op('getTaskTimers', ({ params, ctx }) => taskTimers(db, ctx, params.taskId));
  r.op('getTimesheet', ({ query, ctx }) => userTimesheet(db, ctx, checkWindow(query)));
  r.op('getProjectTimesheet', ({ params, query, ctx }) =>
    projectTimesheet(db, ctx.orgId, params.projectId, checkWindow(query), ctx.now),
  );
  r.op('getProjectTimesheetSummary', ({ params, query, ctx }) =>
    projectTimesheetSummary(db, ctx.orgId, params.projectId, checkWindow(query), ctx.now),
  );
};
