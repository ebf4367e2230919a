/** Projects in a space: create, update, delete (with their tasks). */
import type { Project, ProjectCreateRequest } from '../../../shared/api/projects';
import type { EditOf, EditResult } from '../../../shared/edits/commands';
import { entityExists } from '../../db/entity-rows';
import type { Sqlite } from '../../db/open';
import { deleteProjects, writeProject } from '../../db/queries/projects-write';
import {
  currentId,
  knownSpace,
  localUser,
  notInReplica,
  projectState,
  spaceOfProject,
} from '../state';
import { upsertProject } from '../write-groups';
import { asObject, pick } from './json';
import type { EditTx, EntityModule } from './types';

const create = (tx: EditTx, c: EditOf<'project.create'>): EditResult =>
  tx.created({
    kind: 'project.create',
    entity: 'project',
    operationId: 'createProject',
    path: { spaceId: knownSpace(tx.db, c.spaceId) },
    body: tx.checkBody('createProject', c.fields),
  });

const knownProject = (db: Sqlite, projectId: number) => {
  const id = currentId(db, 'project', projectId);
  const spaceId = spaceOfProject(db, id);
  if (spaceId === null) throw notInReplica(`project ${projectId}`);
  return { id, path: { spaceId, projectId: id } };
};

const update = (tx: EditTx, c: EditOf<'project.update'>): EditResult => {
  const { id, path } = knownProject(tx.db, c.projectId);
  const body = tx.checkBody('updateProject', { ...projectState(tx.db, id), ...c.patch });
  return tx.existing({
    kind: 'project.update',
    entity: 'project',
    id,
    operationId: 'updateProject',
    path,
    body,
  });
};

const remove = (tx: EditTx, c: EditOf<'project.delete'>): EditResult => {
  const { id, path } = knownProject(tx.db, c.projectId);
  return tx.existing({
    kind: 'project.delete',
    entity: 'project',
    id,
    operationId: 'deleteProject',
    path,
    deep: true,
  });
};

const write = (db: Sqlite, id: number, spaceId: number, body: unknown, now: number) =>
  upsertProject(db, id, spaceId, body as ProjectCreateRequest, localUser(db), now);

export const project: EntityModule<'project'> = {
  kinds: {
    'project.create': {
      apply: create,
      effect: (db, { id, body, ref, now }) => {
        const spaceId = ref('space', 'spaceId');
        if (spaceId === null || !entityExists(db, 'space', spaceId)) return false;
        write(db, id, spaceId, body, now);
        return true;
      },
    },
    'project.update': {
      apply: update,
      effect: (db, { id, body, now }) => {
        const spaceId = spaceOfProject(db, id);
        if (spaceId === null) return false;
        write(db, id, spaceId, body, now);
        return true;
      },
    },
    'project.delete': {
      apply: remove,
      effect: (db, { id }) => {
        // Its field definitions stay until the server's tombstone: an undo may put it back.
        deleteProjects(db, [id], { fieldDefinitions: false });
        return true;
      },
    },
  },
  answer: { idField: 'projectId', write: (db, item) => writeProject(db, item as Project) },
  remove: (db, id) => {
    deleteProjects(db, [id]);
  },
  recreate: (row) => ({
    kind: 'project.create',
    operationId: 'createProject',
    path: pick(row.path, ['spaceId']),
    body: asObject(row.body),
  }),
};
