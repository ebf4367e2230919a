/**
 * The reference server's own SQLite schema. Every row belongs to an org (directly or through
 * its parent). Times are epoch milliseconds. Tasks and projects are soft-deleted so that the
 * bulk export can hand out tombstones; everything else is deleted for real.
 */
/**
 * 2: checklist items, attachments, timers and notifications are deleted for real, and their
 * ids are never given again (AUTOINCREMENT; open.ts rebuilds a version-1 file's tables): a
 * delete sent again after a lost answer must not remove a newer row that took the old id.
 */
export const schemaVersion = 2;

/** Tables whose rows are deleted for real: ids come from AUTOINCREMENT, never reused. */
export const neverReusedIds = [
  'checklist_items',
  'attachments',
  'timers',
  'notifications',
] as const;

export const schemaSql = `
CREATE TABLE IF NOT EXISTS orgs (
  org_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS users (
  user_id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  color TEXT NOT NULL DEFAULT '#6366f1',
  created_time INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS org_members (
  org_id INTEGER NOT NULL REFERENCES orgs(org_id),
  user_id INTEGER NOT NULL REFERENCES users(user_id),
  role_id INTEGER NOT NULL DEFAULT 2,
  role_name TEXT NOT NULL DEFAULT 'Member',
  PRIMARY KEY (org_id, user_id)
) STRICT;

-- Tokens are random; only their SHA-256 is stored.
CREATE TABLE IF NOT EXISTS tokens (
  token_hash TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  user_id INTEGER NOT NULL REFERENCES users(user_id),
  expires_at INTEGER NOT NULL,
  revoked INTEGER NOT NULL DEFAULT 0
) STRICT;

-- Added for refresh-token reuse detection (a table of its own: older files gain it as is).
-- A family is one sign-in and every pair its refreshes gave; rotated_at marks a refresh
-- token already exchanged. Tokens of older files have no row: a family of their own.
CREATE TABLE IF NOT EXISTS token_families (
  token_hash TEXT PRIMARY KEY REFERENCES tokens(token_hash) ON DELETE CASCADE,
  family TEXT NOT NULL,
  rotated_at INTEGER
) STRICT;
CREATE INDEX IF NOT EXISTS token_families_family ON token_families(family);

CREATE TABLE IF NOT EXISTS spaces (
  space_id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES orgs(org_id),
  space_name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  color TEXT NOT NULL DEFAULT '#0ea5e9',
  space_type TEXT NOT NULL DEFAULT 'PUBLIC',
  archived INTEGER NOT NULL DEFAULT 0,
  created_by INTEGER NOT NULL,
  modified_by INTEGER NOT NULL,
  created_time INTEGER NOT NULL,
  modified_time INTEGER NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0,
  deleted_time INTEGER,
  deleted_by INTEGER
) STRICT;
CREATE INDEX IF NOT EXISTS spaces_org ON spaces(org_id, deleted);

CREATE TABLE IF NOT EXISTS space_members (
  space_member_id INTEGER PRIMARY KEY,
  space_id INTEGER NOT NULL REFERENCES spaces(space_id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(user_id),
  invited_by INTEGER,
  role_id INTEGER NOT NULL DEFAULT 2,
  role_name TEXT NOT NULL DEFAULT 'Member',
  joined INTEGER NOT NULL DEFAULT 1,
  hidden INTEGER NOT NULL DEFAULT 0,
  UNIQUE (space_id, user_id)
) STRICT;

-- Per-org vocabularies of project status, priority and health.
CREATE TABLE IF NOT EXISTS project_statuses (
  status_id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES orgs(org_id),
  name TEXT NOT NULL COLLATE NOCASE,
  color TEXT NOT NULL,
  category TEXT NOT NULL,
  is_default INTEGER NOT NULL DEFAULT 0,
  created_time INTEGER NOT NULL,
  UNIQUE (org_id, name)
) STRICT;

CREATE TABLE IF NOT EXISTS project_priorities (
  priority_id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES orgs(org_id),
  label TEXT NOT NULL COLLATE NOCASE,
  color TEXT NOT NULL,
  is_default INTEGER NOT NULL DEFAULT 0,
  is_primary INTEGER NOT NULL DEFAULT 0,
  UNIQUE (org_id, label)
) STRICT;

CREATE TABLE IF NOT EXISTS project_health (
  health_id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES orgs(org_id),
  label TEXT NOT NULL COLLATE NOCASE,
  color TEXT NOT NULL,
  is_default INTEGER NOT NULL DEFAULT 0,
  is_primary INTEGER NOT NULL DEFAULT 0,
  UNIQUE (org_id, label)
) STRICT;

-- A contact is stored whole as JSON (the contact object of the spec, minus audit users).
CREATE TABLE IF NOT EXISTS contacts (
  contact_id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES orgs(org_id),
  body TEXT NOT NULL,
  created_time INTEGER NOT NULL,
  modified_time INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS projects (
  project_id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES orgs(org_id),
  space_id INTEGER NOT NULL REFERENCES spaces(space_id),
  project_name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  start_date INTEGER,
  due_date INTEGER,
  completion INTEGER NOT NULL DEFAULT 0,
  is_public INTEGER NOT NULL DEFAULT 1,
  archived INTEGER NOT NULL DEFAULT 0,
  status_id INTEGER REFERENCES project_statuses(status_id),
  priority_id INTEGER REFERENCES project_priorities(priority_id),
  health_id INTEGER REFERENCES project_health(health_id),
  contact_id INTEGER REFERENCES contacts(contact_id),
  completed INTEGER NOT NULL DEFAULT 0,
  completed_time INTEGER,
  created_by INTEGER NOT NULL,
  modified_by INTEGER NOT NULL,
  created_time INTEGER NOT NULL,
  modified_time INTEGER NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0,
  deleted_time INTEGER,
  deleted_by INTEGER
) STRICT;
CREATE INDEX IF NOT EXISTS projects_space ON projects(space_id, deleted);
CREATE INDEX IF NOT EXISTS projects_bulk ON projects(org_id, modified_time, project_id);

CREATE TABLE IF NOT EXISTS project_tags (
  project_tag_id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
  name TEXT NOT NULL COLLATE NOCASE,
  color TEXT NOT NULL DEFAULT '#64748b',
  created_by INTEGER NOT NULL,
  UNIQUE (project_id, name)
) STRICT;

CREATE TABLE IF NOT EXISTS project_members (
  project_member_id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(project_id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(user_id),
  invited_by INTEGER,
  role_id INTEGER NOT NULL DEFAULT 2,
  role_name TEXT NOT NULL DEFAULT 'Member',
  UNIQUE (project_id, user_id)
) STRICT;

-- Custom field definitions live on a space (project_id NULL) or on a project.
CREATE TABLE IF NOT EXISTS custom_fields (
  field_id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES orgs(org_id),
  space_id INTEGER REFERENCES spaces(space_id),
  project_id INTEGER REFERENCES projects(project_id),
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  field_type TEXT NOT NULL,
  icon TEXT NOT NULL DEFAULT '',
  sort_order INTEGER NOT NULL DEFAULT 0,
  created_by INTEGER NOT NULL,
  created_time INTEGER NOT NULL,
  modified_time INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS custom_fields_name ON custom_fields(org_id, name);

CREATE TABLE IF NOT EXISTS custom_field_options (
  option_id INTEGER PRIMARY KEY,
  field_id INTEGER NOT NULL REFERENCES custom_fields(field_id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  color TEXT NOT NULL DEFAULT '#64748b'
) STRICT;

CREATE TABLE IF NOT EXISTS tasks (
  task_id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES orgs(org_id),
  space_id INTEGER,
  project_id INTEGER,
  parent_task_id INTEGER,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL,
  priority TEXT NOT NULL,
  start_date INTEGER,
  due_date INTEGER,
  completion INTEGER NOT NULL DEFAULT 0,
  completed INTEGER NOT NULL DEFAULT 0,
  completed_time INTEGER,
  created_by INTEGER NOT NULL,
  modified_by INTEGER NOT NULL,
  created_time INTEGER NOT NULL,
  modified_time INTEGER NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0,
  deleted_time INTEGER,
  deleted_by INTEGER
) STRICT;
CREATE INDEX IF NOT EXISTS tasks_project ON tasks(project_id, parent_task_id, deleted);
CREATE INDEX IF NOT EXISTS tasks_parent ON tasks(parent_task_id, deleted);
CREATE INDEX IF NOT EXISTS tasks_personal ON tasks(org_id, project_id, parent_task_id, deleted);
CREATE INDEX IF NOT EXISTS tasks_bulk ON tasks(org_id, modified_time, task_id);

CREATE TABLE IF NOT EXISTS task_tags (
  task_id INTEGER NOT NULL REFERENCES tasks(task_id) ON DELETE CASCADE,
  name TEXT NOT NULL COLLATE NOCASE,
  PRIMARY KEY (task_id, name)
) STRICT, WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS task_owners (
  task_id INTEGER NOT NULL REFERENCES tasks(task_id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(user_id),
  PRIMARY KEY (task_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS task_owners_user ON task_owners(user_id);

-- text: the searchable form (an option's name for a dropdown); num: epoch ms for DATE, the
-- number for NUMBER. value: the JSON the API shows.
CREATE TABLE IF NOT EXISTS custom_field_values (
  task_id INTEGER NOT NULL REFERENCES tasks(task_id) ON DELETE CASCADE,
  field_id INTEGER NOT NULL REFERENCES custom_fields(field_id) ON DELETE CASCADE,
  value TEXT NOT NULL,
  text TEXT NOT NULL,
  num REAL,
  PRIMARY KEY (task_id, field_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS custom_field_values_field ON custom_field_values(field_id);

-- task_id is the task or subtask the item is on; position is dense from 0.
CREATE TABLE IF NOT EXISTS checklist_items (
  checklist_id INTEGER PRIMARY KEY AUTOINCREMENT,
  task_id INTEGER NOT NULL REFERENCES tasks(task_id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  completed INTEGER NOT NULL DEFAULT 0,
  assignee_id INTEGER,
  position INTEGER NOT NULL,
  created_time INTEGER NOT NULL,
  modified_time INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS checklist_items_task ON checklist_items(task_id, position);

-- Exactly one of task_id / project_id is set. stored_name is the file under the data dir.
CREATE TABLE IF NOT EXISTS attachments (
  attachment_id INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id INTEGER NOT NULL REFERENCES orgs(org_id),
  task_id INTEGER REFERENCES tasks(task_id),
  project_id INTEGER REFERENCES projects(project_id),
  file_name TEXT NOT NULL,
  extension TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  completed_bytes INTEGER NOT NULL,
  stored_name TEXT NOT NULL,
  created_by INTEGER NOT NULL,
  created_time INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS attachments_task ON attachments(task_id);
CREATE INDEX IF NOT EXISTS attachments_project ON attachments(project_id);

-- accumulated_ms: running time before running_since; running_since set only while RUNNING.
CREATE TABLE IF NOT EXISTS timers (
  track_id INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id INTEGER NOT NULL REFERENCES orgs(org_id),
  task_id INTEGER NOT NULL REFERENCES tasks(task_id),
  project_id INTEGER,
  user_id INTEGER NOT NULL REFERENCES users(user_id),
  state TEXT NOT NULL CHECK (state IN ('RUNNING', 'PAUSED', 'STOPPED')),
  start_time INTEGER NOT NULL,
  end_time INTEGER,
  accumulated_ms INTEGER NOT NULL DEFAULT 0,
  running_since INTEGER,
  billing_status TEXT NOT NULL DEFAULT 'BILLABLE',
  notes TEXT,
  created_time INTEGER NOT NULL,
  modified_time INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS timers_user ON timers(org_id, user_id, state);
CREATE INDEX IF NOT EXISTS timers_task ON timers(task_id);
-- One running or paused timer per user and org.
CREATE UNIQUE INDEX IF NOT EXISTS timers_one_active ON timers(org_id, user_id) WHERE state <> 'STOPPED';

CREATE TABLE IF NOT EXISTS notifications (
  notification_id INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id INTEGER NOT NULL REFERENCES orgs(org_id),
  user_id INTEGER NOT NULL REFERENCES users(user_id),
  type TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL DEFAULT '',
  task_id INTEGER,
  project_id INTEGER,
  read INTEGER NOT NULL DEFAULT 0,
  created_time INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS notifications_user ON notifications(org_id, user_id, read);

CREATE TABLE IF NOT EXISTS comments (
  comment_id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES orgs(org_id),
  task_id INTEGER NOT NULL REFERENCES tasks(task_id) ON DELETE CASCADE,
  content TEXT NOT NULL,
  created_by INTEGER NOT NULL,
  created_time INTEGER NOT NULL,
  modified_time INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS comments_task ON comments(task_id, created_time);

-- Idempotency-Key: the first answer to (user, key) is kept 24 h and replayed.
CREATE TABLE IF NOT EXISTS idempotency_keys (
  user_id INTEGER NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status INTEGER NOT NULL,
  response TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, key)
) STRICT;

-- Added for checklists, attachments, timers and notifications (indexes only; no table changed).
-- Timesheets read a user's or a project's timers by start time.
CREATE INDEX IF NOT EXISTS timers_user_start ON timers(org_id, user_id, start_time);
CREATE INDEX IF NOT EXISTS timers_project_start ON timers(project_id, start_time);
-- The notification list pages a user's rows newest first.
CREATE INDEX IF NOT EXISTS notifications_user_time ON notifications(org_id, user_id, created_time);

-- Added for the bulk export (indexes only; no table changed). A page of 5,000 tasks reads
-- their 15,000 checklist items by task id, in position order: this index holds every column
-- it selects, so the rows themselves are never read (a third less time on 100,000 tasks).
CREATE INDEX IF NOT EXISTS checklist_items_bulk ON checklist_items(task_id, position, checklist_id, name, completed, assignee_id, created_time, modified_time);
`;
