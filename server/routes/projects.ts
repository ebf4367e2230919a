import type { Router } from '../http/route';
import { findSpace } from '../store/lookup';
import {
  createProject,
  listProjects,
  projectRow,
  softDeleteProjects,
  updateProject,
} from '../store/projects';
import { projectDtoById, projectDtos } from '../store/projects-dto';

/** Projects of a space. A project reached through another space is a 404. */
export const registerProjectRoutes = (r: Router) => {
  const { db } = r.deps;

  r.op('getAll_2', ({ params, query, ctx }) => {
    findSpace(db, ctx.orgId, params.spaceId);
    return listProjects(db, ctx.orgId, params.spaceId, query, ctx.now);
  });

  r.op('createProject', ({ params, body, ctx }) => {
    findSpace(db, ctx.orgId, params.spaceId);
    return projectDtoById(db, createProject(db, ctx, params.spaceId, body), ctx.now);
  });

  r.op('getProjectById', ({ params, ctx }) => {
    const [dto] = projectDtos(
      db,
      [projectRow(db, ctx.orgId, params.spaceId, params.projectId)],
      ctx.now,
    );
    return dto!;
  });

  r.op('updateProject', ({ params, body, ctx }) => {
    updateProject(db, ctx, projectRow(db, ctx.orgId, params.spaceId, params.projectId), body);
    return projectDtoById(db, params.projectId, ctx.now);
  });

  r.op('deleteProject', ({ params, ctx }) => {
    projectRow(db, ctx.orgId, params.spaceId, params.projectId);
    softDeleteProjects(db, r.deps.filesDir, [params.projectId], ctx);
    return {};
  });
};
