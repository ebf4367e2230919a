/** Builders of edits and a replica in a temp dir, for the outbox's tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sqlite } from '../db/open';
import { Replica } from '../db/replica';
import type { NewMutation } from './types';

export interface TempReplica {
  dir: string;
  replica: Replica;
  db: Sqlite;
  close(): void;
}

export const tempReplica = (prefix = 'outbox-'): TempReplica => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const replica = Replica.openFile(join(dir, 'replica.sqlite'));
  return {
    dir,
    replica,
    db: replica.db,
    close: () => {
      replica.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

export const taskState = (title: string, status = 'To Do') => ({ taskTitle: title, status });

export const createTask = (localId: number, title = 'new'): NewMutation => ({
  kind: 'task.create',
  operationId: 'createTask',
  path: {},
  localId,
  body: taskState(title),
});
export const createSubtask = (
  parentTaskId: number,
  localId: number,
  title = 'sub',
): NewMutation => ({
  kind: 'task.create',
  operationId: 'createPersonalSubtask',
  path: { parentTaskId },
  localId,
  body: taskState(title),
});
export const updateTask = (taskId: number, title: string, status = 'To Do'): NewMutation => ({
  kind: 'task.update',
  operationId: 'updateTask',
  path: { taskId },
  body: taskState(title, status),
});
export const deleteTask = (taskId: number): NewMutation => ({
  kind: 'task.delete',
  operationId: 'deleteTask',
  path: { taskId },
});
export const item = (name: string, completed: boolean, assigneeId: number | null = null) => ({
  name,
  completed,
  assigneeId,
});
export const createItem = (taskId: number, localId: number, name = 'item'): NewMutation => ({
  kind: 'checklist.create',
  operationId: 'createCheckListForTask',
  path: { taskId },
  localId,
  body: { name, assigneeId: null },
});
export const updateItem = (
  taskId: number,
  checklistId: number,
  body: ReturnType<typeof item>,
): NewMutation => ({
  kind: 'checklist.update',
  operationId: 'updateCheckListForTask',
  path: { taskId, checklistId },
  body,
});
export const deleteItem = (taskId: number, checklistId: number): NewMutation => ({
  kind: 'checklist.delete',
  operationId: 'deleteCheckListForTask',
  path: { taskId, checklistId },
});
export const startTimer = (taskId: number, localId: number): NewMutation => ({
  kind: 'timer.start',
  operationId: 'startTimer',
  path: { taskId },
  localId,
  body: { notes: null },
});
const moveOps = {
  'timer.pause': 'pauseTimer',
  'timer.resume': 'resumeTimer',
  'timer.stop': 'stopTimer',
} as const;
export const moveTimer = (kind: keyof typeof moveOps, trackId: number): NewMutation => ({
  kind,
  operationId: moveOps[kind],
  path: { trackId },
});
export const deleteTimer = (trackId: number): NewMutation => ({
  kind: 'timer.delete',
  operationId: 'deleteTimeTracker',
  path: { trackId },
});
export const uploadToTask = (taskId: number, localId: number): NewMutation => ({
  kind: 'attachment.upload',
  operationId: 'uploadTaskAttachments',
  path: { taskId },
  localId,
});
