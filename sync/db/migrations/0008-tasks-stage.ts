/**
 * 0008: a first fill lands in `tasks_stage` first, appended in the export's order, and moves
 * into the task tables afterwards in task id order (sync/db/queries/tasks-stage.ts). Written
 * straight into the task tables, the export's order (by modification time, unrelated to ids)
 * dirtied a different b-tree page per task in each of a dozen tables and indexes, and every
 * commit wrote all of them to the WAL again. Appended, a page of the export dirties about the
 * pages its bytes fill; the move appends to every task b-tree in key order. `data`: the JSON
 * of the rows the task writer builds (task columns, tags, owners, values, checklist, files),
 * NULL for a tombstone. Server data: emptied with the rest by a re-bootstrap.
 */
export const up = `
CREATE TABLE tasks_stage (
  seq INTEGER PRIMARY KEY,
  task_id INTEGER NOT NULL,
  data BLOB
) STRICT;
`;
