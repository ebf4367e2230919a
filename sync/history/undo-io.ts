/** What undoing a step works with, and the one way its inverse edits are applied. */
import type { EditCommand, EditResult } from '../../shared/edits/commands';
import type { Sqlite } from '../db/open';

export interface UndoIo {
  db: Sqlite;
  now: number;
  /** The replica's files folder: cached attachment content a recreate uploads again. */
  filesDir: string;
  /** Applies an edit as any edit is applied (not recorded as a step of its own). */
  apply(c: EditCommand): EditResult;
  notes: string[];
  /** Entity keys changed, for the window's re-read. */
  touched: Set<string>;
  /** Staged files of dropped rows, removed after the commit. */
  files: string[];
}

/** An inverse edit applied; the entities it made or changed noted for the re-read. */
export const run = (io: UndoIo, c: EditCommand): EditResult => {
  const r = io.apply(c);
  for (const id of r.ids) io.touched.add(`${r.entityKind}:${id}`);
  return r;
};
