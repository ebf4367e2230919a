/**
 * The model's vocabulary: entity kinds and fields, the events of a case as the steps log them,
 * and what the model expects of the server at the end.
 */
import type { FieldExpectation, FieldHistory, Value } from './field-rules';
import type { TimerBlock, TimerExpectation, TimerField, TimerMove } from './model-timers';

/** Entities with fields; files and timers are kept apart (uploads, timers). */
export type EntityKind = 'task' | 'checklist' | 'space' | 'project';
/**
 * A task's fields: title, description, status, priority, completion, startDate, dueDate
 * (epoch ms or null), owners (sorted ids, `1,4`), tags (sorted names, `blue|red`), and on a
 * project task each custom field as `cf:<id>` (its stored JSON, or null).
 */
export type TaskField =
  | 'title'
  | 'description'
  | 'status'
  | 'priority'
  | 'completion'
  | 'startDate'
  | 'dueDate'
  | 'owners'
  | 'tags'
  | `cf:${number}`;
/** A checklist item's: its assignee a user id or null. */
export type ItemField = 'name' | 'completed' | 'assignee';
/** A space's (name, description) and a project's (also completion, dueDate as a task's). */
export type PlaceField = 'name' | 'description' | 'completion' | 'dueDate';
export type Field = TaskField | ItemField | PlaceField;

export const userPriorities = ['Low', 'High'] as const;
export const userStatuses = ['To Do', 'In Progress'] as const;

/** Something the user made on a task (an item, a file, a time entry): its key, id and time. */
interface MadeOnTask {
  key: string;
  org: number;
  id: number;
  task: string;
  at: number;
}

export type ModelEvent =
  | {
      type: 'seed-task';
      key: string;
      org: number;
      id: number;
      fields: Partial<Record<TaskField, Value>>;
      /** Its project. */
      within?: string;
    }
  | {
      type: 'seed-item';
      key: string;
      org: number;
      id: number;
      task: string;
      fields: { name: string; completed: boolean };
    }
  /** A seeded space or project (`within`: a project's space). */
  | {
      type: 'seed';
      kind: 'space' | 'project';
      key: string;
      org: number;
      id: number;
      within: string | null;
      fields: Partial<Record<Field, Value>>;
    }
  | {
      type: 'create-task';
      key: string;
      org: number;
      id: number;
      at: number;
      fields: Partial<Record<TaskField, Value>>;
      /** Its project, or its parent task (a subtask). */
      within?: string;
    }
  /** A space, a project (`within`: its space), or an entity made again by an undo or redo. */
  | {
      type: 'create';
      kind: EntityKind;
      key: string;
      org: number;
      id: number;
      task: string | null;
      within: string | null;
      at: number;
      fields: Partial<Record<Field, Value>>;
    }
  | ({ type: 'create-item'; name: string } & MadeOnTask)
  | ({ type: 'upload'; name: string; size: number; bytes: string } & MadeOnTask)
  | { type: 'set'; key: string; field: Field; value: Value; at: number }
  /** A file renamed by the user (the name the server keeps: with its extension). */
  | { type: 'rename'; key: string; value: string; at: number }
  | { type: 'timer-set'; key: string; field: TimerField; value: Value; at: number }
  /** An entity, a file or a time entry deleted. */
  | { type: 'delete'; key: string; at: number }
  /** A delete undone before it could reach the server: the entity is as it was. */
  | { type: 'undelete'; key: string; at: number }
  /** Time added whole (a range, manual time): a stopped block. */
  | ({ type: 'timer-add'; block: TimerBlock; notes: string | null; billing: string } & MadeOnTask)
  /**
   * A stopped entry's start or duration (or both) corrected; `undo`: a correction undone, the
   * entry again as it was before it.
   */
  | { type: 'timer-fix'; key: string; block: Partial<TimerBlock>; at: number; undo?: boolean }
  /** A pull that began after `from` succeeded before `at` (this machine's clock). */
  | { type: 'pulled'; from: number; at: number }
  /** Nothing of the user's was unsent at `at`: every earlier edit had reached the server. */
  | { type: 'quiet'; at: number }
  | ({ type: 'timer-start' } & MadeOnTask)
  | { type: 'timer-move'; key: string; move: TimerMove; at: number }
  | {
      type: 'write';
      key: string;
      field: Field;
      value: Value;
      before: Value;
      at: number;
      /** The user had an edit of the entity queued (pending or in flight) at the write. */
      unsent: boolean;
      /**
       * With `unsent`: the entity's fields on the server as the second client's sync began,
       * which its update may carry over a user edit landing meanwhile (field-rules.ts rule 3).
       */
      carry?: Partial<Record<Field, Value>>;
    }
  /** The second client's create landed (its fields as the server made them). */
  | {
      type: 'writer-create';
      key: string;
      kind: EntityKind;
      org: number;
      id: number;
      task: string | null;
      within: string | null;
      at: number;
      fields: Partial<Record<Field, Value>>;
    }
  /**
   * The second client's delete landed; `children`: the items, timers and files of a task that
   * the server had then (they went with it; those still queued here hang on the task).
   */
  | { type: 'writer-delete'; key: string; at: number; children: string[] }
  /** The user resolved a conflict over it by making it again (a new local id). */
  | { type: 'recreate'; key: string; id: number; at: number }
  /** The user let go of its create, refused (what it hung on was deleted by the second client). */
  | { type: 'let-go'; key: string; at: number };

export interface Entity {
  key: string;
  kind: EntityKind;
  org: number;
  /** The id the user knows it by: the server's (seeded) or the local one the edit answered. */
  id: number;
  /** The task it hangs on (items, attachments, timers). */
  task: string | null;
  /** What holds it: a project task's project, a subtask's parent, a project's space. */
  within: string | null;
  deletedAt: number | null;
  fields: Map<Field, FieldHistory>;
  /** Times of the user's edits of this entity's fields. */
  userEdits: number[];
  /** The writer's changes of this entity (any field). */
  writerChanges: { at: number; field: Field }[];
  /** Deleted by the second client (and not made again), at. */
  goneAt: number | null;
  /** Made again by the user after the second client deleted it. */
  recreatedAt: number | null;
  /** Made by the second client: landed by then (the user's replica has it once it pulls). */
  writerMadeAt: number | null;
  /** The second client's updates that may have carried older values (rule 3). */
  carries: { at: number; values: Partial<Record<Field, Value>> }[];
}

export interface Upload {
  key: string;
  org: number;
  id: number;
  task: string;
  /** The name uploaded (its history holds the renames). */
  name: string;
  names: FieldHistory;
  size: number;
  bytes: string;
  deletedAt: number | null;
  /** Gone with its task, deleted by the second client. */
  goneAt: number | null;
}

export interface EntityExpectation
  extends Pick<Entity, 'key' | 'kind' | 'org' | 'id' | 'task' | 'within'> {
  alive: boolean;
  fields: Partial<Record<Field, FieldExpectation>>;
}

export interface UploadExpectation extends Omit<Upload, 'names' | 'deletedAt' | 'goneAt'> {
  alive: boolean;
  nameExpect: FieldExpectation;
}

export interface Expectations {
  entities: EntityExpectation[];
  timers: TimerExpectation[];
  uploads: UploadExpectation[];
}
