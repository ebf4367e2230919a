/**
 * What the history keeps of each edit: its command (to redo it) and what undoing it needs,
 * taken from the replica in the edit's own transaction. Stored as JSON in `history_steps`.
 */
import type { EditCommand } from '../../shared/edits/commands';
import type { EntityKind, JsonObject } from '../outbox';

/** An update (or a rename): the named fields' values just before it and just after it. */
export interface UpdateEntry {
  t: 'update';
  command: EditCommand;
  entity: EntityKind;
  id: number;
  before: JsonObject;
  after: JsonObject;
}

/** A create: the ids it made (an upload makes one per file). */
export interface CreateEntry {
  t: 'create';
  command: EditCommand;
  entity: EntityKind;
  ids: number[];
}

/** A checklist item as a recreate makes it again. */
export interface ItemCopy {
  id: number;
  name: string;
  completed: boolean;
  assigneeId: number | null;
}

/** A file as a recreate uploads it again: only with its content cached in the replica's folder. */
export interface FileCopy {
  id: number;
  name: string;
  /** The cached content (relative to the replica's files folder), or null when not here. */
  cached: { path: string; size: number; contentType: string | null } | null;
}

/** A task as a recreate makes it again: its fields, checklist, subtasks and files. */
export interface TaskCopy {
  id: number;
  fields: JsonObject;
  checklist: ItemCopy[];
  subtasks: TaskCopy[];
  files: FileCopy[];
  /** Its time entries the replica held (a recreate cannot make them again); absent in old copies. */
  timers?: number;
}

/** What a delete removed, as the user last saw it: enough to make it again once sent. */
export type DeletedCopy =
  | { entity: 'task'; projectId: number | null; parentTaskId: number | null; task: TaskCopy }
  | { entity: 'checklist'; taskId: number; item: ItemCopy }
  /** `projects`: how many it held (a recreate cannot make them again); absent in old copies. */
  | { entity: 'space'; fields: JsonObject; projects?: number }
  | { entity: 'project'; spaceId: number; fields: JsonObject; tasks: number }
  | {
      entity: 'timer';
      taskId: number;
      startTime: number;
      durationSeconds: number;
      billingStatus: string | null;
      notes: string | null;
    }
  | { entity: 'attachment'; taskId: number | null; projectId: number | null; file: FileCopy }
  | { entity: 'notification' };

/**
 * A delete: its outbox row (dropped again while it cannot have reached the server), the
 * entity's state before it (a rollback restores the server's copy: the user's earlier edits
 * still queued are put back from this), and its copy for a recreate.
 */
export interface DeleteEntry {
  t: 'delete';
  command: EditCommand;
  entity: EntityKind;
  id: number;
  mutationId: number | null;
  state: JsonObject | null;
  copy: DeletedCopy;
}

/** A timer's pause, resume or stop; a notification read: undone by the opposite move. */
export interface MoveEntry {
  t: 'move';
  command: EditCommand;
  entity: EntityKind;
  id: number;
}

/**
 * `stopped`: a running timer the edit stopped on the way (a start stops the one running, a
 * delete the one on its task). A stop cannot be undone: the undo says so.
 */
export type Entry = (UpdateEntry | CreateEntry | DeleteEntry | MoveEntry) & { stopped?: number };

export interface StoredStep {
  stepId: number;
  label: string;
  kind: string;
  entries: Entry[];
}

/** What undoing or redoing a step did, for its answer and the window's re-read. */
export interface StepOutcome {
  label: string;
  kind: string;
  entities: string[];
}
