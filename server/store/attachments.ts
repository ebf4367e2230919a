import { existsSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Attachment,
  type AttachmentWithState,
  contentTypesByExtension,
} from '../../shared/api';
import type { Db } from '../db/open';
import { badRequest, notFound } from '../http/errors';
import type { BinaryAnswer } from '../http/route';
import type { StoredUpload } from '../http/uploads';
import {
  type AttachmentParent,
  type AttachmentRow,
  attachmentColumns,
  attachmentDto,
} from './items-dto';
import { type TaskRef, touchProject, touchTask } from './lookup';
import { userRefs } from './users';

/**
 * Attachments of a task, a subtask or a project. The holder is found (org, nesting) by the
 * route before anything here runs; every query below is additionally scoped by org and holder,
 * so an attachment id of another holder is a 404 under this path.
 */
export type Holder =
  | { kind: 'task'; task: TaskRef }
  | { kind: 'project'; spaceId: number; projectId: number };

export interface AttachmentWho {
  userId: number;
  orgId: number;
  now: number;
}

/**
 * The type a file is served with comes from its extension (the same list decides what may be
 * uploaded), not from what the uploader claimed: a `.txt` sent as text/html must not come back
 * as HTML.
 */

const contentTypeOf = (u: StoredUpload): string =>
  contentTypesByExtension[u.extension] ?? (u.contentType || 'application/octet-stream');

/** An attachment on a subtask reports itself under the subtask's path, whichever path found it. */
const parentOf = (h: Holder): AttachmentParent =>
  h.kind === 'project'
    ? { kind: 'project', spaceId: h.spaceId, projectId: h.projectId }
    : h.task.parentTaskId === null
      ? { kind: 'task', taskId: h.task.taskId }
      : { kind: 'subtask', taskId: h.task.parentTaskId, subtaskId: h.task.taskId };

const holderWhere = (h: Holder): [string, number] =>
  h.kind === 'project' ? ['project_id = ?', h.projectId] : ['task_id = ?', h.task.taskId];

const touch = (db: Db, h: Holder, who: AttachmentWho) => {
  if (h.kind === 'project') touchProject(db, h.projectId, who.userId, who.now);
  else touchTask(db, h.task.taskId, who.userId, who.now);
};

const dtos = (db: Db, h: Holder, rows: AttachmentRow[]): AttachmentWithState[] => {
  const users = userRefs(
    db,
    rows.map((r) => r.created_by),
  );
  const parent = parentOf(h);
  return rows.map((r) =>
    attachmentDto(r, parent, users.get(r.created_by) ?? { userId: r.created_by }),
  );
};

const attachmentRow = (db: Db, orgId: number, h: Holder, attachmentId: number): AttachmentRow => {
  const [where, holderId] = holderWhere(h);
  const row = db
    .prepare(
      `SELECT ${attachmentColumns} FROM attachments WHERE attachment_id = ? AND org_id = ? AND ${where}`,
    )
    .get(attachmentId, orgId, holderId) as AttachmentRow | undefined;
  if (!row) throw notFound(`attachment ${attachmentId}`);
  return row;
};

/** Oldest first; ties (one upload) in the order the files were sent. */
export const listAttachments = (db: Db, orgId: number, h: Holder): AttachmentWithState[] => {
  const [where, holderId] = holderWhere(h);
  const rows = db
    .prepare(
      `SELECT ${attachmentColumns} FROM attachments WHERE org_id = ? AND ${where} ORDER BY created_time, attachment_id`,
    )
    .all(orgId, holderId) as AttachmentRow[];
  return dtos(db, h, rows);
};

export const getAttachment = (
  db: Db,
  orgId: number,
  h: Holder,
  attachmentId: number,
): AttachmentWithState => {
  const [dto] = dtos(db, h, [attachmentRow(db, orgId, h, attachmentId)]);
  return dto as AttachmentWithState;
};

/** The files are already on disk and checked against the plan; only the rows are written here. */
export const insertAttachments = (
  db: Db,
  h: Holder,
  uploads: readonly StoredUpload[],
  who: AttachmentWho,
): Attachment[] => {
  const insert = db.prepare(
    `INSERT INTO attachments (org_id, task_id, project_id, file_name, extension, content_type, size, completed_bytes, stored_name, created_by, created_time)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const ids = uploads.map((u) =>
    Number(
      insert.run(
        who.orgId,
        h.kind === 'task' ? h.task.taskId : null,
        h.kind === 'project' ? h.projectId : null,
        u.originalName,
        u.extension,
        contentTypeOf(u),
        u.size,
        // Stored whole before this runs: nothing of an upload is ever half there.
        u.size,
        u.storedName,
        who.userId,
        who.now,
      ).lastInsertRowid,
    ),
  );
  touch(db, h, who);
  return ids.map((id) => getAttachment(db, who.orgId, h, id));
};

/**
 * The new name comes without its extension and the stored one is kept. A user who types the
 * extension anyway ("report.pdf" for a pdf) gets "report.pdf", not "report.pdf.pdf".
 */
const renamedFileName = (current: AttachmentRow, requested: string): string => {
  const ext = current.extension;
  let base = requested.trim();
  if (ext && base.toLowerCase().endsWith(`.${ext}`)) base = base.slice(0, -(ext.length + 1));
  // "report." would become "report..pdf".
  base = base.replace(/[.\s]+$/, '');
  if (base === '')
    throw badRequest('invalid request body', [
      {
        field: 'fileName',
        message: 'must contain more than the extension',
        rejectedValue: requested,
      },
    ]);
  if (!ext) return base;
  // Keep the extension as it was spelled ("Scan.PDF" stays ".PDF").
  const spelled = current.file_name.slice(-ext.length);
  return `${base}.${spelled.toLowerCase() === ext ? spelled : ext}`;
};

export const renameAttachment = (
  db: Db,
  h: Holder,
  attachmentId: number,
  fileName: string,
  who: AttachmentWho,
): Attachment => {
  const row = attachmentRow(db, who.orgId, h, attachmentId);
  db.prepare('UPDATE attachments SET file_name = ? WHERE attachment_id = ?').run(
    renamedFileName(row, fileName),
    attachmentId,
  );
  touch(db, h, who);
  return getAttachment(db, who.orgId, h, attachmentId);
};

/**
 * Removes the row now and the file once the transaction has committed: a rollback must not
 * leave a row whose file is gone. The check that the row is really gone makes the removal
 * safe even if the transaction failed after this handler returned.
 */
export const deleteAttachment = (
  db: Db,
  filesDir: string,
  h: Holder,
  attachmentId: number,
  who: AttachmentWho,
): void => {
  const row = attachmentRow(db, who.orgId, h, attachmentId);
  db.prepare('DELETE FROM attachments WHERE attachment_id = ?').run(attachmentId);
  touch(db, h, who);
  queueMicrotask(() => {
    const still = db
      .prepare('SELECT 1 FROM attachments WHERE stored_name = ?')
      .get(row.stored_name);
    if (still) return;
    try {
      unlinkSync(join(filesDir, row.stored_name));
    } catch {
      // Already gone: the outcome the delete wanted.
    }
  });
};

export const attachmentContent = (
  db: Db,
  filesDir: string,
  orgId: number,
  h: Holder,
  attachmentId: number,
): BinaryAnswer => {
  const row = attachmentRow(db, orgId, h, attachmentId);
  const filePath = join(filesDir, row.stored_name);
  // A row whose file vanished (a data dir restored by hand) must not become a 500 mid-stream.
  if (!existsSync(filePath)) throw notFound(`content of attachment ${attachmentId}`);
  return { filePath, contentType: row.content_type, fileName: row.file_name };
};
