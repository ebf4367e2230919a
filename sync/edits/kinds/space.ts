/** Spaces: create, update, delete (with their projects). */
import type { Space, SpaceCreateRequest } from '../../../shared/api/spaces';
import type { EditOf, EditResult } from '../../../shared/edits/commands';
import type { Sqlite } from '../../db/open';
import { deleteSpace, writeSpace } from '../../db/queries/projects-write';
import { checkBody, editCreate, editExisting, isEditBase } from '../commit';
import { entityExists } from '../entities';
import { addRowsOf, idsWhere } from '../rows';
import { currentId, localUser, notInReplica, spaceState } from '../state';
import { upsertSpace } from '../write-groups';
import { asObject } from './json';
import { projectRows } from './project';
import { stopTimerUnder } from './timer';
import type { EditContext, EntityModule } from './types';

/** A space the replica holds: its id now. */
export const knownSpace = (db: Sqlite, spaceId: number): number => {
  const id = currentId(db, 'space', spaceId);
  if (!entityExists(db, 'space', id)) throw notInReplica(`space ${spaceId}`);
  return id;
};

const create = (db: Sqlite, c: EditOf<'space.create'>, ctx: EditContext): EditResult =>
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

const update = (db: Sqlite, c: EditOf<'space.update'>, ctx: EditContext): EditResult => {
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

const remove = (db: Sqlite, c: EditOf<'space.delete'>, ctx: EditContext): EditResult => {
  const id = knownSpace(db, c.spaceId);
  stopTimerUnder(db, { spaceId: id }, ctx);
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

const tables = ['spaces', 'space_members'] as const;

const write = (db: Sqlite, id: number, body: unknown, now: number) =>
  upsertSpace(db, id, body as SpaceCreateRequest, localUser(db), now);

export const space: EntityModule<'space'> = {
  kinds: {
    'space.create': {
      apply: create,
      effect: (db, { id, body, now }) => {
        write(db, id, body, now);
        return true;
      },
    },
    'space.update': {
      apply: update,
      effect: (db, { id, body, now }) => {
        if (!entityExists(db, 'space', id)) return false;
        write(db, id, body, now);
        return true;
      },
    },
    'space.delete': {
      apply: remove,
      effect: (db, { id }) => {
        // Its field definitions stay until the server's tombstone: an undo may put it back.
        deleteSpace(db, id, { fieldDefinitions: false });
        return true;
      },
    },
  },
  rows: { column: 'space_id', tables, modifiedTime: true },
  deepRows: (db, id, into) => {
    addRowsOf(db, into, 'space_id', tables, [id]);
    const projects = idsWhere(db, 'SELECT project_id AS id FROM projects WHERE space_id = ?', id);
    projectRows(db, projects, true, into);
  },
  state: spaceState,
  answer: { idField: 'spaceId', write: (db, item) => writeSpace(db, item as Space) },
  remove: deleteSpace,
  recreate: (row, conflict) => {
    // SpaceUpdateRequest has no color: the one the space had comes from the base.
    const body = asObject(row.body);
    const color = isEditBase(conflict.base) ? conflict.base.rows.spaces?.[0]?.color : undefined;
    return {
      kind: 'space.create',
      operationId: 'createSpace',
      path: {},
      body: typeof color === 'string' ? { ...body, color } : body,
    };
  },
};
