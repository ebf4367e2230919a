/**
 * The server's answer to a replayed edit, written to the replica: the optimistic row gives way
 * to the server's row. A create's local id is mapped to the server's id and the local rows are
 * replaced by the server's; queued edits of the entity (and of entities under it) are then
 * re-applied by the replica's rebase hook, because the answer is written as server data.
 */
import type { Sqlite } from '../db/open';
import {
  type Applied,
  type EntityKey,
  entityKey,
  isLocalId,
  kindSpec,
  mapLocalId,
  parseEntityKey,
  type QueuedMutation,
} from '../outbox';
import { entityModule } from './kinds';

/** The id the server gave the entity an answer describes. */
const serverIdOfAnswer = (field: string, answer: unknown): number => {
  const v = (answer as Record<string, unknown> | null)?.[field];
  if (typeof v !== 'number') throw new TypeError(`the answer names no ${field}`);
  return v;
};

/**
 * Each file's local id with the attachment the server made of it: by file name (the answer's
 * order is not promised), in the order the files went.
 */
const uploadPairs = (
  row: QueuedMutation,
  items: readonly unknown[],
  localIds: readonly number[],
): [number, unknown][] => {
  const files = (row.body as { files?: { fileName?: unknown }[] } | null)?.files ?? [];
  const left = [...items];
  const pairs: [number, unknown][] = [];
  localIds.forEach((localId, i) => {
    const name = files[i]?.fileName;
    const at = left.findIndex((a) => (a as { fileName?: unknown }).fileName === name);
    const item = at >= 0 ? left.splice(at, 1)[0] : left.shift();
    if (item !== undefined) pairs.push([localId, item]);
  });
  return pairs;
};

/**
 * Applies the answer of `row` (already settled by the caller, in the same transaction): the
 * pusher's `applyAnswer`. What the server's copy of each entity kind writes is its module's.
 * Attachment uploads answer a list: the row's local attachment rows give way to all of it.
 */
export const applyAnswer = (
  db: Sqlite,
  row: QueuedMutation,
  answer: unknown,
  path: Record<string, number>,
  now: number,
  localAttachmentIds: readonly number[] = [],
): Applied => {
  const spec = kindSpec(row.kind);
  const self = parseEntityKey(row.entity);
  const module = entityModule(self.kind);
  const applied: Applied = { touched: [], rekeyed: [] };
  const touch = (key: EntityKey) => applied.touched.push(key);

  // A delete's answer, or an edit whose entity was found gone: all it meant (a timer's stop),
  // or moot (an update of something the user deleted after it).
  if (spec.effect === 'delete' || answer === null) {
    module.remove(db, self.id);
    touch(row.entity);
    return applied;
  }
  const items = Array.isArray(answer) ? (answer as unknown[]) : [answer];
  if (spec.effect === 'create') {
    const locals = self.kind === 'attachment' ? [self.id, ...localAttachmentIds] : [self.id];
    for (const id of new Set(locals)) if (isLocalId(id)) module.remove(db, id);
    const made = self.kind === 'attachment' ? uploadPairs(row, items, localAttachmentIds) : [];
    if (made.length === 0 && items[0] !== undefined) made.push([self.id, items[0]]);
    for (const [localId, item] of made) {
      if (!isLocalId(localId)) continue;
      const serverId = serverIdOfAnswer(module.answer.idField, item);
      mapLocalId(db, self.kind, localId, serverId);
      applied.rekeyed.push({
        from: entityKey(self.kind, localId),
        to: entityKey(self.kind, serverId),
      });
    }
  }
  for (const item of items) {
    module.answer.write(db, item, path, now);
    touch(entityKey(self.kind, serverIdOfAnswer(module.answer.idField, item)));
  }
  return applied;
};
