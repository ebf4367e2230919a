import type { Attachment, ChecklistItem, UserRef } from '../../shared/api';
import { iso } from './time';

export interface ChecklistRow {
  checklist_id: number;
  task_id: number;
  name: string;
  completed: number;
  assignee_id: number | null;
  position: number;
  created_time: number;
  modified_time: number;
}
export const checklistColumns =
  'checklist_id, task_id, name, completed, assignee_id, position, created_time, modified_time';

/**
 * An item on a subtask reports the parent as taskId and the subtask as subtaskId (the path
 * it lives under); `parentTaskId` is the parent of the task the item is on, if any.
 */
export const checklistDto = (r: ChecklistRow, parentTaskId: number | null): ChecklistItem => ({
  checklistId: r.checklist_id,
  taskId: parentTaskId ?? r.task_id,
  subtaskId: parentTaskId === null ? null : r.task_id,
  name: r.name,
  completed: r.completed === 1,
  assigneeId: r.assignee_id,
  position: r.position,
  createdTime: iso(r.created_time),
  modifiedTime: iso(r.modified_time),
});

export interface AttachmentRow {
  attachment_id: number;
  task_id: number | null;
  project_id: number | null;
  file_name: string;
  extension: string;
  content_type: string;
  size: number;
  completed_bytes: number;
  stored_name: string;
  created_by: number;
  created_time: number;
}
export const attachmentColumns =
  'attachment_id, task_id, project_id, file_name, extension, content_type, size, completed_bytes, stored_name, created_by, created_time';

/** Where the attachment lives, which decides its download path. */
export type AttachmentParent =
  | { kind: 'task'; taskId: number }
  | { kind: 'subtask'; taskId: number; subtaskId: number }
  | { kind: 'project'; spaceId: number; projectId: number };

const basePath = (p: AttachmentParent): string =>
  p.kind === 'task'
    ? `/v1/tasks/${p.taskId}`
    : p.kind === 'subtask'
      ? `/v1/tasks/${p.taskId}/subtasks/${p.subtaskId}`
      : `/v1/spaces/${p.spaceId}/projects/${p.projectId}`;

export const attachmentDto = (
  r: AttachmentRow,
  parent: AttachmentParent,
  createdBy: UserRef,
): Attachment & { completedBytes: number; totalSize: number } => ({
  attachmentId: r.attachment_id,
  fileName: r.file_name,
  extension: r.extension,
  contentType: r.content_type,
  size: r.size,
  downloadUrl: `${basePath(parent)}/attachments/${r.attachment_id}/content`,
  taskId: parent.kind === 'project' ? null : parent.taskId,
  subtaskId: parent.kind === 'subtask' ? parent.subtaskId : null,
  projectId: parent.kind === 'project' ? parent.projectId : null,
  createdBy,
  createdTime: iso(r.created_time),
  completedBytes: r.completed_bytes,
  totalSize: r.size,
});
