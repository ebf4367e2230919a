import type { DemoContext, TaskRec } from './demo-context';
import type { DemoFile } from './demo-files';

/** The attachment rows, one per demo file already written to disk, on the task or project it names. */
export const addAttachments = (
  ctx: DemoContext,
  files: readonly (DemoFile & { storedName: string })[],
) => {
  for (const f of files) {
    let taskId: number | null = null;
    let projectId: number | null = null;
    let after: number;
    if ('project' in f.on) {
      const p = ctx.project(f.orgId, f.on.project);
      projectId = p.id;
      after = p.created;
    } else {
      let t: TaskRec | undefined;
      if ('task' in f.on) t = ctx.task(f.orgId, f.on.task);
      else {
        const p = ctx.project(f.orgId, f.on.subtaskIn);
        t = ctx.tasks.find((x) => x.projectId === p.id && x.parentId !== null);
        if (!t) throw new Error(`demo seed: no subtask in "${f.on.subtaskIn}"`);
      }
      taskId = t.id;
      after = t.created;
    }
    const ext = f.fileName.slice(f.fileName.lastIndexOf('.') + 1);
    ctx.s.attachment.run(
      f.orgId,
      taskId,
      projectId,
      f.fileName,
      ext,
      f.contentType,
      f.bytes.length,
      f.bytes.length,
      f.storedName,
      ctx.uid(f.by),
      ctx.between(after),
    );
    ctx.counts.attachments++;
  }
};
