/** Projects in a space: create, update, delete (with their tasks). */
import type { Project, ProjectCreateRequest } from '../../../shared/api/projects';
import type { EditOf, EditResult } from '../../../shared/edits/commands';
import type { Sqlite } from '../../db/open';
import { deleteProjects, writeProject } from '../../db/queries/projects-write';
import { checkBody, editCreate, editExisting } from '../commit';
import { entityExists } from '../entities';
import { addRowsOf, IN, idsWhere, type RowSet } from '../rows';
import { currentId, localUser, notInReplica, projectState, spaceOfProject } from '../state';
import { upsertProject } from '../write-groups';
import { asObject, pick } from './json';
import { knownSpace } from './space';
import { taskRows } from './task';
import { stopTimerUnder } from './timer';
import type { EditContext, EntityModule } from './types';

const create = (db: Sqlite, c: EditOf<'project.create'>, ctx: EditContext): EditResult =>
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

const update = (db: Sqlite, c: EditOf<'project.update'>, ctx: EditContext): EditResult => {
  const { id, path } = knownProject(db, c.projectId);
  const body = checkBody('updateProject', { ...projectState(db, id), ...c.patch });
  return editExisting(
    db,
    { kind: 'project.update', entity: 'project', id, operationId: 'updateProject', path, body },
    ctx.now,
  );
};

const remove = (db: Sqlite, c: EditOf<'project.delete'>, ctx: EditContext): EditResult => {
  const { id, path } = knownProject(db, c.projectId);
  stopTimerUnder(db, { projectId: id }, ctx);
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

const tables = ['projects', 'project_tags', 'project_members'] as const;

/** Projects' rows; `deep` adds their tasks (deep) and files. */
export const projectRows = (db: Sqlite, ids: readonly number[], deep: boolean, into: RowSet) => {
  addRowsOf(db, into, 'project_id', tables, ids);
  if (!deep) return;
  const tasks = idsWhere(
    db,
    `SELECT task_id AS id FROM tasks WHERE project_id IN ${IN} AND parent_task_id IS NULL`,
    JSON.stringify(ids),
  );
  taskRows(db, tasks, true, into);
  addRowsOf(db, into, 'project_id', ['attachments'], ids);
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
  rows: { column: 'project_id', tables, modifiedTime: true },
  deepRows: (db, id, into) => projectRows(db, [id], true, into),
  state: projectState,
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
