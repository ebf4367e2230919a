import type { Router } from '../http/route';
import {
  attachmentContent,
  deleteAttachment,
  getAttachment,
  type Holder,
  insertAttachments,
  listAttachments,
  renameAttachment,
} from '../store/attachments';
import { findProject, findSubtask, findTask } from '../store/lookup';

/**
 * Task, subtask and project attachments. Each group finds its holder (org, nesting) first and
 * then shares the store's functions; upload rule violations never reach these handlers.
 */
export const registerAttachmentRoutes = (r: Router) => {
  const { db, filesDir } = r.deps;

  const task = (orgId: number, p: { taskId: number }): Holder => ({
    kind: 'task',
    task: findTask(db, orgId, p.taskId),
  });
  const subtask = (orgId: number, p: { taskId: number; subtaskId: number }): Holder => ({
    kind: 'task',
    task: findSubtask(db, orgId, p.taskId, p.subtaskId),
  });
  const project = (orgId: number, p: { spaceId: number; projectId: number }): Holder => {
    findProject(db, orgId, p.spaceId, p.projectId);
    return { kind: 'project', spaceId: p.spaceId, projectId: p.projectId };
  };

  // Task
  r.op('getTaskAttachments', ({ params, ctx }) =>
    listAttachments(db, ctx.orgId, task(ctx.orgId, params)),
  );
  r.op('uploadTaskAttachments', ({ params, body, ctx }) =>
    insertAttachments(db, task(ctx.orgId, params), body, ctx),
  );
  r.op('getTaskAttachment', ({ params, ctx }) =>
    getAttachment(db, ctx.orgId, task(ctx.orgId, params), params.attachmentId),
  );
  r.op('renameTaskAttachment', ({ params, body, ctx }) =>
    renameAttachment(db, task(ctx.orgId, params), params.attachmentId, body.fileName, ctx),
  );
  r.op('deleteTaskAttachment', ({ params, ctx }) => {
    deleteAttachment(db, filesDir, task(ctx.orgId, params), params.attachmentId, ctx);
    return undefined;
  });
  r.op('getTaskAttachmentContent', ({ params, ctx }) =>
    attachmentContent(db, filesDir, ctx.orgId, task(ctx.orgId, params), params.attachmentId),
  );

  // Subtask
  r.op('getSubtaskAttachments', ({ params, ctx }) =>
    listAttachments(db, ctx.orgId, subtask(ctx.orgId, params)),
  );
  r.op('uploadSubtaskAttachments', ({ params, body, ctx }) =>
    insertAttachments(db, subtask(ctx.orgId, params), body, ctx),
  );
  r.op('getSubtaskAttachment', ({ params, ctx }) =>
    getAttachment(db, ctx.orgId, subtask(ctx.orgId, params), params.attachmentId),
  );
  r.op('renameSubtaskAttachment', ({ params, body, ctx }) =>
    renameAttachment(db, subtask(ctx.orgId, params), params.attachmentId, body.fileName, ctx),
  );
  r.op('deleteSubtaskAttachment', ({ params, ctx }) => {
    deleteAttachment(db, filesDir, subtask(ctx.orgId, params), params.attachmentId, ctx);
    return undefined;
  });
  r.op('getSubtaskAttachmentContent', ({ params, ctx }) =>
    attachmentContent(db, filesDir, ctx.orgId, subtask(ctx.orgId, params), params.attachmentId),
  );

  // Project
  r.op('getProjectAttachments', ({ params, ctx }) =>
    listAttachments(db, ctx.orgId, project(ctx.orgId, params)),
  );
  r.op('uploadProjectAttachments', ({ params, body, ctx }) =>
    insertAttachments(db, project(ctx.orgId, params), body, ctx),
  );
  r.op('getProjectAttachment', ({ params, ctx }) =>
    getAttachment(db, ctx.orgId, project(ctx.orgId, params), params.attachmentId),
  );
  r.op('renameProjectAttachment', ({ params, body, ctx }) =>
    renameAttachment(db, project(ctx.orgId, params), params.attachmentId, body.fileName, ctx),
  );
  r.op('deleteProjectAttachment', ({ params, ctx }) => {
    deleteAttachment(db, filesDir, project(ctx.orgId, params), params.attachmentId, ctx);
    return undefined;
  });
  r.op('getProjectAttachmentContent', ({ params, ctx }) =>
    attachmentContent(db, filesDir, ctx.orgId, project(ctx.orgId, params), params.attachmentId),
  );
};
