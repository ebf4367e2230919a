import type { EditKind } from '../../shared/edits/commands';

/** Each kind of edit as the sync panel lists it: what the user did, not the outbox's name. */
const editWords: Record<EditKind, string> = {
  'task.create': 'New tasks',
  'task.update': 'Task changes',
  'task.delete': 'Deleted tasks',
  'checklist.create': 'New checklist items',
  'checklist.update': 'Checklist item changes',
  'checklist.delete': 'Deleted checklist items',
  'attachment.upload': 'File uploads',
  'attachment.rename': 'Renamed files',
  'attachment.delete': 'Deleted files',
  'timer.start': 'Timers started',
  'timer.pause': 'Timers paused',
  'timer.resume': 'Timers resumed',
  'timer.stop': 'Timers stopped',
  'timer.update': 'Time entry changes',
  'timer.delete': 'Deleted time entries',
  'timer.range': 'Time entries added',
  'timer.manual': 'Time entered by hand',
  'space.create': 'New spaces',
  'space.update': 'Space changes',
  'space.delete': 'Deleted spaces',
  'project.create': 'New projects',
  'project.update': 'Project changes',
  'project.delete': 'Deleted projects',
  'notification.read': 'Notifications marked read',
  'notification.delete': 'Deleted notifications',
};

/** Nouns for a kind the table does not know yet (a newer host): "subtask.move" → "Subtask edits". */
export function editKindWords(kind: string): string {
  const known = (editWords as Record<string, string>)[kind];
  if (known) return known;
  const noun = kind.split('.')[0] ?? kind;
  return `${noun.charAt(0).toUpperCase()}${noun.slice(1)} edits`;
}
