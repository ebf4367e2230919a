/** Edits of spaces, projects and notifications: what each sends and writes. */
import type { EditOf, EditResult } from '../../shared/edits/commands';
import type { Sqlite } from '../db/open';
import type { EditContext } from './apply-tasks';
import { checkBody, editCreate, editExisting } from './commit';
import {
  currentId,
  entityExists,
  notInReplica,
  projectState,
  spaceOfProject,
  spaceState,
} from './state';

// ---- spaces and projects -------------------------------------------------------------------

const knownSpace = (db: Sqlite, spaceId: number) => {
  const id = currentId(db, 'space', spaceId);
  if (!entityExists(db, 'space', id)) throw notInReplica(`space ${spaceId}`);
  return id;
};

export const createSpace = (db: Sqlite, c: EditOf<'space.create'>, ctx: EditContext): EditResult =>
  editCreate(
    db,
    {
      kind: 'space.create',
      entity: 'space',
      operationId: 'createSpace',
      path: {},
      body: checkBody('createSpace', c.fields),
    },
    ctx.now,
  );

export const updateSpace = (
  db: Sqlite,
  c: EditOf<'space.update'>,
  ctx: EditContext,
): EditResult => {
  const id = knownSpace(db, c.spaceId);
  const body = checkBody('updateSpace', { ...spaceState(db, id), ...c.patch });
  return editExisting(
    db,
    {
      kind: 'space.update',
      entity: 'space',
      id,
      operationId: 'updateSpace',
      path: { spaceId: id },
      body,
    },
    ctx.now,
  );
};

export const deleteSpace = (
  db: Sqlite,
  c: EditOf<'space.delete'>,
  ctx: EditContext,
): EditResult => {
  const id = knownSpace(db, c.spaceId);
  return editExisting(
    db,
    {
      kind: 'space.delete',
      entity: 'space',
      id,
      operationId: 'deleteSpace',
      path: { spaceId: id },
      deep: true,
    },
    ctx.now,
  );
};

export const createProject = (
  db: Sqlite,
  c: EditOf<'project.create'>,
  ctx: EditContext,
): EditResult =>
  editCreate(
    db,
    {
      kind: 'project.create',
      entity: 'project',
      operationId: 'createProject',
      path: { spaceId: knownSpace(db, c.spaceId) },
      body: checkBody('createProject', c.fields),
    },
    ctx.now,
  );

const knownProject = (db: Sqlite, projectId: number) => {
  const id = currentId(db, 'project', projectId);
  const spaceId = spaceOfProject(db, id);
  if (spaceId === null) throw notInReplica(`project ${projectId}`);
  return { id, path: { spaceId, projectId: id } };
};

export const updateProject = (
  db: Sqlite,
  c: EditOf<'project.update'>,
  ctx: EditContext,
): EditResult => {
  const { id, path } = knownProject(db, c.projectId);
  const body = checkBody('updateProject', { ...projectState(db, id), ...c.patch });
  return editExisting(
    db,
    { kind: 'project.update', entity: 'project', id, operationId: 'updateProject', path, body },
    ctx.now,
  );
};

export const deleteProject = (
  db: Sqlite,
  c: EditOf<'project.delete'>,
  ctx: EditContext,
): EditResult => {
  const { id, path } = knownProject(db, c.projectId);
  return editExisting(
    db,
    {
      kind: 'project.delete',
      entity: 'project',
      id,
      operationId: 'deleteProject',
      path,
      deep: true,
    },
    ctx.now,
  );
};

// ---- notifications -------------------------------------------------------------------------

export const notificationEdit = (
  db: Sqlite,
  c: EditOf<'notification.read' | 'notification.delete'>,
  ctx: EditContext,
): EditResult => {
  const id = c.notificationId;
  if (!entityExists(db, 'notification', id)) throw notInReplica(`notification ${id}`);
  const read = c.kind === 'notification.read';
  return editExisting(
    db,
    {
      kind: c.kind,
      entity: 'notification',
      id,
      operationId: read ? 'markNotificationAsRead' : 'deleteNotification',
      path: { notificationId: id },
      deep: !read,
    },
    ctx.now,
  );
};
