/**
 * 0011: the user's undo history (sync/history). One row per undoable step; `entries` holds each
 * edit's command and what undoing it needs (its fields' values before and after, the ids it
 * made, a deleted entity's last state). `undone` = 1 marks the redo stack. `history_ids` maps
 * an id a step named to the id the same entity got again (a redone create, a recreated
 * delete), so older steps still find it. The user's data, not the server's: a re-bootstrap
 * keeps it.
 */
export const up = `
CREATE TABLE history_steps (
  step_id INTEGER PRIMARY KEY AUTOINCREMENT,
  label TEXT NOT NULL,
  kind TEXT NOT NULL,
  entries TEXT NOT NULL CHECK (json_valid(entries)),
  undone INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1)),
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX history_steps_undone ON history_steps (undone, step_id);
CREATE TABLE history_ids (
  kind TEXT NOT NULL,
  from_id INTEGER NOT NULL,
  to_id INTEGER NOT NULL,
  PRIMARY KEY (kind, from_id)
) STRICT, WITHOUT ROWID;
`;
