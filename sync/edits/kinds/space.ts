/** Spaces: create, update, delete (with their projects). */
import type { Space, SpaceCreateRequest } from '../../../shared/api/spaces';
import type { EditOf, EditResult } from '../../../shared/edits/commands';
import { entityExists } from '../../db/entity-rows';
import type { Sqlite } from '../../db/open';
import { deleteSpace, writeSpace } from '../../db/queries/projects-write';
import { isEditBase } from '../base';
import { knownSpace, localUser, spaceState } from '../state';
import { upsertSpace } from '../write-groups';
import { asObject } from './json';
import type { EditTx, EntityModule } from './types';

const create = (tx: EditTx, c: EditOf<'space.create'>): EditResult =>
  tx.created({
    kind: 'space.create',
    entity: 'space',
    operationId: 'createSpace',
    path: {},
    body: tx.checkBody('createSpace', c.fields),
  });

const update = (tx: EditTx, c: EditOf<'space.update'>): EditResult => {
  const id = knownSpace(tx.db, c.spaceId);
  const body = tx.checkBody('updateSpace', { ...spaceState(tx.db, id), ...c.patch });
  return tx.existing({
    kind: 'space.update',
    entity: 'space',
    id,
    operationId: 'updateSpace',
    path: { spaceId: id },
    body,
  });
};

const remove = (tx: EditTx, c: EditOf<'space.delete'>): EditResult => {
  const id = knownSpace(tx.db, c.spaceId);
  return tx.existing({
    kind: 'space.delete',
    entity: 'space',
    id,
    operationId: 'deleteSpace',
    path: { spaceId: id },
    deep: true,
  });
};

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
