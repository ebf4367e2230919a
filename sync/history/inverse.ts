/**
 * Undoing one entry: its inverse edits, applied through the same `applyEdit` path as any edit
 * (so they queue and coalesce like the user's own), or, for a delete that cannot have reached
 * the server, its outbox row dropped and the replica rolled back (nothing is sent). What an
 * undo cannot reverse is said in `notes`.
 */
import { type EditCommand, editCommand } from '../../shared/edits/commands';
import { gatherPatch, listOfItem, spreadItems } from '../../shared/edits/keyed-lists';
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { rollBack } from '../edits';
import { entityExists, entityHeld, entityState } from '../edits/entities';
import {
  discard as discardRow,
  type EntityKey,
  type EntityKind,
  entityKey,
  getMutation,
  type JsonObject,
  kindSpec,
  mayHaveReachedServer,
  mutationsOfEntity,
} from '../outbox';
import { pick } from './capture';
import { nounOf } from './label';
import { recreate } from './recreate';
import { resolveId } from './remap';
import type { CreateEntry, DeleteEntry, Entry, MoveEntry, UpdateEntry } from './types';
import { run, type UndoIo } from './undo-io';

export type { UndoIo } from './undo-io';

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The update command of an entity setting `patch` (its state-shaped fields). */
const updateCommand = (entity: EntityKind, id: number, patch: JsonObject): unknown => {
  switch (entity) {
    case 'task':
      return { kind: 'task.update', taskId: id, patch };
    case 'checklist':
      return { kind: 'checklist.update', checklistId: id, patch };
    case 'timer':
      return { kind: 'timer.update', trackId: id, patch };
    case 'space':
      return { kind: 'space.update', spaceId: id, patch };
    case 'project':
      return { kind: 'project.update', projectId: id, patch };
    case 'attachment':
      return { kind: 'attachment.rename', attachmentId: id, fileName: patch.fileName };
    default:
      return null;
  }
};

/**
 * Sets the fields of `target` that differ from the entity's state now. Fields the command
 * cannot set back (a status the entity had none of) are named in the notes.
 */
const setBack = (io: UndoIo, entity: EntityKind, id: number, target: JsonObject): void => {
  const patch: JsonObject = {};
  for (const [k, v] of Object.entries(target)) {
    if (editCommand.safeParse(updateCommand(entity, id, { [k]: v })).success) patch[k] = v;
    else io.notes.push(`its ${k} could not be set back`);
  }
  if (Object.keys(patch).length === 0) return;
  const parsed = editCommand.safeParse(updateCommand(entity, id, patch));
  if (parsed.success) run(io, parsed.data);
  else io.notes.push(`its ${Object.keys(patch).join(', ')} could not be set back`);
};

/**
 * An update: each field back to its value before, unless someone changed it since. A keyed
 * list (custom field values) goes item by item, as a patch names them: an item the step gave a
 * value to that had none is cleared, and another's change of another item is no change of this.
 */
const undoUpdate = (io: UndoIo, e: UpdateEntry) => {
  const id = resolveId(io.db, e.entity, e.id);
  // A row whose task (project, space) is gone went with it on the server.
  const state = entityHeld(io.db, e.entity, id) ? entityState(io.db, e.entity, id) : null;
  if (!state) {
    io.notes.push(`the ${nounOf(e.entity)} is gone, nothing to undo`);
    return;
  }
  const [before, after, now] = spreadItems([
    e.before,
    e.after,
    pick(state, Object.keys(e.after)),
  ]).map((o) => o ?? {}) as [JsonObject, JsonObject, JsonObject];
  const revert: JsonObject = {};
  const kept = new Set<string>();
  for (const k of Object.keys(after)) {
    if (!same(now[k], after[k])) kept.add(listOfItem(k));
    else if (!same(now[k], before[k])) {
      if (Object.hasOwn(before, k)) revert[k] = before[k] ?? null;
      else io.notes.push(`its ${k} could not be cleared`);
    }
  }
  if (kept.size > 0) io.notes.push(`${[...kept].join(', ')} changed since, left as it is`);
  if (Object.keys(revert).length === 0) {
    if (kept.size > 0) io.notes.push('nothing was undone');
    return;
  }
  setBack(io, e.entity, id, gatherPatch(revert));
};

const deleteCommand = (entity: EntityKind, id: number): EditCommand | null => {
  switch (entity) {
    case 'task':
      return { kind: 'task.delete', taskId: id };
    case 'checklist':
      return { kind: 'checklist.delete', checklistId: id };
    case 'attachment':
      return { kind: 'attachment.delete', attachmentId: id };
    case 'timer':
      return { kind: 'timer.delete', trackId: id };
    case 'space':
      return { kind: 'space.delete', spaceId: id };
    case 'project':
      return { kind: 'project.delete', projectId: id };
    default:
      return null;
  }
};

const timerStateOf = (db: Sqlite, trackId: number): string | null =>
  (
    stmt(db, 'SELECT state FROM timers WHERE track_id = ?').get(trackId) as
      | { state: string }
      | undefined
  )?.state ?? null;

/** A queued row (and what depends on it) given up: the replica back to the server's copy. */
const dropRow = (io: UndoIo, mutationId: number) => {
  const dropped = discardRow(io.db, mutationId);
  io.files.push(...dropped.files);
  rollBack(io.db, dropped.mutations, io.now);
  for (const m of dropped.mutations) io.touched.add(m.entity);
};

/**
 * A create undone whose entity is gone here (it went with the task it was made on): its row,
 * refused and waiting for the user or still queued, goes too. Kept, it would be sent should
 * that task be made again (seed 834385570: an undone time entry landed on the task remade).
 */
const dropParkedCreate = (io: UndoIo, key: EntityKey) => {
  const row = mutationsOfEntity(io.db, key).find(
    (r) => kindSpec(r.kind).effect === 'create' && r.state !== 'inflight',
  );
  if (!row) return;
  dropRow(io, row.mutationId);
};

/** A create: what it made is deleted (a create still queued and its delete send nothing). */
const undoCreate = (io: UndoIo, e: CreateEntry) => {
  for (const one of e.ids) {
    const id = resolveId(io.db, e.entity, one);
    const del = deleteCommand(e.entity, id);
    // Made on a task (project, space) gone since: it went with it on the server.
    if (!del || !entityHeld(io.db, e.entity, id)) {
      io.notes.push(`the ${nounOf(e.entity)} was already gone`);
      dropParkedCreate(io, entityKey(e.entity, id));
      continue;
    }
    // The API deletes stopped entries; a running timer is stopped first.
    const state = e.entity === 'timer' ? timerStateOf(io.db, id) : null;
    if (state === 'RUNNING' || state === 'PAUSED') run(io, { kind: 'timer.stop', trackId: id });
    run(io, del);
    io.touched.add(entityKey(e.entity, id));
  }
};

/** Failures of a connection that was never made: the request cannot have been sent. */
const neverConnected = /\b(ECONNREFUSED|ENOTFOUND|ENETUNREACH|EHOSTUNREACH|EAI_AGAIN)\b/;

/**
 * Whether the row cannot have reached the server. Beyond the queue's own rule: one attempt
 * whose connection was never made (the server down, no network) sent nothing either. Only
 * one: the row keeps the last attempt's error, and an earlier one may have timed out.
 */
const unsent = (row: NonNullable<ReturnType<typeof getMutation>>): boolean =>
  row.state !== 'inflight' &&
  (!mayHaveReachedServer(row) ||
    (row.state === 'pending' &&
      row.attempts === 1 &&
      row.lastError?.kind === 'network' &&
      neverConnected.test(row.lastError.message)));

/**
 * A delete: while its row cannot have reached the server, the row goes and the replica rolls
 * back (nothing is sent); once it may have, the entity is made again.
 */
const undoDelete = (io: UndoIo, e: DeleteEntry) => {
  const db = io.db;
  const row = e.mutationId === null ? undefined : getMutation(db, e.mutationId);
  if (row && unsent(row)) {
    dropRow(io, row.mutationId);
    const id = resolveId(db, e.entity, e.id);
    io.touched.add(entityKey(e.entity, id));
    // The rollback gives the server's copy; edits of the user's queued before the delete
    // (which the delete replaced) come back as one update.
    // A keyed list goes item by item, as an update names them: an item cleared then is
    // cleared again (a whole list would keep every item it does not name).
    const now = entityState(db, e.entity, id);
    if (e.state && now) {
      const [was, is] = spreadItems([e.state, now]).map((o) => o ?? {}) as [JsonObject, JsonObject];
      const diff: JsonObject = {};
      for (const [k, v] of Object.entries(was)) if (!same(is[k], v)) diff[k] = v ?? null;
      if (Object.keys(diff).length > 0) setBack(io, e.entity, id, gatherPatch(diff));
    }
    return;
  }
  const id = resolveId(db, e.entity, e.id);
  if (e.mutationId === null && id > 0) {
    io.notes.push('it was already being deleted');
    return;
  }
  if (entityExists(db, e.entity, id)) {
    io.notes.push(`the ${nounOf(e.entity)} is already back`);
    return;
  }
  recreate(io, e, e.copy);
};

const undoMove = (io: UndoIo, e: MoveEntry) => {
  if (e.command.kind === 'notification.read') {
    io.notes.push('the service cannot mark a notification unread');
    return;
  }
  const id = resolveId(io.db, 'timer', e.id);
  const state = timerStateOf(io.db, id);
  if (e.command.kind === 'timer.stop') {
    io.notes.push('a stopped timer cannot be started again');
    return;
  }
  if (!entityHeld(io.db, 'timer', id)) {
    io.notes.push('the time entry is gone, nothing to undo');
    return;
  }
  if (e.command.kind === 'timer.pause' && state === 'PAUSED')
    run(io, { kind: 'timer.resume', trackId: id });
  else if (e.command.kind === 'timer.resume' && state === 'RUNNING')
    run(io, { kind: 'timer.pause', trackId: id });
  else io.notes.push('the timer moved since, left as it is');
};

export const undoEntry = (io: UndoIo, e: Entry): void => {
  if (e.stopped !== undefined) io.notes.push('the timer it stopped stays stopped');
  if (e.t === 'update') undoUpdate(io, e);
  else if (e.t === 'create') undoCreate(io, e);
  else if (e.t === 'delete') undoDelete(io, e);
  else undoMove(io, e);
};
