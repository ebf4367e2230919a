import { z } from 'zod';
import { attachmentRenameRequest } from '../api/attachments';
import { checklistCreateRequest } from '../api/checklists';
import { epochMs } from '../api/common';
import { projectCreateRequest } from '../api/projects';
import { spaceCreateRequest, spaceUpdateRequest } from '../api/spaces';
import { taskCreateRequest } from '../api/tasks';
import { billingStatus } from '../api/timers';

/**
 * Every edit a user can make, as the UI (or the tray) hands it to the host. The engine applies
 * it to the replica at once and queues it for the server in one transaction.
 *
 * Ids may be local (negative): an entity created offline is edited, and gets children, before
 * the server knows it. Updates carry a patch; the engine completes it into the full state the
 * API wants from the replica's current row, so a toggle never drops an assignee.
 */

/** A server id (positive) or a local id (negative) of an entity created offline. */
export const entityId = z
  .number()
  .int()
  .refine((n) => n !== 0 && Math.abs(n) <= Number.MAX_SAFE_INTEGER, 'must be a non-zero id');

/**
 * A task patch changes the fields it names and nothing else. `customFieldValues` names the
 * fields it sets, one item each (`value: null` clears one); the task's other fields keep their
 * values (shared/edits/keyed-lists.ts). `owners` and `tags` replace the whole list: the UI
 * edits them as a whole.
 */
const taskPatch = taskCreateRequest.partial();
const checklistPatch = z
  .object({
    name: checklistCreateRequest.shape.name,
    completed: z.boolean(),
    assigneeId: entityId.nullable(),
  })
  .partial();
const timerPatch = z
  .object({
    billingStatus,
    notes: z.string().max(5_000).nullable(),
    startTime: epochMs,
    durationSeconds: z.number().int().min(0),
  })
  .partial();
const projectPatch = projectCreateRequest.partial();

/**
 * A file to upload: its bytes, from the page, in every mode. Never a path for the host to read:
 * whoever can call the bridge (script in the page, anything holding browser mode's secret)
 * could upload any file of the user's and read it back. Strict, so a `path` is refused, not
 * quietly dropped.
 */
export const uploadFile = z.strictObject({
  name: z.string().min(1).max(200),
  contentType: z.string().max(200).optional(),
  dataBase64: z.string(),
});
export type UploadFile = z.infer<typeof uploadFile>;

/** Strict: a misspelt or foreign key is refused, never quietly dropped. */
const cmd = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S) =>
  z.strictObject({ kind: z.literal(kind), ...shape });

export const editCommand = z.discriminatedUnion('kind', [
  // A personal task (neither), a project task (projectId) or a subtask (parentTaskId: the
  // engine knows whether the parent is personal or in a project).
  cmd('task.create', {
    projectId: entityId.optional(),
    parentTaskId: entityId.optional(),
    fields: taskCreateRequest,
  }),
  // reopen: status and completion go back to what they were before the task was completed,
  // where the replica knows it; otherwise the patch's own (the first open status).
  cmd('task.update', { taskId: entityId, patch: taskPatch, reopen: z.literal(true).optional() }),
  cmd('task.delete', { taskId: entityId }),

  cmd('checklist.create', {
    taskId: entityId,
    name: checklistCreateRequest.shape.name,
    assigneeId: entityId.nullish(),
  }),
  cmd('checklist.update', { checklistId: entityId, patch: checklistPatch }),
  cmd('checklist.delete', { checklistId: entityId }),

  // On a task or subtask (taskId) or on a project (projectId): exactly one.
  cmd('attachment.upload', {
    taskId: entityId.optional(),
    projectId: entityId.optional(),
    files: z.array(uploadFile).min(1),
  }),
  cmd('attachment.rename', {
    attachmentId: entityId,
    fileName: attachmentRenameRequest.shape.fileName,
  }),
  cmd('attachment.delete', { attachmentId: entityId }),

  cmd('timer.start', {
    taskId: entityId,
    notes: z.string().max(5_000).nullish(),
    billingStatus: billingStatus.optional(),
  }),
  cmd('timer.pause', { trackId: entityId }),
  cmd('timer.resume', { trackId: entityId }),
  cmd('timer.stop', { trackId: entityId }),
  cmd('timer.update', { trackId: entityId, patch: timerPatch }),
  cmd('timer.delete', { trackId: entityId }),
  cmd('timer.range', { taskId: entityId, startTime: epochMs, endTime: epochMs }),
  cmd('timer.manual', {
    taskId: entityId,
    hours: z.number().int().min(0).max(24),
    minutes: z.number().int().min(0).max(59),
    startTime: epochMs,
    billingStatus: billingStatus.optional(),
    notes: z.string().max(5_000).nullish(),
  }),

  cmd('space.create', { fields: spaceCreateRequest }),
  cmd('space.update', { spaceId: entityId, patch: spaceUpdateRequest.partial() }),
  cmd('space.delete', { spaceId: entityId }),

  cmd('project.create', { spaceId: entityId, fields: projectCreateRequest }),
  cmd('project.update', { projectId: entityId, patch: projectPatch }),
  cmd('project.delete', { projectId: entityId }),

  cmd('notification.read', { notificationId: entityId }),
  cmd('notification.delete', { notificationId: entityId }),
]);
export type EditCommand = z.infer<typeof editCommand>;
export type EditKind = EditCommand['kind'];
export type EditOf<K extends EditKind> = Extract<EditCommand, { kind: K }>;

/** What an applied edit answers: the entity it made or changed, and its outbox row. */
export const editResult = z.object({
  /** `task`, `checklist`, `attachment`, `timer`, `space`, `project`, `notification`. */
  entityKind: z.string(),
  /** The entity's id: local (negative) for a create until the server answers. */
  id: entityId,
  /** Ids of every entity made (an upload of three files makes three attachments). */
  ids: z.array(entityId),
  /** The outbox row, or null when the edit was coalesced into another row or cancelled out. */
  mutationId: z.number().int().nullable(),
});
export type EditResult = z.infer<typeof editResult>;
