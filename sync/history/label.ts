/** A step in the user's words, from the replica at the time of the edit. */
import type { EditCommand } from '../../shared/edits/commands';
import type { Sqlite } from '../db/open';
import { entityState } from '../edits/entities';
import { currentId } from '../edits/state';
import type { EntityKind } from '../outbox';

const nameFields: Partial<Record<EntityKind, string>> = {
  task: 'taskTitle',
  checklist: 'name',
  space: 'spaceName',
  project: 'projectName',
  attachment: 'fileName',
};

const nouns: Record<EntityKind, string> = {
  task: 'task',
  checklist: 'checklist item',
  attachment: 'file',
  timer: 'time entry',
  space: 'space',
  project: 'project',
  notification: 'notification',
};

export const nounOf = (entity: EntityKind, n = 1): string =>
  n === 1 ? nouns[entity] : nouns[entity].replace(/y$/, 'ie').concat('s');

/** The entity's name as the replica holds it now, quoted, or its noun. */
export const nameOf = (db: Sqlite, entity: EntityKind, id: number): string => {
  const field = nameFields[entity];
  const state = field ? entityState(db, entity, currentId(db, entity, id)) : null;
  const v = field ? state?.[field] : undefined;
  return typeof v === 'string' && v !== '' ? `“${v}”` : `the ${nouns[entity]}`;
};

const fieldWords: Record<string, string> = {
  taskTitle: 'title',
  spaceName: 'name',
  projectName: 'name',
  fileName: 'name',
  startDate: 'start date',
  dueDate: 'due date',
  owners: 'owners',
  customFieldValues: 'custom fields',
  billingStatus: 'billing',
  durationSeconds: 'duration',
  startTime: 'start time',
  assigneeId: 'assignee',
};
const words = (keys: string[]) => keys.map((k) => fieldWords[k] ?? k).join(', ');

/** The label of one edit, read before it is applied (a delete still finds its name). */
export const labelOf = (db: Sqlite, c: EditCommand): string => {
  switch (c.kind) {
    case 'task.create':
      return `Created task “${c.fields.taskTitle}”`;
    case 'task.update': {
      const name = nameOf(db, 'task', c.taskId);
      const keys = Object.keys(c.patch);
      if (keys.length === 1 && c.patch.status !== undefined)
        return `Set ${name} to ${c.patch.status}`;
      if (keys.length === 1 && c.patch.taskTitle !== undefined)
        return `Renamed ${name} to “${c.patch.taskTitle}”`;
      return `Changed ${words(keys)} of ${name}`;
    }
    case 'task.delete':
      return `Deleted ${nameOf(db, 'task', c.taskId)}`;
    case 'checklist.create':
      return `Added “${c.name}” to the checklist`;
    case 'checklist.update':
      if (Object.keys(c.patch).length === 1 && c.patch.completed !== undefined)
        return `${c.patch.completed ? 'Ticked' : 'Unticked'} ${nameOf(db, 'checklist', c.checklistId)}`;
      return `Changed ${words(Object.keys(c.patch))} of ${nameOf(db, 'checklist', c.checklistId)}`;
    case 'checklist.delete':
      return `Deleted ${nameOf(db, 'checklist', c.checklistId)}`;
    case 'attachment.upload':
      return `Uploaded ${c.files.length === 1 ? `“${c.files[0]?.name}”` : `${c.files.length} files`}`;
    case 'attachment.rename':
      return `Renamed ${nameOf(db, 'attachment', c.attachmentId)} to “${c.fileName}”`;
    case 'attachment.delete':
      return `Deleted ${nameOf(db, 'attachment', c.attachmentId)}`;
    case 'timer.start':
      return `Started a timer on ${nameOf(db, 'task', c.taskId)}`;
    case 'timer.pause':
      return 'Paused the timer';
    case 'timer.resume':
      return 'Resumed the timer';
    case 'timer.stop':
      return 'Stopped the timer';
    case 'timer.update':
      return `Changed ${words(Object.keys(c.patch))} of a time entry`;
    case 'timer.delete':
      return 'Deleted a time entry';
    case 'timer.range':
    case 'timer.manual':
      return `Added time to ${nameOf(db, 'task', c.taskId)}`;
    case 'space.create':
      return `Created space “${c.fields.spaceName}”`;
    case 'space.update':
      return `Changed ${words(Object.keys(c.patch))} of ${nameOf(db, 'space', c.spaceId)}`;
    case 'space.delete':
      return `Deleted ${nameOf(db, 'space', c.spaceId)}`;
    case 'project.create':
      return `Created project “${c.fields.projectName}”`;
    case 'project.update':
      return `Changed ${words(Object.keys(c.patch))} of ${nameOf(db, 'project', c.projectId)}`;
    case 'project.delete':
      return `Deleted ${nameOf(db, 'project', c.projectId)}`;
    case 'notification.read':
      return 'Marked a notification read';
    case 'notification.delete':
      return 'Deleted a notification';
  }
};

/** A batch's label: one edit's, or what they did together (`Deleted 3 tasks`). */
export const batchLabel = (labels: string[], kinds: string[], entity: EntityKind): string => {
  if (labels.length === 1) return labels[0] ?? '';
  const same = kinds.every((k) => k === kinds[0]);
  const verb = kinds[0]?.split('.')[1];
  if (same && verb === 'delete') return `Deleted ${labels.length} ${nounOf(entity, 2)}`;
  if (same && verb === 'update') return `Changed ${labels.length} ${nounOf(entity, 2)}`;
  return `${labels.length} edits`;
};
