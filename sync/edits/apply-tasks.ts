/** Edits of tasks, subtasks, checklist items and attachments: what each sends and writes. */
import { checkUpload } from '../../shared/api/attachments';
import type { EditOf, EditResult } from '../../shared/edits/commands';
import type { UploadFile } from '../api/types';
import { guessContentType } from '../api/upload';
import type { Sqlite } from '../db/open';
import { allocateLocalId, stageUploadFiles } from '../outbox';
import { stopTimerOnTask } from './apply-timers';
import { checkBody, commitEdit, editCreate, editExisting } from './commit';
import {
  checklistState,
  currentId,
  EditError,
  notInReplica,
  onTaskPath,
  spaceOfProject,
  taskOp,
  taskPlace,
  taskState,
} from './state';
import { attachmentRow, checklistTaskOf } from './write-tasks';

export interface EditContext {
  now: number;
  userId: number;
  dataDir: string;
  /**
   * The server's clock minus this machine's, as estimated from answers (0 when unknown): a time
   * this machine stamps for the server (a timer's start, its end) is written in the server's
   * clock, so that it lands at once whatever the skew.
   */
  serverOffsetMs?: number;
}

// ---- tasks ---------------------------------------------------------------------------------

export const createTask = (db: Sqlite, c: EditOf<'task.create'>, ctx: EditContext): EditResult => {
  let operationId: string;
  let path: Record<string, number>;
  if (c.parentTaskId !== undefined) {
    const parent = taskPlace(db, c.parentTaskId);
    if (parent.parentTaskId !== null) throw new EditError('a subtask cannot have subtasks');
    if (c.projectId !== undefined && currentId(db, 'project', c.projectId) !== parent.projectId)
      throw new EditError(`task ${c.parentTaskId} is not in project ${c.projectId}`);
    if (parent.projectId === null) {
      operationId = 'createPersonalSubtask';
      path = { parentTaskId: c.parentTaskId };
    } else {
      operationId = 'createProjectSubtask';
      path = {
        spaceId: parent.spaceId ?? 0,
        projectId: parent.projectId,
        taskId: c.parentTaskId,
      };
    }
  } else if (c.projectId !== undefined) {
    const spaceId = spaceOfProject(db, currentId(db, 'project', c.projectId));
    if (spaceId === null) throw notInReplica(`project ${c.projectId}`);
    operationId = 'createProjectTask';
    path = { spaceId, projectId: c.projectId };
  } else {
    operationId = 'createTask';
    path = {};
  }
  const body = checkBody(operationId, c.fields);
  return editCreate(db, { kind: 'task.create', entity: 'task', operationId, path, body }, ctx.now);
};

export const updateTask = (db: Sqlite, c: EditOf<'task.update'>, ctx: EditContext): EditResult => {
  const place = taskPlace(db, c.taskId);
  const { operationId, path } = taskOp(place, 'update');
  const body = checkBody(operationId, { ...taskState(db, place.taskId), ...c.patch });
  return editExisting(
    db,
    { kind: 'task.update', entity: 'task', id: place.taskId, operationId, path, body },
    ctx.now,
  );
};

export const deleteTask = (db: Sqlite, c: EditOf<'task.delete'>, ctx: EditContext): EditResult => {
  const place = taskPlace(db, c.taskId);
  const { operationId, path } = taskOp(place, 'delete');
  stopTimerOnTask(db, place.taskId, ctx);
  return editExisting(
    db,
    { kind: 'task.delete', entity: 'task', id: place.taskId, operationId, path, deep: true },
    ctx.now,
  );
};

// ---- checklist items -----------------------------------------------------------------------

const checklistOp = (db: Sqlite, taskId: number, verb: 'create' | 'update' | 'delete') => {
  const { sub, path } = onTaskPath(taskPlace(db, taskId));
  return { operationId: `${verb}CheckListFor${sub ? 'Subtask' : 'Task'}`, path };
};

/** An existing item: its id now, and the operation and path of `verb` on it. */
const knownItem = (db: Sqlite, checklistId: number, verb: 'update' | 'delete') => {
  const id = currentId(db, 'checklist', checklistId);
  const taskId = checklistTaskOf(db, id);
  if (taskId === null) throw notInReplica(`checklist item ${checklistId}`);
  const { operationId, path } = checklistOp(db, taskId, verb);
  return { id, operationId, path: { ...path, checklistId: id } };
};

export const createChecklistItem = (
  db: Sqlite,
  c: EditOf<'checklist.create'>,
  ctx: EditContext,
): EditResult => {
  const { operationId, path } = checklistOp(db, c.taskId, 'create');
  const body = checkBody(operationId, { name: c.name, assigneeId: c.assigneeId ?? null });
  return editCreate(
    db,
    { kind: 'checklist.create', entity: 'checklist', operationId, path, body },
    ctx.now,
  );
};

export const updateChecklistItem = (
  db: Sqlite,
  c: EditOf<'checklist.update'>,
  ctx: EditContext,
): EditResult => {
  const { id, operationId, path } = knownItem(db, c.checklistId, 'update');
  // The API replaces name, state and assignee: the patch completes the item's current state.
  const body = checkBody(operationId, { ...checklistState(db, id), ...c.patch });
  return editExisting(
    db,
    { kind: 'checklist.update', entity: 'checklist', id, operationId, path, body },
    ctx.now,
  );
};

export const deleteChecklistItem = (
  db: Sqlite,
  c: EditOf<'checklist.delete'>,
  ctx: EditContext,
): EditResult => {
  const { id, operationId, path } = knownItem(db, c.checklistId, 'delete');
  return editExisting(
    db,
    { kind: 'checklist.delete', entity: 'checklist', id, operationId, path, deep: true },
    ctx.now,
  );
};

// ---- attachments ---------------------------------------------------------------------------

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

export const uploadAttachments = (
  db: Sqlite,
  c: EditOf<'attachment.upload'>,
  ctx: EditContext,
): EditResult => {
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
  const r = commitEdit(
    db,
    { kind: 'attachment.upload', operationId, path, body, entityId: first, localId: first },
    ctx.now,
  );
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

export const renameAttachment = (
  db: Sqlite,
  c: EditOf<'attachment.rename'>,
  ctx: EditContext,
): EditResult => {
  const { id, operationId, path } = attachmentOp(db, c.attachmentId, 'rename');
  const body = checkBody(operationId, { fileName: c.fileName });
  return editExisting(
    db,
    { kind: 'attachment.rename', entity: 'attachment', id, operationId, path, body },
    ctx.now,
  );
};

export const deleteAttachment = (
  db: Sqlite,
  c: EditOf<'attachment.delete'>,
  ctx: EditContext,
): EditResult => {
  const { id, operationId, path } = attachmentOp(db, c.attachmentId, 'delete');
  return editExisting(
    db,
    { kind: 'attachment.delete', entity: 'attachment', id, operationId, path, deep: true },
    ctx.now,
  );
};
