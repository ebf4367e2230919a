/**
 * The rebase: after the server's rows landed in the replica (a pull, an answer), the edits
 * still queued are applied again on top, in mutation order, so a pull never hides a local
 * change. Runs inside the server-data transaction (`Replica.onServerWrite`), and for one
 * entity's own rows after an answer to an edit of it (`rebaseOwnRows`).
 *
 * An update's body is merged field by field with the server's new copy (merge.ts): the fields
 * the user changed keep the user's value unless another writer changed them later, judged in
 * the server's clock; the engine's own writes (an earlier row's values, answered or lost) are
 * never another writer. The row's body and base become the merge and the server's new copy,
 * so what is sent is the merge. An update of something the server deleted becomes a conflict
 * for the user to resolve, never a silent loss.
 */
import { recordChange } from '../changes/store';
import { entityExists, entityRows } from '../db/entity-rows';
import type { Sqlite } from '../db/open';
import type { Replica } from '../db/replica';
import {
  type EntityKey,
  type EntityKind,
  type Json,
  type JsonObject,
  kindSpec,
  markConflict,
  mayHaveReachedServer,
  mutationKindNames,
  parseEntityKey,
  type QueuedMutation,
} from '../outbox';
import { select } from '../outbox/rows';
import { type EditBase, isEditBase } from './base';
import { snapshotBase } from './commit';
import type { EntityModules } from './kinds/types';
import {
  changedFields,
  type Edited,
  type MergeClock,
  mergeEdited,
  mergeFields,
  same,
} from './merge';
import { reapplyRow, rowsToReapply } from './reapply';
import { entitiesOf, mergeRowSets, snapshotRows } from './snapshot';
import { currentId, entityState } from './state';
import { deletedAfter } from './superseded';
import { refreshCounts } from './write-tasks';

const kindOfKey = (key: string) => key.slice(0, key.lastIndexOf(':'));

/** Whether the server wrote `key`: named, or all of its kind (`task:*`). */
export const touches = (touched: ReadonlySet<string>, key: string): boolean =>
  touched.has(key) || touched.has(`${kindOfKey(key)}:*`);

const isObject = (v: Json): v is JsonObject =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

export interface RebaseReport {
  /** Rows whose effect was written again. */
  reapplied: number;
  /** Rows whose body took the server's newer fields. */
  merged: number[];
  /** Rows turned into conflicts: their entity is gone on the server. */
  conflicts: number[];
}

const setBase = (db: Sqlite, mutationId: number, base: EditBase) => {
  db.prepare('UPDATE outbox SET base = ? WHERE mutation_id = ?').run(
    JSON.stringify(base),
    mutationId,
  );
};

const setMerged = (db: Sqlite, mutationId: number, body: Json, base: EditBase, edited: Edited) => {
  db.prepare('UPDATE outbox SET body = ?, base = ?, edited = ? WHERE mutation_id = ?').run(
    JSON.stringify(body),
    JSON.stringify(base),
    JSON.stringify(edited),
    mutationId,
  );
};

/**
 * What the user changed with a row: its `edited`; for a row of an older build, the fields its
 * body differs in from its base (all of them without one), as of its last change.
 */
const rowEdited = (r: QueuedMutation, body: JsonObject): Edited => {
  if (r.edited) return r.edited;
  const base = isEditBase(r.base) ? r.base.state : null;
  return changedFields(body, base, r.updatedAt);
};

/** What the earlier queued rows of one entity tell the merge of a later one. */
interface EntityTrail {
  /** The fields the user changed with them, and when. */
  edited: Edited;
  /** The bodies they sent that may be on the server. */
  sent: JsonObject[];
}

export interface RebaseOptions {
  now: number;
  /** The server clock's offset from this machine's, as estimated (null: unknown). */
  clock?: MergeClock | null;
  /**
   * Entities whose new server copy is the answer to this engine's own write: every value in it
   * is ours, never another writer's (the write committed after edits made while it was on its
   * way, and must not beat them).
   */
  own?: ReadonlySet<string>;
}

/**
 * Re-applies every queued row (pending, in flight) whose entity or a reference of which the
 * server just wrote, and every row that depends on one re-applied, in mutation order.
 */
export const reapplyPending = (
  modules: EntityModules,
  db: Sqlite,
  touched: ReadonlySet<string>,
  options: RebaseOptions,
): RebaseReport => {
  if (touched.size === 0) return { reapplied: 0, merged: [], conflicts: [] };
  return rebaseRows(modules, db, rowsToReapply(db, touched), touched, options);
};

/**
 * Deletes still waiting whose base holds `key` (a task in a space being deleted) take its
 * rows as the server now has them, just written from an answer: undone before it is sent,
 * such a delete puts back the server's copy, not the one from before the edit.
 */
const refreshDeleteBases = (db: Sqlite, key: string) => {
  const { kind, id } = parseEntityKey(key);
  if (id < 0 || !entityExists(db, kind, id)) return;
  let rows: ReturnType<typeof snapshotRows> | null = null;
  for (const d of select(db, `state = 'pending' AND kind IN (${deepDeleteKinds})`)) {
    if (
      d.entity === key ||
      !isEditBase(d.base) ||
      !entitiesOf(d.base.rows).includes(key as EntityKey)
    )
      continue;
    rows ??= snapshotRows(db, kind, id, false);
    setBase(db, d.mutationId, { ...d.base, rows: mergeRowSets(d.base.rows, rows) });
  }
};
/** Deletes of what other entities hang on (their base holds those too). */
const deepDeleteKinds = mutationKindNames
  .filter((k) => kindSpec(k).effect === 'delete' && entityRows[kindSpec(k).entity].holds)
  .map((k) => `'${k}'`)
  .join(', ');

/**
 * After an answer to an edit of `key`, which rewrote that entity's own row only: its other
 * queued rows are merged with the answer, this engine's own write, and shown on top again
 * (the rows depending on it are as they were).
 */
export const rebaseOwnRows = (
  modules: EntityModules,
  db: Sqlite,
  key: string,
  options: RebaseOptions,
): RebaseReport => {
  refreshDeleteBases(db, key);
  return rebaseRows(
    modules,
    db,
    select(db, "state IN ('pending', 'inflight') AND entity = ?", key),
    new Set([key]),
    { ...options, own: new Set([key]) },
  );
};

const rebaseRows = (
  modules: EntityModules,
  db: Sqlite,
  todo: readonly QueuedMutation[],
  touched: ReadonlySet<string>,
  { now, clock = null, own }: RebaseOptions,
): RebaseReport => {
  const report: RebaseReport = { reapplied: 0, merged: [], conflicts: [] };
  const counted = new Set<number | null>();
  if (todo.length === 0) return report;

  // The server's copy of each entity it wrote itself, before any local edit goes on top.
  const fresh = new Map<EntityKey, EditBase>();
  const lastBody = new Map<EntityKey, Json>();
  for (const r of todo) if (kindSpec(r.kind).effect === 'update') lastBody.set(r.entity, r.body);
  for (const r of todo) {
    const { kind, id } = parseEntityKey(r.entity);
    if (id > 0 && !fresh.has(r.entity) && touches(touched, r.entity))
      fresh.set(r.entity, snapshotBase(db, kind, id, false));
    else if (
      id > 0 &&
      !fresh.has(r.entity) &&
      modules[kind].traits?.embedded &&
      rewrittenWithParent(db, kind, id, lastBody.get(r.entity))
    )
      fresh.set(r.entity, snapshotBase(db, kind, id, false));
    // A delete the server re-sent the entity for: a rollback must restore this copy.
    const deep = kindSpec(r.kind).effect === 'delete' && id > 0 && touches(touched, r.entity);
    if (deep && r.state === 'pending') {
      const now = snapshotBase(db, kind, id, true);
      // What the delete removed here (a space's projects and their tasks) is not in the
      // replica to snapshot again: it stays as the base had it.
      if (now.state !== null)
        setBase(
          db,
          r.mutationId,
          isEditBase(r.base) ? { ...now, rows: mergeRowSets(r.base.rows, now.rows) } : now,
        );
    }
  }

  const trails = new Map<EntityKey, EntityTrail>();
  for (const r of todo) {
    const { kind, id } = parseEntityKey(r.entity);
    const effect = kindSpec(r.kind).effect;
    const traits = modules[kind].traits ?? {};
    let body = r.body;
    if ((effect === 'update' || effect === 'move') && id > 0) {
      const server = fresh.get(r.entity) ?? null;
      const gone = server ? server.state === null : !entityExists(db, kind, id);
      // Absent from a partial list (active timers, newest notifications) is not deleted: the
      // edit goes on top again. Elsewhere the replica gets the whole of an entity (tombstones,
      // complete lists): absent means the server deleted it.
      if (gone && !traits.listedPartly) {
        // Gone because the user deleted it too (a delete queued behind this row, whose effect
        // removed the rows here): no conflict; the delete follows, and a delete of something
        // gone is done.
        if (deletedAfter(db, r)) continue;
        if (r.state === 'pending') {
          markConflict(
            db,
            r.mutationId,
            {
              kind: 'local',
              failure: 'conflict',
              message: `this ${kind} was deleted on the server after you edited it: recreate it with your changes, or discard them`,
            },
            now,
          );
          report.conflicts.push(r.mutationId);
        }
        continue;
      }
      if (server?.state && effect === 'update' && isObject(body) && !traits.unmerged) {
        const trail = trails.get(r.entity) ?? {
          edited: {},
          sent: own?.has(r.entity) ? [server.state] : [],
        };
        trails.set(r.entity, trail);
        const merged = mergeFields({
          body,
          base: isEditBase(r.base) ? r.base.state : null,
          server: server.state,
          serverModified: server.modifiedTime,
          edited: mergeEdited(trail.edited, rowEdited(r, body)),
          sent: trail.sent,
          clock,
        });
        if (!same(merged.body, body)) report.merged.push(r.mutationId);
        for (const o of merged.overruled)
          recordChange(
            db,
            {
              kind: 'overwritten',
              entity: r.entity,
              ...o,
              at: server.modifiedTime,
              message: 'Changed by someone else after your edit: their value was kept.',
            },
            now,
          );
        if (mayHaveReachedServer(r)) trail.sent.push(body);
        trail.edited = merged.edited;
        body = merged.body;
        if (r.state === 'pending') setMerged(db, r.mutationId, body, server, merged.edited);
      }
    }
    // The server never writes a local id's rows: a create whose rows are still there needs
    // only the counts of what it hangs on (the server's counts do not include it).
    if (effect === 'create' && id < 0 && entityExists(db, kind, currentId(db, kind, id))) {
      if (!traits.uncounted) counted.add(countedOn(db, r));
      continue;
    }
    if (reapplyRow(modules, db, { ...r, body }, now)) report.reapplied++;
  }
  refreshCounts(db, counted);
  return report;
};

/**
 * Entities that come embedded in their parent (checklist items in a bulk page) are not named
 * themselves: one whose row no longer shows the state the queued edit wrote was rewritten by
 * the server, and is that edit's new base.
 */
const rewrittenWithParent = (
  db: Sqlite,
  kind: EntityKind,
  id: number,
  body: Json | undefined,
): boolean => {
  if (body === undefined || !isObject(body)) return false;
  const state = entityState(db, kind, id);
  return state !== null && Object.keys(body).some((k) => !same(body[k], state[k]));
};

/** The task whose counts a create changes (a subtask's parent, an item's or a file's task). */
const countedOn = (db: Sqlite, r: QueuedMutation): number | null => {
  const ref = r.path.subtaskId ?? r.path.parentTaskId ?? r.path.taskId;
  return ref === undefined ? null : currentId(db, 'task', ref);
};

/** Hooks the rebase into every server-data transaction of the replica. */
export const installRebase = (
  modules: EntityModules,
  replica: Replica,
  clock: () => number = Date.now,
  serverClock: () => MergeClock | null = () => null,
): void => {
  replica.onServerWrite((db, touched, own) => {
    reapplyPending(modules, db, touched, { now: clock(), clock: serverClock(), own });
  });
};
