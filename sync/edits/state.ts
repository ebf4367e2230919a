/**
 * What the API needs to know about an entity, read from the replica: where a task lives (the
 * operation and path parameters of each edit follow from it) and each entity's editable state
 * in the shape of its request body, so an update can send the complete state.
 */

import { entityExists } from '../db/entity-rows';
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { toIso } from '../db/queries/convert';
import type { EntityKind, JsonObject } from '../outbox';
import { serverIdOf } from '../outbox';

/** `not-found`: the edit names an entity the replica does not hold; `invalid`: anything else. */
export type EditErrorCode = 'invalid' | 'not-found';

export class EditError extends Error {
  override readonly name = 'EditError';
  readonly code: EditErrorCode;

  constructor(message: string, code: EditErrorCode = 'invalid') {
    super(message);
    this.code = code;
  }
}

/** The edit names an entity the replica does not hold. */
export const notInReplica = (what: string): EditError =>
  new EditError(`${what} is not in the replica`, 'not-found');

const USER_KEY = 'edits.user';

/** Remembers who makes the edits, for the creator of rows a rebase writes again. */
export const noteLocalUser = (db: Sqlite, userId: number): void => {
  // A read, not a write per edit: the user rarely changes within one replica.
  if (localUser(db) === userId) return;
  stmt(db, 'INSERT OR REPLACE INTO replica_info (key, value) VALUES (?, ?)').run(
    USER_KEY,
    String(userId),
  );
};

export const localUser = (db: Sqlite): number | null => {
  const r = stmt(db, 'SELECT value FROM replica_info WHERE key = ?').get(USER_KEY) as
    | { value: string }
    | undefined;
  return r ? Number(r.value) : null;
};

/** The id an entity goes by in the replica now: its server id once a local id is mapped. */
export const currentId = (db: Sqlite, kind: EntityKind, id: number): number =>
  serverIdOf(db, kind, id) ?? id;

/** A space the replica holds: its id now. */
export const knownSpace = (db: Sqlite, spaceId: number): number => {
  const id = currentId(db, 'space', spaceId);
  if (!entityExists(db, 'space', id)) throw notInReplica(`space ${spaceId}`);
  return id;
};

// ---- where a task lives ----------------------------------------------------------------------

export interface TaskPlace {
  taskId: number;
  spaceId: number | null;
  projectId: number | null;
  parentTaskId: number | null;
}

interface PlaceRow {
  task_id: number;
  space_id: number | null;
  project_id: number | null;
  parent_task_id: number | null;
}

const placeRow = (db: Sqlite, taskId: number): PlaceRow | undefined =>
  stmt(db, 'SELECT task_id, space_id, project_id, parent_task_id FROM tasks WHERE task_id = ?').get(
    taskId,
  ) as PlaceRow | undefined;

export const spaceOfProject = (db: Sqlite, projectId: number): number | null =>
  (
    stmt(db, 'SELECT space_id FROM projects WHERE project_id = ?').get(projectId) as
      | { space_id: number }
      | undefined
  )?.space_id ?? null;

/** A task's place; a subtask belongs where its parent belongs (as on the server). */
export const taskPlace = (db: Sqlite, taskId: number): TaskPlace => {
  const id = currentId(db, 'task', taskId);
  const row = placeRow(db, id);
  if (!row) throw notInReplica(`task ${taskId}`);
  const parent = row.parent_task_id === null ? undefined : placeRow(db, row.parent_task_id);
  const projectId = row.project_id ?? parent?.project_id ?? null;
  const spaceId =
    row.space_id ?? parent?.space_id ?? (projectId === null ? null : spaceOfProject(db, projectId));
  if (projectId !== null && spaceId === null) throw notInReplica(`the project of task ${taskId}`);
  return { taskId: id, spaceId, projectId, parentTaskId: row.parent_task_id };
};

export interface Op {
  operationId: string;
  path: Record<string, number>;
}

/** The update or delete operation of a task at its place. */
export const taskOp = (p: TaskPlace, verb: 'update' | 'delete'): Op => {
  const V = verb === 'update' ? 'update' : 'delete';
  if (p.parentTaskId === null) {
    if (p.projectId === null) return { operationId: `${V}Task`, path: { taskId: p.taskId } };
    return {
      operationId: `${V}ProjectTask`,
      path: { spaceId: p.spaceId ?? 0, projectId: p.projectId, taskId: p.taskId },
    };
  }
  if (p.projectId === null)
    return {
      operationId: `${V}PersonalSubtask`,
      path: { parentTaskId: p.parentTaskId, subtaskId: p.taskId },
    };
  return {
    operationId: `${V}Subtask`,
    path: {
      spaceId: p.spaceId ?? 0,
      projectId: p.projectId,
      taskId: p.parentTaskId,
      subtaskId: p.taskId,
    },
  };
};

/** Path parameters for something on a task or subtask (checklist items, files). */
export const onTaskPath = (p: TaskPlace): { sub: boolean; path: Record<string, number> } =>
  p.parentTaskId === null
    ? { sub: false, path: { taskId: p.taskId } }
    : { sub: true, path: { taskId: p.parentTaskId, subtaskId: p.taskId } };

// ---- editable state, as request bodies -------------------------------------------------------

const withoutNulls = (o: Record<string, unknown>): JsonObject => {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined) out[k] = v as never;
  return out;
};

interface TaskStateRow {
  title: string;
  description: string | null;
  status: string | null;
  priority: string | null;
  start_date: number | null;
  due_date: number | null;
  completion: number | null;
}

const isValueInput = (v: unknown): v is string | number | boolean | null =>
  v === null || ['string', 'number', 'boolean'].includes(typeof v);

export const taskState = (db: Sqlite, taskId: number): JsonObject | null => {
  const r = stmt(
    db,
    'SELECT title, description, status, priority, start_date, due_date, completion FROM tasks WHERE task_id = ?',
  ).get(taskId) as TaskStateRow | undefined;
  if (!r) return null;
  const tags = (
    stmt(db, 'SELECT name FROM task_tags WHERE task_id = ? ORDER BY name').all(taskId) as {
      name: string;
    }[]
  ).map((t) => t.name);
  const owners = (
    stmt(db, 'SELECT user_id FROM task_owners WHERE task_id = ? ORDER BY user_id').all(taskId) as {
      user_id: number;
    }[]
  ).map((o) => o.user_id);
  const values = (
    stmt(
      db,
      'SELECT field_id, value FROM custom_field_values WHERE task_id = ? ORDER BY field_id',
    ).all(taskId) as { field_id: number; value: string }[]
  )
    .map((v) => ({ taskCustomFieldId: v.field_id, value: JSON.parse(v.value) as unknown }))
    .filter((v): v is { taskCustomFieldId: number; value: string } => isValueInput(v.value));
  return {
    taskTitle: r.title,
    description: r.description ?? '',
    owners,
    startDate: toIso(r.start_date),
    dueDate: toIso(r.due_date),
    completion: r.completion ?? 0,
    ...withoutNulls({ status: r.status, priority: r.priority }),
    tags,
    customFieldValues: values,
  };
};

export const checklistState = (db: Sqlite, checklistId: number): JsonObject | null => {
  const r = stmt(
    db,
    'SELECT name, completed, assignee_id FROM checklist_items WHERE checklist_id = ?',
  ).get(checklistId) as { name: string; completed: number; assignee_id: number | null } | undefined;
  return r ? { name: r.name, completed: r.completed === 1, assigneeId: r.assignee_id } : null;
};

/** The name without its extension: what a rename sends (the server keeps the extension). */
export const baseName = (fileName: string, extension: string | null): string =>
  extension && fileName.toLowerCase().endsWith(`.${extension.toLowerCase()}`)
    ? fileName.slice(0, -(extension.length + 1))
    : fileName;

export const attachmentState = (db: Sqlite, attachmentId: number): JsonObject | null => {
  const r = stmt(db, 'SELECT file_name, extension FROM attachments WHERE attachment_id = ?').get(
    attachmentId,
  ) as { file_name: string; extension: string | null } | undefined;
  return r ? { fileName: baseName(r.file_name, r.extension) } : null;
};

export const spaceState = (db: Sqlite, spaceId: number): JsonObject | null => {
  const r = stmt(
    db,
    'SELECT space_name, description, space_type FROM spaces WHERE space_id = ?',
  ).get(spaceId) as
    | { space_name: string; description: string | null; space_type: string | null }
    | undefined;
  return r
    ? {
        spaceName: r.space_name,
        ...withoutNulls({ description: r.description, spaceType: r.space_type }),
      }
    : null;
};

interface ProjectStateRow {
  project_name: string;
  description: string | null;
  start_date: number | null;
  due_date: number | null;
  completion: number | null;
  is_public: number;
  status: string | null;
  priority: string | null;
  health: string | null;
  contact: string | null;
}

export const projectState = (db: Sqlite, projectId: number): JsonObject | null => {
  const r = stmt(
    db,
    `SELECT project_name, description, start_date, due_date, completion, is_public, status, priority, health, contact
     FROM projects WHERE project_id = ?`,
  ).get(projectId) as ProjectStateRow | undefined;
  if (!r) return null;
  const tags = (
    stmt(db, 'SELECT name FROM project_tags WHERE project_id = ? ORDER BY name').all(projectId) as {
      name: string;
    }[]
  ).map((t) => t.name);
  const members = (
    stmt(db, 'SELECT user_id FROM project_members WHERE project_id = ? ORDER BY user_id').all(
      projectId,
    ) as { user_id: number }[]
  ).map((m) => m.user_id);
  const contact = r.contact ? (JSON.parse(r.contact) as { contactId?: number }) : null;
  return {
    projectName: r.project_name,
    description: r.description ?? '',
    startDate: toIso(r.start_date),
    dueDate: toIso(r.due_date),
    completion: r.completion ?? 0,
    ...withoutNulls({ status: r.status, priority: r.priority, health: r.health }),
    tags,
    members,
    public: r.is_public === 1,
    contactId: contact?.contactId ?? null,
  };
};

export const timerState = (db: Sqlite, trackId: number): JsonObject | null => {
  const r = stmt(
    db,
    'SELECT billing_status, notes, start_time, duration_seconds FROM timers WHERE track_id = ?',
  ).get(trackId) as
    | {
        billing_status: string | null;
        notes: string | null;
        start_time: number;
        duration_seconds: number;
      }
    | undefined;
  return r
    ? {
        billingStatus: r.billing_status ?? 'BILLABLE',
        notes: r.notes,
        startTime: r.start_time,
        durationSeconds: r.duration_seconds,
      }
    : null;
};

export const notificationState = (db: Sqlite, id: number): JsonObject | null => {
  const r = stmt(db, 'SELECT read FROM notifications WHERE notification_id = ?').get(id) as
    | { read: number }
    | undefined;
  return r ? { read: r.read === 1 } : null;
};

const states: Readonly<Record<EntityKind, (db: Sqlite, id: number) => JsonObject | null>> = {
  task: taskState,
  checklist: checklistState,
  attachment: attachmentState,
  timer: timerState,
  project: projectState,
  space: spaceState,
  notification: notificationState,
};

/** The editable state of any entity, or null when the replica does not hold it. */
export const entityState = (db: Sqlite, kind: EntityKind, id: number): JsonObject | null =>
  states[kind](db, id);
