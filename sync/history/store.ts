/** The history's rows: steps (undo stack: undone = 0; redo stack: undone = 1) and id moves. */
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { currentId } from '../edits/state';
import type { EntityKind } from '../outbox';
import type { Entry, StoredStep } from './types';

/** The steps kept: older ones fall off (a bound on the file, and on what undo reaches). */
export const HISTORY_LIMIT = 200;

interface StepRow {
  step_id: number;
  label: string;
  kind: string;
  entries: string;
}

const toStep = (r: StepRow | undefined): StoredStep | null =>
  r
    ? {
        stepId: r.step_id,
        label: r.label,
        kind: r.kind,
        entries: JSON.parse(r.entries) as Entry[],
      }
    : null;

/** A new step: the redo stack goes (it branched off), and the oldest beyond the bound. */
export const pushStep = (
  db: Sqlite,
  step: { label: string; kind: string; entries: Entry[] },
  now: number,
): number => {
  stmt(db, 'DELETE FROM history_steps WHERE undone = 1').run();
  const id = stmt(
    db,
    'INSERT INTO history_steps (label, kind, entries, undone, created_at) VALUES (?, ?, ?, 0, ?) RETURNING step_id',
  )
    .pluck()
    .get(step.label, step.kind, JSON.stringify(step.entries), now) as number;
  // By id, not by count: a range of the primary key. Ids of steps undone and then dropped
  // leave gaps, so at most HISTORY_LIMIT steps stay (fewer after such a branch).
  stmt(db, 'DELETE FROM history_steps WHERE step_id <= ?').run(id - HISTORY_LIMIT);
  return id;
};

/** The latest step not undone. */
export const topUndo = (db: Sqlite): StoredStep | null =>
  toStep(
    stmt(
      db,
      'SELECT step_id, label, kind, entries FROM history_steps WHERE undone = 0 ORDER BY step_id DESC LIMIT 1',
    ).get() as StepRow | undefined,
  );

/** The step undone last: the earliest of the undone ones (undo walks back from the newest). */
export const topRedo = (db: Sqlite): StoredStep | null =>
  toStep(
    stmt(
      db,
      'SELECT step_id, label, kind, entries FROM history_steps WHERE undone = 1 ORDER BY step_id ASC LIMIT 1',
    ).get() as StepRow | undefined,
  );

export const markStep = (db: Sqlite, stepId: number, undone: boolean, entries?: Entry[]): void => {
  if (entries)
    stmt(db, 'UPDATE history_steps SET undone = ?, entries = ? WHERE step_id = ?').run(
      undone ? 1 : 0,
      JSON.stringify(entries),
      stepId,
    );
  else
    stmt(db, 'UPDATE history_steps SET undone = ? WHERE step_id = ?').run(undone ? 1 : 0, stepId);
};

/**
 * The entity a step named as `from` is `to` now (made again by a redo or a recreate). Under
 * its server id too, when `from` is a local id that got one: a later step (a redo since) may
 * name it so, and resolveId follows a local id to its server id, never back.
 */
export const noteMoved = (db: Sqlite, kind: EntityKind, from: number, to: number): void => {
  for (const old of new Set([from, currentId(db, kind, from)]))
    if (old !== to)
      stmt(db, 'INSERT OR REPLACE INTO history_ids (kind, from_id, to_id) VALUES (?, ?, ?)').run(
        kind,
        old,
        to,
      );
};

export const movedTo = (db: Sqlite, kind: EntityKind, from: number): number | undefined =>
  (
    stmt(db, 'SELECT to_id FROM history_ids WHERE kind = ? AND from_id = ?').get(kind, from) as
      | { to_id: number }
      | undefined
  )?.to_id;
