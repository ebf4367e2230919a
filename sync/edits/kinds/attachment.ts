/** Files on tasks, subtasks and projects: upload, rename, delete. */
import type { Attachment } from '../../../shared/api';
import { checkUpload } from '../../../shared/api/attachments';
import type { EditOf, EditResult } from '../../../shared/edits/commands';
import type { UploadFile } from '../../api/types';
import { guessContentType } from '../../api/upload';
import { entityExists } from '../../db/entity-rows';
import { stmt } from '../../db/kysely';
import type { Sqlite } from '../../db/open';
import { writeAttachment } from '../../db/queries/tasks-write';
import { allocateLocalId, type QueuedMutation, stageUploadFiles } from '../../outbox';
import {
  currentId,
  EditError,
  localUser,
  notInReplica,
  onTaskPath,
  spaceOfProject,
  taskPlace,
} from '../state';
import {
  attachmentRow,
  deleteAttachment,
  insertLocalAttachments,
  type LocalFile,
  refreshCounts,
  renameAttachment,
} from '../write-tasks';
import type { EditTx, EntityModule } from './types';

/** Body of an upload row: the local ids and what is known of the files, in order. */
export interface UploadBody {
  localIds: number[];
  files: LocalFile[];
}

/** The files of an upload: bytes given by the caller, never a path to read (see uploadFile). */
const uploadFiles = (
  files: EditOf<'attachment.upload'>['files'],
): (UploadFile & { size: number })[] =>
  files.map((f) => {
    const data = Buffer.from(f.dataBase64, 'base64');
    return {
      name: f.name,
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      size: data.byteLength,
      ...(f.contentType ? { contentType: f.contentType } : {}),
    };
  });

const upload = ({ db, ctx, ...tx }: EditTx, c: EditOf<'attachment.upload'>): EditResult => {
  if ((c.taskId === undefined) === (c.projectId === undefined))
    throw new EditError('an upload goes to a task or to a project: give exactly one');
  const files = uploadFiles(c.files);
  const violations = checkUpload(files);
  if (violations.length > 0)
    throw new EditError(`upload refused: ${violations.map((v) => v.message).join('; ')}`);
  let operationId: string;
  let path: Record<string, number>;
  if (c.taskId !== undefined) {
    const { sub, path: p } = onTaskPath(taskPlace(db, c.taskId));
    operationId = sub ? 'uploadSubtaskAttachments' : 'uploadTaskAttachments';
    path = p;
  } else {
    const projectId = c.projectId as number;
    const spaceId = spaceOfProject(db, currentId(db, 'project', projectId));
    if (spaceId === null) throw notInReplica(`project ${projectId}`);
    operationId = 'uploadProjectAttachments';
    path = { spaceId, projectId };
  }
  const ids = files.map(() => allocateLocalId(db));
  const first = ids[0] as number;
  const body = {
    localIds: ids,
    files: files.map((f) => ({
      fileName: f.name,
      size: f.size,
      contentType: f.contentType ?? guessContentType(f.name),
    })),
  };
  const r = tx.commit({
    kind: 'attachment.upload',
    operationId,
    path,
    body,
    entityId: first,
    localId: first,
  });
  if (r.mutationId === null) throw new EditError('the upload was not queued');
  stageUploadFiles(
    db,
    ctx.dataDir,
    r.mutationId,
    files.map(({ size: _size, ...f }) => f),
  );
  return { entityKind: 'attachment', id: first, ids, mutationId: r.mutationId };
};

const attachmentOp = (
  db: Sqlite,
  attachmentId: number,
  verb: 'rename' | 'delete',
): { id: number; operationId: string; path: Record<string, number> } => {
  const id = currentId(db, 'attachment', attachmentId);
  const row = attachmentRow(db, id);
  if (!row) throw notInReplica(`attachment ${attachmentId}`);
  const V = verb === 'rename' ? 'rename' : 'delete';
  if (row.project_id !== null) {
    const spaceId = spaceOfProject(db, row.project_id);
    if (spaceId === null) throw notInReplica(`project ${row.project_id}`);
    return {
      id,
      operationId: `${V}ProjectAttachment`,
      path: { spaceId, projectId: row.project_id, attachmentId: id },
    };
  }
  if (row.task_id === null) throw new EditError(`attachment ${attachmentId} is on nothing`);
  const { sub, path } = onTaskPath(taskPlace(db, row.task_id));
  return {
    id,
    operationId: `${V}${sub ? 'Subtask' : 'Task'}Attachment`,
    path: { ...path, attachmentId: id },
  };
};

const rename = (tx: EditTx, c: EditOf<'attachment.rename'>): EditResult => {
  const { id, operationId, path } = attachmentOp(tx.db, c.attachmentId, 'rename');
  const body = tx.checkBody(operationId, { fileName: c.fileName });
  return tx.existing({
    kind: 'attachment.rename',
    entity: 'attachment',
    id,
    operationId,
    path,
    body,
  });
};

const remove = (tx: EditTx, c: EditOf<'attachment.delete'>): EditResult => {
  const { id, operationId, path } = attachmentOp(tx.db, c.attachmentId, 'delete');
  return tx.existing({
    kind: 'attachment.delete',
    entity: 'attachment',
    id,
    operationId,
    path,
    deep: true,
  });
};

/**
 * The local attachment ids an upload made, one per file (kept in the row's body, which a
 * multipart request does not send).
 */
const uploadedIds = (row: QueuedMutation): number[] => {
  const body = row.body as { localIds?: unknown } | null;
  const ids = body && Array.isArray(body.localIds) ? body.localIds : [];
  return ids.filter((n): n is number => typeof n === 'number' && n < 0);
};

/**
 * Each file's local id with the attachment the server made of it: by file name (the answer's
 * order is not promised), in the order the files went.
 */
const uploadPairs = (
  row: QueuedMutation,
  items: readonly unknown[],
  localIds: readonly number[],
): [number, unknown][] => {
  const files = (row.body as { files?: { fileName?: unknown }[] } | null)?.files ?? [];
  const left = [...items];
  const pairs: [number, unknown][] = [];
  localIds.forEach((localId, i) => {
    const name = files[i]?.fileName;
    const at = left.findIndex((a) => (a as { fileName?: unknown }).fileName === name);
    const item = at >= 0 ? left.splice(at, 1)[0] : left.shift();
    if (item !== undefined) pairs.push([localId, item]);
  });
  return pairs;
};

export const attachment: EntityModule<'attachment'> = {
  kinds: {
    'attachment.upload': {
      apply: upload,
      effect: (db, { body, ref, now }) => {
        const files = body as unknown as UploadBody;
        const projectId = ref('project', 'projectId');
        const taskId =
          projectId === null ? (ref('task', 'subtaskId') ?? ref('task', 'taskId')) : null;
        const ids = (files.localIds ?? []).map((l) => currentId(db, 'attachment', l));
        insertLocalAttachments(
          db,
          { taskId, projectId },
          ids,
          files.files ?? [],
          localUser(db),
          now,
        );
        refreshCounts(db, [taskId]);
        return true;
      },
    },
    'attachment.rename': {
      apply: rename,
      effect: (db, { id, body }) => {
        if (!entityExists(db, 'attachment', id)) return false;
        renameAttachment(db, id, String(body.fileName ?? ''));
        return true;
      },
    },
    'attachment.delete': {
      apply: remove,
      effect: (db, { id, ref }) => {
        const on = deleteAttachment(db, id);
        refreshCounts(db, [on ?? ref('task', 'subtaskId') ?? ref('task', 'taskId')]);
        return on !== null;
      },
    },
  },
  made: uploadedIds,
  answer: {
    idField: 'attachmentId',
    pairs: uploadPairs,
    write: (db, item, path) => {
      // A project attachment's path also names the space; a task's names no project.
      const onTask = path.subtaskId ?? path.taskId ?? null;
      writeAttachment(
        db,
        { taskId: onTask, projectId: onTask === null ? (path.projectId ?? null) : null },
        item as Attachment,
      );
    },
  },
  remove: (db, id) => {
    stmt(db, 'DELETE FROM attachments WHERE attachment_id = ?').run(id);
  },
};
