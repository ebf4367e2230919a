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
  type EntityKind,
  entityKey,
  isLocalId,
  kindSpec,
  mapLocalId,
  parseEntityKey,
  type QueuedMutation,
} from '../outbox';
import type { EntityModules } from './kinds/types';

/** The id the server gave the entity an answer describes. */
const serverIdOfAnswer = (field: string, answer: unknown): number => {
  const v = (answer as Record<string, unknown> | null)?.[field];
  if (typeof v !== 'number') throw new TypeError(`the answer names no ${field}`);
  return v;
};

/**
 * Applies the answer of `row` (already settled by the caller, in the same transaction): the
 * pusher's `applyAnswer`. What the server's copy of each entity kind writes is its module's.
 * A create that made several entities (an upload) may answer a list: the local rows it made
 * (its module's `made`) give way to all of it, paired by its module's `answer.pairs`.
 */
export const applyAnswer = (
  modules: EntityModules,
  db: Sqlite,
  row: QueuedMutation,
  answer: unknown,
  path: Record<string, number>,
  now: number,
): Applied => {
  const spec = kindSpec(row.kind);
  const self = parseEntityKey(row.entity);
  const module: EntityModules[EntityKind] = modules[self.kind];
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
    const madeIds = module.made?.(row) ?? [];
    for (const id of new Set([self.id, ...madeIds])) if (isLocalId(id)) module.remove(db, id);
    const made = module.answer.pairs?.(row, items, madeIds) ?? [];
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
