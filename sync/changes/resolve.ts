/**
 * One change's action. Keep theirs settles it (a refused or conflicting edit is discarded: the
 * replica already shows the server's copy). Restore mine is a new edit with the user's value,
 * the refused edit sent again, the conflicting one recreated, or a deleted task made again.
 */
import type { EditCommand } from '../../shared/edits/commands';
import type { Json, JsonObject } from '../../shared/edits/kinds';
import type { Sqlite } from '../db/open';
import { entityExists } from '../edits/entities';
import type { EntityKind } from '../outbox';
import { getMutation } from '../outbox/rows';
import type { DeletedTask } from './deleted';
import { getChange, type StoredChange, settleChange } from './store';

/** What resolving a change may ask of the engine. */
export interface ChangeActions {
  db: Sqlite;
  edit(command: EditCommand): void;
  retry(mutationId: number): void;
  discard(mutationId: number): void;
  recreate(mutationId: number): void;
}

const ITEM = /^(.+)\[(-?\d+)\]$/;

/** The patch that puts one field back: a keyed list's item is patched alone. */
const fieldPatch = (field: string, value: Json): JsonObject => {
  const item = ITEM.exec(field);
  if (item?.[1] === 'customFieldValues')
    return { customFieldValues: [{ taskCustomFieldId: Number(item[2]), value }] };
  return { [field]: value };
};

/** The edit that sets one field of an entity, per kind (none where no edit can). */
const restoreEdit: Readonly<
  Record<string, (id: number, field: string, value: Json) => EditCommand | null>
> = {
  task: (taskId, f, v) => ({ kind: 'task.update', taskId, patch: fieldPatch(f, v) }) as EditCommand,
  checklist: (checklistId, f, v) =>
    ({ kind: 'checklist.update', checklistId, patch: fieldPatch(f, v) }) as EditCommand,
  project: (projectId, f, v) =>
    ({ kind: 'project.update', projectId, patch: fieldPatch(f, v) }) as EditCommand,
  space: (spaceId, f, v) =>
    ({ kind: 'space.update', spaceId, patch: fieldPatch(f, v) }) as EditCommand,
  attachment: (attachmentId, f, v) =>
    f === 'fileName' && typeof v === 'string'
      ? { kind: 'attachment.rename', attachmentId, fileName: v }
      : null,
  timer: (trackId, f, v) =>
    ({ kind: 'timer.update', trackId, patch: fieldPatch(f, v) }) as EditCommand,
};

const parts = (entity: string): [string, number] => {
  const i = entity.lastIndexOf(':');
  return [entity.slice(0, i), Number(entity.slice(i + 1))];
};

const deletedTask = (mine: Json): DeletedTask | null => {
  if (mine === null || typeof mine !== 'object' || Array.isArray(mine)) return null;
  const fields = mine.fields;
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) return null;
  return mine as unknown as DeletedTask;
};

/** Whether "restore mine" can be done for a change now. */
export const canRestore = (db: Sqlite, c: StoredChange): boolean => {
  if (c.settled) return false;
  switch (c.kind) {
    case 'overwritten': {
      const [kind, id] = parts(c.entity);
      return (
        c.field !== null &&
        restoreEdit[kind] !== undefined &&
        entityExists(db, kind as EntityKind, id)
      );
    }
    case 'failed':
    case 'conflict':
      return c.mutationId !== null && getMutation(db, c.mutationId) !== null;
    case 'deleted':
      return deletedTask(c.mine) !== null;
    case 'adopted':
      return false;
  }
};

/** The task a deleted one is made again as: in its project while the replica holds it. */
const recreateTask = (db: Sqlite, t: DeletedTask): EditCommand => {
  const inProject =
    t.projectId !== null && entityExists(db, 'project', t.projectId)
      ? { projectId: t.projectId }
      : {};
  return { kind: 'task.create', ...inProject, fields: t.fields } as EditCommand;
};

export const resolveChange = (
  a: ChangeActions,
  changeId: number,
  choice: 'keepTheirs' | 'restoreMine',
): void => {
  const c = getChange(a.db, changeId);
  if (!c || c.settled) return;
  const queued = c.mutationId !== null && getMutation(a.db, c.mutationId) !== null;
  if (choice === 'keepTheirs') {
    if ((c.kind === 'failed' || c.kind === 'conflict') && queued && c.mutationId !== null)
      a.discard(c.mutationId);
    settleChange(a.db, changeId);
    return;
  }
  if (!canRestore(a.db, c)) throw new Error('this change cannot be restored');
  const [kind, id] = parts(c.entity);
  switch (c.kind) {
    case 'overwritten': {
      const command = c.field === null ? null : restoreEdit[kind]?.(id, c.field, c.mine);
      if (!command) throw new Error('this change cannot be restored');
      a.edit(command);
      break;
    }
    case 'failed':
      if (c.mutationId !== null) a.retry(c.mutationId);
      break;
    case 'conflict':
      if (c.mutationId !== null) a.recreate(c.mutationId);
      break;
    case 'deleted': {
      const t = deletedTask(c.mine);
      if (t) a.edit(recreateTask(a.db, t));
      break;
    }
    case 'adopted':
      break;
  }
  settleChange(a.db, changeId);
};
