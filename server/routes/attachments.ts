import type { Db } from '../db/open';
import type { Ctx, Router } from '../http/route';
import type { StoredUpload } from '../http/uploads';
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

type WithId<P> = P & { attachmentId: number };

/**
 * The six attachment operations of one kind of holder. Task, subtask and project attachments
 * differ only in how the holder is found from the path (org, nesting); the rest is shared.
 */
const holderHandlers = <P>(
  db: Db,
  filesDir: string,
  holderOf: (orgId: number, params: P) => Holder,
) => ({
  list: ({ params, ctx }: { params: P; ctx: Ctx }) =>
    listAttachments(db, ctx.orgId, holderOf(ctx.orgId, params)),
  upload: ({ params, body, ctx }: { params: P; body: StoredUpload[]; ctx: Ctx }) =>
    insertAttachments(db, holderOf(ctx.orgId, params), body, ctx),
  get: ({ params, ctx }: { params: WithId<P>; ctx: Ctx }) =>
    getAttachment(db, ctx.orgId, holderOf(ctx.orgId, params), params.attachmentId),
  rename: ({ params, body, ctx }: { params: WithId<P>; body: { fileName: string }; ctx: Ctx }) =>
    renameAttachment(db, holderOf(ctx.orgId, params), params.attachmentId, body.fileName, ctx),
  remove: ({ params, ctx }: { params: WithId<P>; ctx: Ctx }) => {
    deleteAttachment(db, filesDir, holderOf(ctx.orgId, params), params.attachmentId, ctx);
    return undefined;
  },
  content: ({ params, ctx }: { params: WithId<P>; ctx: Ctx }) =>
    attachmentContent(db, filesDir, ctx.orgId, holderOf(ctx.orgId, params), params.attachmentId),
});

/** Upload rule violations never reach these handlers: the router refuses them first. */
export const registerAttachmentRoutes = (r: Router) => {
  const { db, filesDir } = r.deps;

  const task = holderHandlers(db, filesDir, (orgId, p: { taskId: number }) => ({
    kind: 'task',
    task: findTask(db, orgId, p.taskId),
  }));
  r.op('getTaskAttachments', task.list);
  r.op('uploadTaskAttachments', task.upload);
  r.op('getTaskAttachment', task.get);
  r.op('renameTaskAttachment', task.rename);
  r.op('deleteTaskAttachment', task.remove);
  r.op('getTaskAttachmentContent', task.content);

  const subtask = holderHandlers(
    db,
    filesDir,
    (orgId, p: { taskId: number; subtaskId: number }) => ({
      kind: 'task',
      task: findSubtask(db, orgId, p.taskId, p.subtaskId),
    }),
  );
  r.op('getSubtaskAttachments', subtask.list);
  r.op('uploadSubtaskAttachments', subtask.upload);
  r.op('getSubtaskAttachment', subtask.get);
  r.op('renameSubtaskAttachment', subtask.rename);
  r.op('deleteSubtaskAttachment', subtask.remove);
  r.op('getSubtaskAttachmentContent', subtask.content);

  const project = holderHandlers(
    db,
    filesDir,
    (orgId, p: { spaceId: number; projectId: number }) => {
      findProject(db, orgId, p.spaceId, p.projectId);
      return { kind: 'project', spaceId: p.spaceId, projectId: p.projectId };
    },
  );
  r.op('getProjectAttachments', project.list);
  r.op('uploadProjectAttachments', project.upload);
  r.op('getProjectAttachment', project.get);
  r.op('renameProjectAttachment', project.rename);
  r.op('deleteProjectAttachment', project.remove);
  r.op('getProjectAttachmentContent', project.content);
};
