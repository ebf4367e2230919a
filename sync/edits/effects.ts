/**
 * The local effect of one outbox row, derived from the row alone (kind, operation, path,
 * body, entity): `applyEdit` writes it when the edit is made, the rebase writes it again on
 * top of rows a pull replaced, a rollback after the rows it keeps. Ids in a row may be local
 * ids the server has since mapped: each is read as the id the replica uses now.
 */
import type { BillingStatus } from '../../shared/api';
import type { ProjectCreateRequest } from '../../shared/api/projects';
import type { SpaceCreateRequest } from '../../shared/api/spaces';
import type { TaskCreateRequest } from '../../shared/api/tasks';
import type { Sqlite } from '../db/open';
import { deleteProjects, deleteSpace } from '../db/queries/projects-write';
import { deleteTasks } from '../db/queries/tasks-write';
import type { EntityKind, Json, JsonObject, MutationKind } from '../outbox';
import { kindSpec } from '../outbox';
import { currentId, entityExists, localUser, spaceOfProject, taskPlace } from './state';
import * as timers from './timers';
import {
  deleteNotification,
  markNotificationRead,
  upsertProject,
  upsertSpace,
} from './write-groups';
import {
  checklistTaskOf,
  deleteAttachment,
  deleteChecklistItem,
  insertLocalAttachments,
  type LocalFile,
  parentOf,
  refreshCounts,
  renameAttachment,
  updateChecklistItem,
  upsertChecklistItem,
  writeTaskState,
} from './write-tasks';

/** The parts of an outbox row its effect depends on. */
export interface EffectRow {
  kind: MutationKind;
  operationId: string;
  path: Readonly<Record<string, number>>;
  body: Json;
  /** The edited entity's id (the local id of a create). */
  entityId: number;
}

const obj = (body: Json): JsonObject =>
  body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {};

const num = (v: Json | undefined): number | null => (typeof v === 'number' ? v : null);

/** Body of an upload row: the local ids and what is known of the files, in order. */
export interface UploadBody {
  localIds: number[];
  files: LocalFile[];
}

/**
 * Applies a row's effect. Returns false when there was nothing to apply it to (an update of
 * a row the replica no longer holds).
 */
export const applyEffect = (db: Sqlite, row: EffectRow, now: number): boolean => {
  const entity = kindSpec(row.kind).entity;
  const id = currentId(db, entity, row.entityId);
  const ref = (kind: EntityKind, name: string): number | null => {
    const v = row.path[name];
    return v === undefined ? null : currentId(db, kind, v);
  };
  const body = obj(row.body);
  switch (row.kind) {
    case 'task.create': {
      const parent = ref(
        'task',
        row.operationId === 'createPersonalSubtask' ? 'parentTaskId' : 'taskId',
      );
      const projectId = ref('project', 'projectId');
      const spaceId = ref('space', 'spaceId');
      if (parent !== null && !entityExists(db, 'task', parent)) return false;
      writeTaskState(
        db,
        id,
        { spaceId, projectId, parentTaskId: row.operationId === 'createTask' ? null : parent },
        body as unknown as TaskCreateRequest,
        now,
        localUser(db),
      );
      refreshCounts(db, [parent]);
      return true;
    }
    case 'task.update': {
      if (!entityExists(db, 'task', id)) return false;
      const place = taskPlace(db, id);
      const own = db
        .prepare('SELECT space_id, project_id FROM tasks WHERE task_id = ?')
        .get(id) as { space_id: number | null; project_id: number | null };
      writeTaskState(
        db,
        id,
        { spaceId: own.space_id, projectId: own.project_id, parentTaskId: place.parentTaskId },
        body as unknown as TaskCreateRequest,
        now,
      );
      return true;
    }
    case 'task.delete': {
      // Applied again after a pull, the row may be gone already: its path names the parent.
      const parent =
        parentOf(db, id) ??
        ref('task', 'parentTaskId') ??
        (row.path.subtaskId === undefined ? null : ref('task', 'taskId'));
      const removed = deleteTasks(db, [id]) > 0;
      refreshCounts(db, [parent]);
      return removed;
    }
    case 'checklist.create': {
      const on = ref('task', 'subtaskId') ?? ref('task', 'taskId');
      if (on === null || !entityExists(db, 'task', on)) return false;
      upsertChecklistItem(
        db,
        id,
        on,
        { name: String(body.name ?? ''), assigneeId: num(body.assigneeId) },
        now,
      );
      refreshCounts(db, [on]);
      return true;
    }
    case 'checklist.update': {
      const on = checklistTaskOf(db, id);
      if (on === null) return false;
      updateChecklistItem(db, id, {
        name: String(body.name ?? ''),
        completed: body.completed === true,
        assigneeId: num(body.assigneeId),
      });
      refreshCounts(db, [on]);
      return true;
    }
    case 'checklist.delete': {
      const on = deleteChecklistItem(db, id);
      refreshCounts(db, [on ?? ref('task', 'subtaskId') ?? ref('task', 'taskId')]);
      return on !== null;
    }
    case 'attachment.upload': {
      const upload = body as unknown as UploadBody;
      const projectId = ref('project', 'projectId');
      const taskId =
        projectId === null ? (ref('task', 'subtaskId') ?? ref('task', 'taskId')) : null;
      const ids = (upload.localIds ?? []).map((l) => currentId(db, 'attachment', l));
      insertLocalAttachments(
        db,
        { taskId, projectId },
        ids,
        upload.files ?? [],
        localUser(db),
        now,
      );
      refreshCounts(db, [taskId]);
      return true;
    }
    case 'attachment.rename':
      if (!entityExists(db, 'attachment', id)) return false;
      renameAttachment(db, id, String(body.fileName ?? ''));
      return true;
    case 'attachment.delete': {
      const on = deleteAttachment(db, id);
      refreshCounts(db, [on ?? ref('task', 'subtaskId') ?? ref('task', 'taskId')]);
      return on !== null;
    }
    case 'timer.delete':
      db.prepare('DELETE FROM timers WHERE track_id = ?').run(id);
      return true;
    case 'timer.start':
    case 'timer.range':
    case 'timer.manual':
    case 'timer.pause':
    case 'timer.resume':
    case 'timer.stop':
    case 'timer.update': {
      const t = timers.readTruth(db, id);
      if (!t) return false;
      // Its task is gone (deleted here or on the server, which deletes its timers with it): no
      // row, or the next start would stop a timer the server no longer has.
      if (!entityExists(db, 'task', currentId(db, 'task', t.taskId))) {
        db.prepare('DELETE FROM timers WHERE track_id = ?').run(id);
        return false;
      }
      timers.writeTimerRow(db, id, t, now);
      return true;
    }
    case 'space.create':
    case 'space.update':
      if (row.kind === 'space.update' && !entityExists(db, 'space', id)) return false;
      upsertSpace(db, id, body as unknown as SpaceCreateRequest, localUser(db), now);
      return true;
    case 'space.delete':
      deleteSpace(db, id);
      return true;
    case 'project.create': {
      const spaceId = ref('space', 'spaceId');
      if (spaceId === null || !entityExists(db, 'space', spaceId)) return false;
      upsertProject(db, id, spaceId, body as unknown as ProjectCreateRequest, localUser(db), now);
      return true;
    }
    case 'project.update': {
      const spaceId = spaceOfProject(db, id);
      if (spaceId === null) return false;
      upsertProject(db, id, spaceId, body as unknown as ProjectCreateRequest, localUser(db), now);
      return true;
    }
    case 'project.delete':
      deleteProjects(db, [id]);
      return true;
    case 'notification.read':
      markNotificationRead(db, id);
      return true;
    case 'notification.delete':
      deleteNotification(db, id);
      return true;
  }
};

/**
 * Folds a timer row into the record of what the user saw: moves at the time stored in their
 * body (`at`), an update with its body at the row's time.
 */
export const foldTimerRow = (
  t: timers.TimerTruthRecord,
  row: Pick<EffectRow, 'kind' | 'body'> & { updatedAt: number },
): timers.TimerTruthRecord => {
  const body = obj(row.body);
  const at = num(body.at) ?? row.updatedAt;
  switch (row.kind) {
    case 'timer.pause':
      return timers.pause(t, at);
    case 'timer.resume':
      return timers.resume(t, at);
    case 'timer.stop':
      return timers.stop(t, at);
    case 'timer.update':
      return timers.update(
        t,
        {
          billingStatus: (body.billingStatus as BillingStatus | undefined) ?? t.billingStatus,
          notes: typeof body.notes === 'string' ? body.notes : null,
          startTime: num(body.startTime) ?? t.startTime,
          durationSeconds: num(body.durationSeconds) ?? Math.floor(t.accumulatedMs / 1000),
        },
        at,
      );
    default:
      return t;
  }
};
