/**
 * 0002: indexes for the local read side (sync/db/queries/*-read.ts, views.ts, search.ts), each
 * checked with EXPLAIN QUERY PLAN on a 100k-task replica (see views.db.test.ts). Indexes
 * only, plus the FTS index rebuilt with prefix indexes: no table of server data changes, so
 * nothing in the file needs more than a rebuild of derived structures.
 */
export const up = `
-- Without statistics the planner used tasks_parent for "parent_task_id IS NULL" (80% of the
-- tasks, in id order) to skip the sort of a project's page, reading the whole table. Keep the
-- index to what it is for, the subtasks of a task ("x = ?" implies "x IS NOT NULL").
DROP INDEX tasks_parent;
CREATE INDEX tasks_children ON tasks(parent_task_id) WHERE parent_task_id IS NOT NULL;

-- Top-level tasks of a project (project_id = ?) or personal ones (project_id IS NULL), in id
-- order: a page sorted by the default (id) reads 20 entries, not the whole list.
CREATE INDEX tasks_top ON tasks(project_id) WHERE parent_task_id IS NULL;

-- statusCounts over every task: a scan of this index, grouped in order, no temp b-tree.
CREATE INDEX tasks_status ON tasks(status, completed);

-- myTasks: the owner index gives the user's task ids; this narrow index answers "open, and
-- due when?" for each without reading the wide task row (used with INDEXED BY).
CREATE INDEX tasks_open_due ON tasks(task_id, due_date) WHERE completed = 0;

-- Field definitions of a page of tasks: by project, or space-level by space (the OR of both).
CREATE INDEX custom_fields_scope ON custom_fields(project_id, space_id);

-- The running or paused timer of a user, among any number of stopped ones.
CREATE INDEX timers_active ON timers(user_id, start_time) WHERE state <> 'STOPPED';

-- Search as you type ends in a prefix: prefix indexes of 1 to 3 characters turn "r*" from a
-- merge of every term starting with r into one doclist. Same name, columns and content, so
-- the triggers of 0001 keep it in step; rebuilt from tasks.
DROP TABLE tasks_fts;
CREATE VIRTUAL TABLE tasks_fts USING fts5(
  title, description, content='tasks', content_rowid='task_id',
  tokenize='unicode61 remove_diacritics 2', prefix='1 2 3'
);
INSERT INTO tasks_fts(tasks_fts) VALUES ('rebuild');
`;
