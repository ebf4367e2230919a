/**
 * 0012: "Changes from sync" (sync/changes): what a pull or a push changed of the user's own
 * work. One row a change: the entity, the field (null: the whole entity), the user's value and
 * the server's as JSON, who made the server's and when, the outbox row it is about (a refused
 * or conflicting edit), and whether the user has seen and settled it. Kept 30 days. The user's
 * data, not the server's: a re-bootstrap keeps it.
 */
export const up = `
CREATE TABLE sync_changes (
  change_id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('overwritten', 'failed', 'conflict', 'deleted', 'adopted')),
  entity TEXT NOT NULL,
  name TEXT,
  task_id INTEGER,
  field TEXT,
  mine TEXT CHECK (mine IS NULL OR json_valid(mine)),
  theirs TEXT CHECK (theirs IS NULL OR json_valid(theirs)),
  by_user INTEGER,
  at INTEGER,
  mutation_id INTEGER,
  message TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  seen INTEGER NOT NULL DEFAULT 0 CHECK (seen IN (0, 1)),
  settled INTEGER NOT NULL DEFAULT 0 CHECK (settled IN (0, 1))
) STRICT;
CREATE INDEX sync_changes_created ON sync_changes (created_at);
`;
