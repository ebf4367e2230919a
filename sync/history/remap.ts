/**
 * Ids as the replica names them now. A step keeps the ids its edits named then; since, a
 * local id may have got its server id (`currentId`), and a redone create or a recreated
 * delete made the entity again under a new id (`history_ids`).
 */
import type { EditCommand } from '../../shared/edits/commands';
import type { Sqlite } from '../db/open';
import { currentId } from '../edits/state';
import type { EntityKind } from '../outbox';
import { movedTo } from './store';

export const resolveId = (db: Sqlite, kind: EntityKind, id: number): number => {
  let now = id;
  // A chain: redone, then its local id mapped, then made again… Bounded against a cycle.
  for (let i = 0; i < 16; i++) {
    const next = currentId(db, kind, movedTo(db, kind, now) ?? now);
    if (next === now) return now;
    now = next;
  }
  return now;
};

/** The command fields that name an entity, and the entity they name. */
const idFields: Record<string, EntityKind> = {
  taskId: 'task',
  parentTaskId: 'task',
  checklistId: 'checklist',
  attachmentId: 'attachment',
  trackId: 'timer',
  spaceId: 'space',
  projectId: 'project',
  notificationId: 'notification',
};

/** The command with every id it names as the replica names that entity now. */
export const remapCommand = (db: Sqlite, c: EditCommand): EditCommand => {
  const out: Record<string, unknown> = { ...c };
  for (const [field, kind] of Object.entries(idFields)) {
    const v = out[field];
    if (typeof v === 'number') out[field] = resolveId(db, kind, v);
  }
  return out as EditCommand;
};
