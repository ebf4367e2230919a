import { frag } from '../../shared/filters/sql-fragment';
import type { Router } from '../http/route';
import { listTasks } from '../store/task-list';
import {
  liveTask,
  personalSubtask,
  personalSubtaskParent,
  personalTask,
} from '../store/task-paths';
import { createTask, deleteTaskAndTouchParent, updateTask } from '../store/tasks';
import { taskDtoById, taskDtos } from '../store/tasks-dto';

/**
 * Personal tasks and personal subtasks. Visibility is org-wide; "personal" only means "in no
 * project". The personal list (getAll) shows the caller's own top-level personal tasks: the
 * ones they created or own. getTaskById answers any live task of the org (personal, project
 * or subtask); the other operations 404 on a task that is not what their path says.
 */
export const registerTaskRoutes = (r: Router) => {
  const { db } = r.deps;

  r.op('getAll', ({ query, ctx }) =>
    listTasks(
      db,
      frag(
        `t.org_id = ? AND t.deleted = 0 AND t.project_id IS NULL AND t.parent_task_id IS NULL
         AND (t.created_by = ? OR EXISTS (SELECT 1 FROM task_owners o WHERE o.task_id = t.task_id AND o.user_id = ?))`,
        ctx.orgId,
        ctx.userId,
        ctx.userId,
      ),
      query,
      ctx.now,
    ),
  );

  r.op('createTask', ({ body, ctx }) => {
    const id = createTask(db, ctx, { spaceId: null, projectId: null, parentTaskId: null }, body);
    return taskDtoById(db, id, ctx.now);
  });

  r.op('getTaskById', ({ params, ctx }) => {
    const [dto] = taskDtos(db, [liveTask(db, ctx.orgId, params.taskId)], ctx.now);
    return dto!;
  });

  r.op('updateTask', ({ params, body, ctx }) => {
    const row = personalTask(db, ctx.orgId, params.taskId);
    updateTask(db, ctx, row, body);
    return taskDtoById(db, row.task_id, ctx.now);
  });

  r.op('deleteTask', ({ params, ctx }) => {
    deleteTaskAndTouchParent(db, r.deps.filesDir, personalTask(db, ctx.orgId, params.taskId), ctx);
    return {};
  });

  r.op('getPersonalSubtasks', ({ params, query, ctx }) => {
    personalTask(db, ctx.orgId, params.parentTaskId);
    return listTasks(
      db,
      frag(
        't.org_id = ? AND t.deleted = 0 AND t.parent_task_id = ?',
        ctx.orgId,
        params.parentTaskId,
      ),
      query,
      ctx.now,
    );
  });

  r.op('createPersonalSubtask', ({ params, body, ctx }) => {
    const parent = personalSubtaskParent(db, ctx.orgId, params.parentTaskId);
    // A personal subtask inherits no project (its parent has none).
    const id = createTask(
      db,
      ctx,
      { spaceId: null, projectId: null, parentTaskId: parent.task_id },
      body,
    );
    return taskDtoById(db, id, ctx.now);
  });

  r.op('updatePersonalSubtask', ({ params, body, ctx }) => {
    const row = personalSubtask(db, ctx.orgId, params.parentTaskId, params.subtaskId);
    updateTask(db, ctx, row, body);
    return taskDtoById(db, row.task_id, ctx.now);
  });

  r.op('deletePersonalSubtask', ({ params, ctx }) => {
    const row = personalSubtask(db, ctx.orgId, params.parentTaskId, params.subtaskId);
    deleteTaskAndTouchParent(db, r.deps.filesDir, row, ctx);
    return {};
  });
};
