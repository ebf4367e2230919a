/**
 * 0001: the replica of server data, and sync state. Server rows are a cache: everything in
 * the "server data" tables can be wiped and rebuilt from the server (see serverDataTables).
 * Times are epoch ms; 0/1 integers for booleans. `extra` keeps fields of the server's answer
 * this version does not know (tolerant parsing), as JSON, or NULL.
 */
export const up = `
CREATE TABLE users (
  user_id INTEGER PRIMARY KEY,
  first_name TEXT,
  last_name TEXT,
  email TEXT,
  color TEXT,
  ref TEXT NOT NULL
) STRICT;

CREATE TABLE spaces (
  space_id INTEGER PRIMARY KEY,
  space_name TEXT NOT NULL,
  description TEXT,
  color TEXT,
  space_type TEXT,
  archived INTEGER NOT NULL DEFAULT 0,
  created_by INTEGER,
  created_time INTEGER,
  modified_time INTEGER,
  extra TEXT
) STRICT;

CREATE TABLE space_members (
  space_member_id INTEGER PRIMARY KEY,
  space_id INTEGER NOT NULL,
  user_id INTEGER,
  role_name TEXT,
  joined INTEGER NOT NULL DEFAULT 1,
  hidden INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX space_members_space ON space_members(space_id);

CREATE TABLE projects (
  project_id INTEGER PRIMARY KEY,
  space_id INTEGER NOT NULL,
  project_name TEXT NOT NULL,
  description TEXT,
  start_date INTEGER,
  due_date INTEGER,
  completion INTEGER,
  is_public INTEGER NOT NULL DEFAULT 0,
  archived INTEGER NOT NULL DEFAULT 0,
  completed INTEGER NOT NULL DEFAULT 0,
  completed_time INTEGER,
  status TEXT,
  priority TEXT,
  health TEXT,
  contact TEXT,
  created_by INTEGER,
  modified_by INTEGER,
  created_time INTEGER,
  modified_time INTEGER,
  -- projectStatus / projectPriority / projectHealth objects and the rest, as the server sent them
  detail TEXT NOT NULL,
  extra TEXT
) STRICT;
CREATE INDEX projects_space ON projects(space_id, project_name);

CREATE TABLE project_tags (
  project_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  tag TEXT NOT NULL,
  PRIMARY KEY (project_id, name)
) STRICT, WITHOUT ROWID;

CREATE TABLE project_members (
  project_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL,
  member TEXT NOT NULL,
  PRIMARY KEY (project_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX project_members_user ON project_members(user_id);

CREATE TABLE custom_fields (
  field_id INTEGER PRIMARY KEY,
  space_id INTEGER,
  project_id INTEGER,
  name TEXT NOT NULL,
  field_type TEXT NOT NULL,
  sort_order INTEGER,
  -- the definition as the server sent it, without fieldValue
  definition TEXT NOT NULL
) STRICT;
CREATE INDEX custom_fields_name ON custom_fields(name);

CREATE TABLE tasks (
  task_id INTEGER PRIMARY KEY,
  space_id INTEGER,
  project_id INTEGER,
  parent_task_id INTEGER,
  title TEXT NOT NULL,
  description TEXT,
  status TEXT,
  priority TEXT,
  start_date INTEGER,
  due_date INTEGER,
  completion INTEGER,
  completed INTEGER NOT NULL DEFAULT 0,
  completed_time INTEGER,
  created_by INTEGER,
  modified_by INTEGER,
  created_time INTEGER,
  modified_time INTEGER,
  subtask_count INTEGER NOT NULL DEFAULT 0,
  checklist_count INTEGER NOT NULL DEFAULT 0,
  checklist_completed_count INTEGER NOT NULL DEFAULT 0,
  attachment_count INTEGER NOT NULL DEFAULT 0,
  extra TEXT
) STRICT;
CREATE INDEX tasks_project ON tasks(project_id, parent_task_id, status);
CREATE INDEX tasks_parent ON tasks(parent_task_id);
CREATE INDEX tasks_due ON tasks(due_date) WHERE completed = 0;
CREATE INDEX tasks_modified ON tasks(modified_time);

CREATE TABLE task_tags (
  task_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (task_id, name)
) STRICT, WITHOUT ROWID;
CREATE INDEX task_tags_name ON task_tags(name COLLATE NOCASE);

CREATE TABLE task_owners (
  task_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL,
  PRIMARY KEY (task_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX task_owners_user ON task_owners(user_id, task_id);

CREATE TABLE custom_field_values (
  task_id INTEGER NOT NULL,
  field_id INTEGER NOT NULL,
  value TEXT NOT NULL,
  text TEXT,
  num REAL,
  PRIMARY KEY (task_id, field_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX custom_field_values_field ON custom_field_values(field_id, task_id);

-- task_id: the task or subtask the item is on.
CREATE TABLE checklist_items (
  checklist_id INTEGER PRIMARY KEY,
  task_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  completed INTEGER NOT NULL,
  assignee_id INTEGER,
  position INTEGER NOT NULL,
  created_time INTEGER,
  modified_time INTEGER,
  extra TEXT
) STRICT;
CREATE INDEX checklist_items_task ON checklist_items(task_id, position);

-- task_id: the task or subtask it is on; project_id for project attachments.
CREATE TABLE attachments (
  attachment_id INTEGER PRIMARY KEY,
  task_id INTEGER,
  project_id INTEGER,
  file_name TEXT NOT NULL,
  extension TEXT,
  content_type TEXT,
  size INTEGER,
  download_url TEXT,
  created_by INTEGER,
  created_time INTEGER,
  extra TEXT
) STRICT;
CREATE INDEX attachments_task ON attachments(task_id);
CREATE INDEX attachments_project ON attachments(project_id);

CREATE TABLE timers (
  track_id INTEGER PRIMARY KEY,
  task_id INTEGER NOT NULL,
  project_id INTEGER,
  user_id INTEGER NOT NULL,
  state TEXT NOT NULL,
  start_time INTEGER NOT NULL,
  end_time INTEGER,
  duration_seconds INTEGER NOT NULL,
  billing_status TEXT,
  notes TEXT,
  created_time INTEGER,
  modified_time INTEGER,
  -- when this copy was taken: a running timer's duration grows from here
  observed_at INTEGER NOT NULL,
  extra TEXT
) STRICT;
CREATE INDEX timers_task ON timers(task_id);
CREATE INDEX timers_state ON timers(state);
CREATE INDEX timers_start ON timers(start_time);

CREATE TABLE notifications (
  notification_id INTEGER PRIMARY KEY,
  type TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT,
  task_id INTEGER,
  project_id INTEGER,
  read INTEGER NOT NULL,
  created_time INTEGER NOT NULL,
  extra TEXT
) STRICT;
CREATE INDEX notifications_unread ON notifications(read, created_time);

-- Lazy data, fetched on demand and served from here when offline.
CREATE TABLE comments (
  comment_id INTEGER PRIMARY KEY,
  task_id INTEGER NOT NULL,
  content TEXT NOT NULL,
  created_by INTEGER,
  created_time INTEGER NOT NULL,
  modified_time INTEGER,
  extra TEXT
) STRICT;
CREATE INDEX comments_task ON comments(task_id, created_time);

CREATE TABLE lazy_cache (
  key TEXT PRIMARY KEY,
  body TEXT NOT NULL,
  fetched_at INTEGER NOT NULL
) STRICT;

CREATE TABLE attachment_files (
  attachment_id INTEGER PRIMARY KEY,
  path TEXT NOT NULL,
  size INTEGER NOT NULL,
  content_type TEXT,
  fetched_at INTEGER NOT NULL
) STRICT;

-- Offline search the API does not offer: titles and descriptions of tasks.
CREATE VIRTUAL TABLE tasks_fts USING fts5(
  title, description, content='tasks', content_rowid='task_id', tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER tasks_fts_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO tasks_fts(rowid, title, description) VALUES (new.task_id, new.title, new.description);
END;
CREATE TRIGGER tasks_fts_delete AFTER DELETE ON tasks BEGIN
  INSERT INTO tasks_fts(tasks_fts, rowid, title, description) VALUES ('delete', old.task_id, old.title, old.description);
END;
CREATE TRIGGER tasks_fts_update AFTER UPDATE OF title, description ON tasks BEGIN
  INSERT INTO tasks_fts(tasks_fts, rowid, title, description) VALUES ('delete', old.task_id, old.title, old.description);
  INSERT INTO tasks_fts(rowid, title, description) VALUES (new.task_id, new.title, new.description);
END;

-- Per stream (tasks, projects, spaces, notifications, timers): where the last complete pull
-- ended (server_time), and a bootstrap or pull in progress (cursor, items done).
CREATE TABLE sync_state (
  stream TEXT PRIMARY KEY,
  phase TEXT NOT NULL CHECK (phase IN ('bootstrap', 'delta', 'done')),
  cursor TEXT,
  pull_since INTEGER,
  server_time INTEGER,
  items_done INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE replica_info (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;
`;

/** The tables that hold server data: a re-bootstrap empties exactly these (and the FTS index). */
export const serverDataTables = [
  'users',
  'spaces',
  'space_members',
  'projects',
  'project_tags',
  'project_members',
  'custom_fields',
  'tasks',
  'task_tags',
  'task_owners',
  'custom_field_values',
  'checklist_items',
  'attachments',
  'timers',
  'notifications',
  'sync_state',
] as const;
