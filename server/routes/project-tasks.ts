import { frag } from '../../shared/filters/sql-fragment';
import type { Router } from '../http/route';
import { findProject } from '../store/lookup';
import { projectDtoById } from '../store/projects-dto';
import { listTasks } from '../store/task-list';
import { projectSubtask, projectSubtaskParent, projectTask } from '../store/task-paths';
import { createTask, deleteTaskAndTouchParent, updateTask } from '../store/tasks';
import { taskDtoById, taskDtos } from '../store/tasks-dto';

/**
 * Project tasks and project subtasks. Every path is checked whole: the project must be in
 * the space, the task in the project (top-level), the subtask under that task; else 404.
 */
export const registerProjectTaskRoutes = (r: Router) => {
  const { db } = r.deps;

  r.op('getAllTasksInProject_1', ({ params, query, ctx }) => {
    findProject(db, ctx.orgId, params.spaceId, params.projectId);
    return listTasks(
      db,
      frag(
        't.org_id = ? AND t.deleted = 0 AND t.project_id = ? AND t.parent_task_id IS NULL',
        ctx.orgId,
        params.projectId,
      ),
      query,
      ctx.now,
    );
  });

  r.op('createProjectTask', ({ params, body, ctx }) => {
    findProject(db, ctx.orgId, params.spaceId, params.projectId);
    const id = createTask(
      db,
      ctx,
      { spaceId: params.spaceId, projectId: params.projectId, parentTaskId: null },
      body,
    );
    // The spec documents the project as this operation's answer; by default the reference
    // server answers the created task (contract), the quirk restores the documented shape.
    if (r.deps.quirks.has('project-task-create-returns-project'))
      return projectDtoById(db, params.projectId, ctx.now);
    return taskDtoById(db, id, ctx.now);
  });

  r.op('getProjectTaskById', ({ params, ctx }) => {
    const row = projectTask(db, ctx.orgId, params);
    return taskDtos(db, [row], ctx.now)[0]!;
  });

  r.op('updateProjectTask', ({ params, body, ctx }) => {
    const row = projectTask(db, ctx.orgId, params);
    updateTask(db, ctx, row, body);
    return taskDtoById(db, row.task_id, ctx.now);
  });

  r.op('deleteProjectTask', ({ params, ctx }) => {
    const row = projectTask(db, ctx.orgId, params);
    deleteTaskAndTouchParent(db, r.deps.filesDir, row, ctx);
    return {};
  });

  r.op('getProjectSubtasks', ({ params, query, ctx }) => {
    projectTask(db, ctx.orgId, params);
    return listTasks(
      db,
      frag('t.org_id = ? AND t.deleted = 0 AND t.parent_task_id = ?', ctx.orgId, params.taskId),
      query,
      ctx.now,
    );
  });

  r.op('createProjectSubtask', ({ params, body, ctx }) => {
    const parent = projectSubtaskParent(db, ctx.orgId, params);
    // A project subtask inherits its parent's space and project.
    const id = createTask(
      db,
      ctx,
      { spaceId: parent.space_id, projectId: parent.project_id, parentTaskId: parent.task_id },
      body,
    );
    return taskDtoById(db, id, ctx.now);
  });

  r.op('updateSubtask', ({ params, body, ctx }) => {
    const row = projectSubtask(db, ctx.orgId, params);
    updateTask(db, ctx, row, body);
    return taskDtoById(db, row.task_id, ctx.now);
  });

  r.op('deleteSubtask', ({ params, ctx }) => {
    const row = projectSubtask(db, ctx.orgId, params);
    deleteTaskAndTouchParent(db, r.deps.filesDir, row, ctx);
    return {};
  });
};
