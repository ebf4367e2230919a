/**
 * The engine as the host sees it: one object per signed-in org with a method for every view,
 * the edit, the status and each control, answering in the bridge's shapes (shared/bridge).
 * The host binds bridge methods to these and knows nothing of tables or the outbox, like VS
 * Code's storage IPC channel in front of its IStorageMainService.
 */
import type { AttachmentFile, BridgeTaskScope, SyncStatus } from '../../shared/bridge';
import type { EditCommand, EditResult } from '../../shared/edits/commands';
import type { EngineEvent, SyncEngine } from '../engine/engine-api';
import type { Json } from '../outbox/types';
import {
  activeTimerView,
  commentsView,
  notificationsList,
  recentTasks,
  timesheetView,
  unreadCountView,
} from './activity-views';
import { openAttachment } from './attachment-open';
import { changesView } from './change-views';
import type { Answer, Input, ViewContext } from './context';
import {
  boardView,
  customFieldsFor,
  projectView,
  spacesNav,
  spacesTree,
  usersList,
} from './project-views';
import { spaceOverviewView } from './space-views';
import { statusView } from './status';
import { listTasks, searchView, statusCountsView, taskDetailView } from './task-views';

export interface EngineDoor {
  // ---- reads, one per view
  listTasks(input: Input<'tasks.list'>): Answer<'tasks.list'>;
  taskDetail(taskId: number): Answer<'tasks.detail'>;
  searchTasks(input: Input<'tasks.search'>): Answer<'tasks.search'>;
  statusCounts(scope: BridgeTaskScope): Answer<'tasks.statusCounts'>;
  spacesTree(): Answer<'spaces.tree'>;
  spacesNav(): Answer<'spaces.nav'>;
  spaceOverview(spaceId: number): Answer<'spaces.overview'>;
  project(projectId: number): Answer<'projects.get'>;
  board(projectId: number, perStatus: number): Answer<'projects.board'>;
  users(): Answer<'users.list'>;
  customFields(projectId: number | undefined): Answer<'customFields.forScope'>;
  notifications(input: Input<'notifications.list'>): Answer<'notifications.list'>;
  unreadCount(): Answer<'notifications.unreadCount'>;
  comments(taskId: number): Promise<Answer<'comments.list'>>;
  timesheet(from: number, to: number): Promise<Answer<'timesheet.range'>>;
  activeTimer(): Answer<'timers.active'>;
  recentTasks(): Answer<'timers.recentTasks'>;
  /** `urlOf`: where the UI can fetch the content (browser mode); null: it opens the path. */
  openAttachment(
    input: Input<'attachments.open'>,
    urlOf: ((attachmentId: number) => string) | null,
  ): Promise<AttachmentFile>;

  // ---- the edit: applied to the replica and queued, in one transaction
  edit(command: EditCommand): EditResult;
  /** Several edits as one undoable step, all or none. */
  editAll(input: Input<'edits.applyAll'>): Answer<'edits.applyAll'>;
  undo(): Answer<'history.undo'>;
  redo(): Answer<'history.redo'>;

  // ---- status
  status(): SyncStatus;
  /** The engine's events (status, changes, rekeys, progress); answers the unsubscribe. */
  on(listener: (event: EngineEvent) => void): () => void;

  // ---- control: each answers the status after it
  start(): void;
  /** Time between two background pulls from now on. */
  setPullInterval(ms: number): void;
  syncNow(): Promise<SyncStatus>;
  pause(): SyncStatus;
  resume(): SyncStatus;
  retry(input: Input<'sync.retry'>): SyncStatus;
  discard(mutationId: number): SyncStatus;
  resolveConflict(input: Input<'sync.resolveConflict'>): SyncStatus;
  dismissNotice(noticeId: number): SyncStatus;
  changes(): Answer<'sync.changes'>;
  seeChanges(): Answer<'sync.changesSeen'>;
  resolveChange(input: Input<'sync.resolveChange'>): Answer<'sync.resolveChange'>;
  /** Stops the first fill; paused first, so the restart after the stop begins no other pull. */
  cancelBootstrap(): Promise<SyncStatus>;
  /** Stops the engine and closes the replica (the file stays). */
  close(): Promise<void>;
}

export interface DoorOptions {
  /** The signed-in user the engine's replica belongs to. */
  userId: number;
  /** The replica's own folder (cached attachments, staged upload copies). */
  filesDir: string;
  /** The clock of the views (overdue, today, running timers). */
  now?: () => number;
}

/** The front door of one open engine. */
export const openDoor = (engine: SyncEngine, options: DoorOptions): EngineDoor => {
  const now = options.now ?? Date.now;
  const ctx = (): ViewContext => ({
    db: engine.replica.db,
    userId: options.userId,
    now: now(),
    engine,
    filesDir: options.filesDir,
  });
  const status = () => statusView(engine.status());
  return {
    listTasks: (input) => listTasks(ctx(), input),
    taskDetail: (taskId) => taskDetailView(ctx(), taskId),
    searchTasks: (input) => searchView(ctx(), input),
    statusCounts: (scope) => statusCountsView(ctx(), scope),
    spacesTree: () => spacesTree(ctx()),
    spacesNav: () => spacesNav(ctx()),
    spaceOverview: (spaceId) => spaceOverviewView(ctx(), spaceId),
    project: (projectId) => projectView(ctx(), projectId),
    board: (projectId, perStatus) => boardView(ctx(), projectId, perStatus),
    users: () => usersList(ctx()),
    customFields: (projectId) => customFieldsFor(ctx(), projectId),
    notifications: (input) => notificationsList(ctx(), input),
    unreadCount: () => unreadCountView(ctx()),
    comments: (taskId) => commentsView(ctx(), taskId),
    timesheet: (from, to) => timesheetView(ctx(), from, to),
    activeTimer: () => activeTimerView(ctx()),
    recentTasks: () => recentTasks(ctx()),
    openAttachment: (input, urlOf) => openAttachment(ctx(), input, urlOf),

    edit: (command) => engine.edit(command),
    editAll: (input) => ({ count: engine.editAll(input.commands).length }),
    undo: () => engine.undo(),
    redo: () => engine.redo(),

    status,
    on: (listener) => engine.on(listener),

    start: () => engine.start(),
    setPullInterval: (ms) => engine.setPullInterval(ms),
    syncNow: async () => {
      await engine.syncNow();
      return status();
    },
    pause: () => {
      engine.pause();
      return status();
    },
    resume: () => {
      engine.resume();
      return status();
    },
    retry: (input) => {
      engine.retry(input.mutationId, input.body as Json | undefined);
      return status();
    },
    discard: (mutationId) => {
      engine.discard(mutationId);
      return status();
    },
    resolveConflict: (input) => {
      engine.resolveConflict(input.mutationId, input.choice);
      return status();
    },
    dismissNotice: (noticeId) => {
      engine.dismissNotice(noticeId);
      return status();
    },
    changes: () => changesView(ctx()),
    seeChanges: () => {
      engine.seeChanges();
      return changesView(ctx());
    },
    resolveChange: (input) => {
      engine.resolveChange(input.changeId, input.choice);
      return changesView(ctx());
    },
    cancelBootstrap: async () => {
      engine.pause();
      await engine.stop();
      engine.start();
      return status();
    },
    close: () => engine.close(),
  };
};
