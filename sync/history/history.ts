/**
 * The user's undo history, kept in the replica: every edit made through the engine records a
 * step in its own transaction; undo applies the step's inverses, redo its commands again, each
 * through `applyEdit` like any edit (they queue, coalesce and reach the server as edits do).
 */
import { z } from 'zod';
import { type EditCommand, type EditResult, editCommand } from '../../shared/edits/commands';
import { durably, type Sqlite } from '../db/open';
import { EditError } from '../edits/state';
import type { EntityKind } from '../outbox';
import { capture } from './capture';
import { type UndoIo, undoEntry } from './inverse';
import { batchLabel, labelOf } from './label';
import { remapCommand, resolveId } from './remap';
import { markStep, noteMoved, pushStep, topRedo, topUndo } from './store';
import type { Entry, StepOutcome } from './types';

export interface HistoryIo {
  db: Sqlite;
  now: number;
  /** Who makes the edits: the timer a start stops on the way is this user's. */
  userId: number;
  /** The replica's files folder (cached attachment content). */
  filesDir: string;
  /** Applies one edit to the replica and queues it (`applyEdit` with the engine's context). */
  apply(c: EditCommand): EditResult;
}

/** An edit, an undo or a redo is what only the user has: its commit is synced to disk. */
const inTx = <T>(db: Sqlite, fn: () => T): T => durably(db, fn);

const parse = (command: unknown): EditCommand => {
  const parsed = editCommand.safeParse(command);
  if (!parsed.success)
    throw new EditError(`invalid edit: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
  return parsed.data;
};

/**
 * Applies the edits as one step, all or none, and records it: each edit's inverse is read from
 * the replica just before it, in the same transaction. A new step clears the redo stack.
 */
export const editRecorded = (io: HistoryIo, commands: readonly unknown[]): EditResult[] =>
  inTx(io.db, () => {
    const entries: Entry[] = [];
    const labels: string[] = [];
    const results: EditResult[] = [];
    for (const raw of commands) {
      const c = parse(raw);
      labels.push(labelOf(io.db, c));
      const finish = capture(io.db, c, io.userId);
      const r = io.apply(c);
      entries.push(finish(r));
      results.push(r);
    }
    // An edit that changed nothing (a field committed again on blur) is no step to undo.
    const first = entries.some((e) => !unchanged(e)) ? entries[0] : undefined;
    if (first)
      pushStep(
        io.db,
        {
          label: batchLabel(
            labels,
            entries.map((e) => e.command.kind),
            first.entity,
          ),
          kind: first.command.kind,
          entries,
        },
        io.now,
      );
    return results;
  });

const unchanged = (e: Entry): boolean =>
  e.t === 'update' && JSON.stringify(e.before) === JSON.stringify(e.after);

const withNotes = (label: string, notes: string[]): string =>
  notes.length === 0 ? label : `${label} (${[...new Set(notes)].join('; ')})`;

const keysOf = (db: Sqlite, entries: Entry[], touched: Set<string>): string[] => {
  for (const e of entries) {
    const ids = e.t === 'create' ? e.ids : [e.id];
    for (const id of ids) touched.add(`${e.entity}:${resolveId(db, e.entity, id)}`);
  }
  return [...touched];
};

export interface UndoOutcome extends StepOutcome {
  /** Staged files of dropped rows: the caller removes them after the commit. */
  files: string[];
}

/** Undoes the latest step not undone: its entries' inverses, last first. */
export const undo = (io: HistoryIo): UndoOutcome | null =>
  inTx(io.db, () => {
    const step = topUndo(io.db);
    if (!step) return null;
    const u: UndoIo = { ...io, notes: [], touched: new Set(), files: [] };
    for (const e of [...step.entries].reverse()) undoEntry(u, e);
    markStep(io.db, step.stepId, true);
    return {
      label: withNotes(step.label, u.notes),
      kind: step.kind,
      entities: keysOf(io.db, step.entries, u.touched),
      files: u.files,
    };
  });

/**
 * Redoes the step undone last: its commands again, with the ids of today (a create makes a
 * new entity: the step's old ids lead to it from now on).
 */
export const redo = (io: HistoryIo): StepOutcome | null =>
  inTx(io.db, () => {
    const step = topRedo(io.db);
    if (!step) return null;
    const notes: string[] = [];
    const touched = new Set<string>();
    const entries: Entry[] = [];
    for (const e of step.entries) {
      const c = remapCommand(io.db, e.command);
      const finish = capture(io.db, c, io.userId);
      let r: EditResult;
      try {
        r = io.apply(c);
      } catch (error) {
        // Its entity is gone (deleted since), or its timer cannot make the move again (stopped
        // since: a stop is never undone): the rest of the step still goes.
        if (error instanceof EditError && (error.code === 'not-found' || e.t === 'move')) {
          notes.push(`${error.message}: skipped`);
          entries.push(e);
          continue;
        }
        throw error;
      }
      const next = finish(r);
      if (e.t === 'create' && next.t === 'create')
        e.ids.forEach((old, i) => {
          const now = next.ids[i];
          if (now !== undefined) noteMoved(io.db, e.entity as EntityKind, old, now);
        });
      for (const id of r.ids) touched.add(`${r.entityKind}:${id}`);
      entries.push(next);
    }
    markStep(io.db, step.stepId, false, entries);
    return {
      label: withNotes(step.label, notes),
      kind: step.kind,
      entities: keysOf(io.db, entries, touched),
    };
  });
