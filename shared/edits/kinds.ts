/**
 * Every edit kind as the outbox carries it, as data: the entity kind it edits, its effect
 * (create, update, delete, move), the operations of the endpoint table that carry it, and which
 * path parameters and body fields name other entities. The command schemas beside it
 * (commands.ts) say what the UI sends; this table says what goes to the server. The engine's
 * queue, coalescer and id rewriter read this one table; none of them switches on a kind.
 */
import type { OperationId } from '../api/endpoints';
import type { EditKind } from './commands';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Kinds of entities the outbox edits; local ids are unique across all of them. */
export type EntityKind =
  | 'task'
  | 'checklist'
  | 'attachment'
  | 'timer'
  | 'project'
  | 'space'
  | 'notification';

/**
 * - create: makes a new entity (POST; gets a local id at once, the server's id on success).
 * - update: replaces the entity's editable state with the full current state (PUT).
 * - delete: removes the entity.
 * - move: a step of a state machine (timer pause, resume, stop): never merged, order kept.
 */
export type Effect = 'create' | 'update' | 'delete' | 'move';

/** How one operation of the endpoint table names entities in its request. */
export interface OperationSpec {
  /** The path parameter holding the edited entity's own id (absent for a create). */
  readonly self?: string;
  /** Path parameters naming other entities (a subtask create's `parentTaskId`, …). */
  readonly refs?: Readonly<Record<string, EntityKind>>;
  /** Top-level body fields naming other entities (a number or an array of numbers). */
  readonly bodyRefs?: Readonly<Record<string, EntityKind>>;
  /**
   * The service may answer with the container the entity was made in instead of the entity:
   * the API client's resolving call finds it (`createProjectTaskResolved`).
   */
  readonly answerResolved?: boolean;
}

/** What every edit of one entity kind shares. */
export interface EntitySpec {
  /**
   * Its rows go one at a time across all entities of the kind, in mutation order: a user has
   * one running timer, and the server refuses a start before the stop of the one before.
   */
  readonly serial?: boolean;
  /**
   * Its requests name it alone (a timer's, its trackId), yet the delete of what it hangs on
   * takes it along on the server: its rows depend on that holder too.
   */
  readonly holderUnnamed?: boolean;
}

export const entitySpecs: Readonly<Record<EntityKind, EntitySpec>> = {
  task: {},
  checklist: {},
  attachment: {},
  timer: { serial: true, holderUnnamed: true },
  project: {},
  space: {},
  notification: {},
};

/**
 * An update whose full state a pending create of the same entity can carry, so that
 * create + update go out as one create with the final state.
 */
export interface FoldSpec {
  /** The create kind of the same entity (a string here: the table cannot name its own keys). */
  readonly into: string;
  /**
   * Update-only fields and the value a create implies for them: the update folds only when
   * it carries exactly that value (a checklist item created and ticked stays two requests).
   */
  readonly implied?: Readonly<JsonObject>;
  /** Create-only fields, kept from the create's body (the update does not carry them). */
  readonly keepFromCreate?: readonly string[];
}

export interface KindSpec {
  readonly entity: EntityKind;
  readonly effect: Effect;
  /**
   * The entity being gone on the server does what this edit meant (a delete; a timer's stop:
   * a timer deleted with its task no longer runs): done, not a conflict. Implied for deletes.
   */
  readonly goneIsDone?: boolean;
  /**
   * Sent again after an earlier attempt took effect (its answer lost), the server refuses it
   * as not allowed (409): a timer's start meets the timer it started ("already has a running
   * timer"), a pause the timer it paused. Such a refusal is looked up before it stands: when
   * the server holds what the edit meant, the edit is done.
   */
  readonly refusedOnceDone?: boolean;
  /**
   * A later delete of the entity does not take its place: it is still sent first (a timer's
   * stop: the next start, queued before the delete, needs the timer stopped on the server).
   */
  readonly keptBeforeDelete?: boolean;
  /** The operations that carry this kind, with the entities each names. */
  readonly operations: Readonly<Partial<Record<OperationId, OperationSpec>>>;
  readonly fold?: FoldSpec;
}

const projectRefs = { spaceId: 'space', projectId: 'project' } as const;
const projectTaskRefs = { ...projectRefs, taskId: 'task' } as const;

/**
 * The mutation kinds. Path parameter names follow the endpoint table; a test checks that
 * every parameter of every listed operation is either `self` or a ref, and that the effect
 * matches the method.
 */
export const mutationKinds = {
  'task.create': {
    entity: 'task',
    effect: 'create',
    operations: {
      createTask: {},
      createProjectTask: { refs: projectRefs, answerResolved: true },
      createPersonalSubtask: { refs: { parentTaskId: 'task' } },
      createProjectSubtask: { refs: projectTaskRefs },
    },
  },
  'task.update': {
    entity: 'task',
    effect: 'update',
    fold: { into: 'task.create' },
    operations: {
      updateTask: { self: 'taskId' },
      updateProjectTask: { self: 'taskId', refs: projectRefs },
      updatePersonalSubtask: { self: 'subtaskId', refs: { parentTaskId: 'task' } },
      updateSubtask: { self: 'subtaskId', refs: projectTaskRefs },
    },
  },
  'task.delete': {
    entity: 'task',
    effect: 'delete',
    operations: {
      deleteTask: { self: 'taskId' },
      deleteProjectTask: { self: 'taskId', refs: projectRefs },
      deletePersonalSubtask: { self: 'subtaskId', refs: { parentTaskId: 'task' } },
      deleteSubtask: { self: 'subtaskId', refs: projectTaskRefs },
    },
  },
  'checklist.create': {
    entity: 'checklist',
    effect: 'create',
    operations: {
      createCheckListForTask: { refs: { taskId: 'task' } },
      createCheckListForSubtask: { refs: { taskId: 'task', subtaskId: 'task' } },
    },
  },
  'checklist.update': {
    entity: 'checklist',
    effect: 'update',
    // A create makes an incomplete item: only an unticked final state folds into it.
    fold: { into: 'checklist.create', implied: { completed: false } },
    operations: {
      updateCheckListForTask: { self: 'checklistId', refs: { taskId: 'task' } },
      updateCheckListForSubtask: {
        self: 'checklistId',
        refs: { taskId: 'task', subtaskId: 'task' },
      },
    },
  },
  'checklist.delete': {
    entity: 'checklist',
    effect: 'delete',
    operations: {
      deleteCheckListForTask: { self: 'checklistId', refs: { taskId: 'task' } },
      deleteCheckListForSubtask: {
        self: 'checklistId',
        refs: { taskId: 'task', subtaskId: 'task' },
      },
    },
  },
  'attachment.upload': {
    entity: 'attachment',
    effect: 'create',
    operations: {
      uploadTaskAttachments: { refs: { taskId: 'task' } },
      uploadSubtaskAttachments: { refs: { taskId: 'task', subtaskId: 'task' } },
      uploadProjectAttachments: { refs: projectRefs },
    },
  },
  'attachment.rename': {
    entity: 'attachment',
    effect: 'update',
    operations: {
      renameTaskAttachment: { self: 'attachmentId', refs: { taskId: 'task' } },
      renameSubtaskAttachment: {
        self: 'attachmentId',
        refs: { taskId: 'task', subtaskId: 'task' },
      },
      renameProjectAttachment: { self: 'attachmentId', refs: projectRefs },
    },
  },
  'attachment.delete': {
    entity: 'attachment',
    effect: 'delete',
    operations: {
      deleteTaskAttachment: { self: 'attachmentId', refs: { taskId: 'task' } },
      deleteSubtaskAttachment: {
        self: 'attachmentId',
        refs: { taskId: 'task', subtaskId: 'task' },
      },
      deleteProjectAttachment: { self: 'attachmentId', refs: projectRefs },
    },
  },
  'timer.start': {
    entity: 'timer',
    effect: 'create',
    refusedOnceDone: true,
    operations: {
      startTimer: { refs: { taskId: 'task' } },
      startProjectTaskTimer: { refs: { projectId: 'project', taskId: 'task' } },
    },
  },
  'timer.range': {
    entity: 'timer',
    effect: 'create',
    operations: {
      addNewTimeRange: { refs: { taskId: 'task' } },
      addRangeTimerForProjectTask: { refs: { projectId: 'project', taskId: 'task' } },
    },
  },
  'timer.manual': {
    entity: 'timer',
    effect: 'create',
    operations: {
      addNewManualTime: { refs: { taskId: 'task' } },
      addNewManualTimeForTask: { refs: { projectId: 'project', taskId: 'task' } },
    },
  },
  'timer.pause': {
    entity: 'timer',
    effect: 'move',
    refusedOnceDone: true,
    operations: { pauseTimer: { self: 'trackId' } },
  },
  'timer.resume': {
    entity: 'timer',
    effect: 'move',
    refusedOnceDone: true,
    operations: { resumeTimer: { self: 'trackId' } },
  },
  'timer.stop': {
    entity: 'timer',
    effect: 'move',
    goneIsDone: true,
    refusedOnceDone: true,
    keptBeforeDelete: true,
    operations: { stopTimer: { self: 'trackId' } },
  },
  'timer.update': {
    entity: 'timer',
    effect: 'update',
    operations: { updateTimer: { self: 'trackId' } },
  },
  'timer.delete': {
    entity: 'timer',
    effect: 'delete',
    operations: { deleteTimeTracker: { self: 'trackId' } },
  },
  'project.create': {
    entity: 'project',
    effect: 'create',
    operations: { createProject: { refs: { spaceId: 'space' } } },
  },
  'project.update': {
    entity: 'project',
    effect: 'update',
    fold: { into: 'project.create' },
    operations: { updateProject: { self: 'projectId', refs: { spaceId: 'space' } } },
  },
  'project.delete': {
    entity: 'project',
    effect: 'delete',
    operations: { deleteProject: { self: 'projectId', refs: { spaceId: 'space' } } },
  },
  'space.create': { entity: 'space', effect: 'create', operations: { createSpace: {} } },
  'space.update': {
    entity: 'space',
    effect: 'update',
    // SpaceUpdateRequest has no color: a folded create keeps the one it was made with.
    fold: { into: 'space.create', keepFromCreate: ['color'] },
    operations: { updateSpace: { self: 'spaceId' } },
  },
  'space.delete': {
    entity: 'space',
    effect: 'delete',
    operations: { deleteSpace: { self: 'spaceId' } },
  },
  'notification.read': {
    entity: 'notification',
    effect: 'update',
    operations: { markNotificationAsRead: { self: 'notificationId' } },
  },
  'notification.delete': {
    entity: 'notification',
    effect: 'delete',
    operations: { deleteNotification: { self: 'notificationId' } },
  },
} as const satisfies Record<EditKind, KindSpec>;

export type MutationKind = keyof typeof mutationKinds;
export const mutationKindNames = Object.keys(mutationKinds) as MutationKind[];

/** The operations of one kind: `OperationsOf<'task.create'>` = `'createTask' | …`. */
export type OperationsOf<K extends MutationKind> = keyof (typeof mutationKinds)[K]['operations'] &
  OperationId;
/** Every operation the outbox may replay. */
export type OutboxOperationId = { [K in MutationKind]: OperationsOf<K> }[MutationKind];

export const kindSpec = (kind: MutationKind): KindSpec => mutationKinds[kind];

/** Whether the entity being gone on the server means the edit is done (see `goneIsDone`). */
export const goneIsDone = (kind: MutationKind): boolean => {
  const spec = kindSpec(kind);
  return spec.effect === 'delete' || spec.goneIsDone === true;
};

/** Whether a refusal as not allowed may mean the edit is done (see `refusedOnceDone`). */
export const refusedOnceDone = (kind: MutationKind): boolean =>
  kindSpec(kind).refusedOnceDone === true;

export const isMutationKind = (s: string): s is MutationKind => Object.hasOwn(mutationKinds, s);

/** The operation's spec within a kind; throws when the kind does not use that operation. */
export const operationSpec = (kind: MutationKind, operationId: string): OperationSpec => {
  const ops: Readonly<Record<string, OperationSpec>> = kindSpec(kind).operations;
  const spec = Object.hasOwn(ops, operationId) ? ops[operationId] : undefined;
  if (!spec) throw new TypeError(`${operationId} does not carry ${kind}`);
  return spec;
};
