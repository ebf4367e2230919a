/**
 * `applyEdit`: a user's edit, applied to the replica at once and queued for the server, in one
 * SQLite transaction. The command is checked first (a bad one throws and changes nothing);
 * what the API needs (a subtask's parent, a project task's space, the item's task) comes
 * from the replica; updates send the complete state (the patch over the current row).
 */
import { z } from 'zod';
import { type EditCommand, type EditResult, editCommand } from '../../shared/edits/commands';
import type { Sqlite } from '../db/open';
import {
  createProject,
  createSpace,
  deleteProject,
  deleteSpace,
  notificationEdit,
  updateProject,
  updateSpace,
} from './apply-other';
import {
  createChecklistItem,
  createTask,
  deleteAttachment,
  deleteChecklistItem,
  deleteTask,
  type EditContext,
  renameAttachment,
  updateChecklistItem,
  updateTask,
  uploadAttachments,
} from './apply-tasks';
import {
  addManualTime,
  addTimeRange,
  deleteTimer,
  moveTimer,
  startTimer,
  updateTimer,
} from './apply-timers';
import { EditError, noteLocalUser } from './state';

export type { EditContext } from './apply-tasks';

const dispatch = (db: Sqlite, c: EditCommand, ctx: EditContext): EditResult => {
  switch (c.kind) {
    case 'task.create':
      return createTask(db, c, ctx);
    case 'task.update':
      return updateTask(db, c, ctx);
    case 'task.delete':
      return deleteTask(db, c, ctx);
    case 'checklist.create':
      return createChecklistItem(db, c, ctx);
    case 'checklist.update':
      return updateChecklistItem(db, c, ctx);
    case 'checklist.delete':
      return deleteChecklistItem(db, c, ctx);
    case 'attachment.upload':
      return uploadAttachments(db, c, ctx);
    case 'attachment.rename':
      return renameAttachment(db, c, ctx);
    case 'attachment.delete':
      return deleteAttachment(db, c, ctx);
    case 'timer.start':
      return startTimer(db, c, ctx);
    case 'timer.pause':
    case 'timer.resume':
    case 'timer.stop':
      return moveTimer(db, c, ctx);
    case 'timer.update':
      return updateTimer(db, c, ctx);
    case 'timer.delete':
      return deleteTimer(db, c, ctx);
    case 'timer.range':
      return addTimeRange(db, c, ctx);
    case 'timer.manual':
      return addManualTime(db, c, ctx);
    case 'space.create':
      return createSpace(db, c, ctx);
    case 'space.update':
      return updateSpace(db, c, ctx);
    case 'space.delete':
      return deleteSpace(db, c, ctx);
    case 'project.create':
      return createProject(db, c, ctx);
    case 'project.update':
      return updateProject(db, c, ctx);
    case 'project.delete':
      return deleteProject(db, c, ctx);
    case 'notification.read':
    case 'notification.delete':
      return notificationEdit(db, c, ctx);
  }
};

/**
 * Applies an edit locally and queues it. Throws `EditError` (nothing written) when the
 * command is malformed, names something the replica does not hold, or breaks a rule the
 * client can check (upload rules, timer states, the request schema).
 */
export const applyEdit = (db: Sqlite, command: unknown, ctx: EditContext): EditResult => {
  const parsed = editCommand.safeParse(command);
  if (!parsed.success)
    throw new EditError(`invalid edit: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
  const run = () => {
    noteLocalUser(db, ctx.userId);
    return dispatch(db, parsed.data, ctx);
  };
  return db.inTransaction ? run() : db.transaction(run)();
};
