import type { Generated } from 'kysely';

/**
 * kysely's view of the replica, beside the migrations it mirrors (keep them in step; the
 * schema snapshot test catches a drift in the SQL, the typecheck in the queries).
 */
export interface UsersTable {
  user_id: number;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  color: string | null;
  ref: string;
}

export interface SpacesTable {
  space_id: number;
  space_name: string;
  description: string | null;
  color: string | null;
  space_type: string | null;
  archived: number;
  created_by: number | null;
  created_time: number | null;
  modified_time: number | null;
  extra: string | null;
}

export interface SpaceMembersTable {
  space_member_id: number;
  space_id: number;
  user_id: number | null;
  role_name: string | null;
  joined: number;
  hidden: number;
  extra: string | null;
}

export interface ProjectsTable {
  project_id: number;
  space_id: number;
  project_name: string;
  description: string | null;
  start_date: number | null;
  due_date: number | null;
  completion: number | null;
  is_public: number;
  archived: number;
  completed: number;
  completed_time: number | null;
  status: string | null;
  priority: string | null;
  health: string | null;
  contact: string | null;
  created_by: number | null;
  modified_by: number | null;
  created_time: number | null;
  modified_time: number | null;
  detail: string;
  extra: string | null;
}

export interface ProjectTagsTable {
  project_id: number;
  name: string;
  tag: string;
}

export interface ProjectMembersTable {
  project_id: number;
  user_id: number;
  member: string;
}

export interface CustomFieldsTable {
  field_id: number;
  space_id: number | null;
  project_id: number | null;
  name: string;
  field_type: string;
  sort_order: number | null;
  definition: string;
}

export interface TasksTable {
  task_id: number;
  space_id: number | null;
  project_id: number | null;
  parent_task_id: number | null;
  title: string;
  description: string | null;
  status: string | null;
  priority: string | null;
  start_date: number | null;
  due_date: number | null;
  completion: number | null;
  completed: number;
  completed_time: number | null;
  created_by: number | null;
  modified_by: number | null;
  created_time: number | null;
  modified_time: number | null;
  subtask_count: number;
  checklist_count: number;
  checklist_completed_count: number;
  attachment_count: number;
  extra: string | null;
}

export interface TaskTagsTable {
  task_id: number;
  name: string;
}

export interface TaskOwnersTable {
  task_id: number;
  user_id: number;
  /** The task's, copied for the "my tasks" index (0005). */
  due_date: number | null;
  completed: number;
}

export interface CustomFieldValuesTable {
  task_id: number;
  field_id: number;
  value: string;
  text: string | null;
  num: number | null;
}

export interface ChecklistItemsTable {
  checklist_id: number;
  task_id: number;
  name: string;
  completed: number;
  assignee_id: number | null;
  position: number;
  created_time: number | null;
  modified_time: number | null;
  extra: string | null;
}

export interface AttachmentsTable {
  attachment_id: number;
  task_id: number | null;
  project_id: number | null;
  file_name: string;
  extension: string | null;
  content_type: string | null;
  size: number | null;
  download_url: string | null;
  created_by: number | null;
  created_time: number | null;
  extra: string | null;
}

export interface TimersTable {
  track_id: number;
  task_id: number;
  project_id: number | null;
  user_id: number;
  state: string;
  start_time: number;
  end_time: number | null;
  duration_seconds: number;
  billing_status: string | null;
  notes: string | null;
  created_time: number | null;
  modified_time: number | null;
  observed_at: number;
  extra: string | null;
}

export interface NotificationsTable {
  notification_id: number;
  type: string;
  title: string;
  body: string | null;
  task_id: number | null;
  project_id: number | null;
  read: number;
  created_time: number;
  extra: string | null;
}

export interface CommentsTable {
  comment_id: number;
  task_id: number;
  content: string;
  created_by: number | null;
  created_time: number;
  modified_time: number | null;
  extra: string | null;
}

export interface LazyCacheTable {
  key: string;
  body: string;
  fetched_at: number;
}

export interface AttachmentFilesTable {
  attachment_id: number;
  path: string;
  size: number;
  content_type: string | null;
  fetched_at: number;
}

export interface TasksFtsTable {
  rowid: Generated<number>;
  title: string;
  description: string | null;
  tasks_fts: string;
  rank: number;
}

export type SyncPhase = 'bootstrap' | 'delta' | 'done';

export interface SyncStateTable {
  stream: string;
  phase: SyncPhase;
  cursor: string | null;
  pull_since: number | null;
  server_time: number | null;
  items_done: number;
  updated_at: number;
}

export interface ReplicaInfoTable {
  key: string;
  value: string;
}

export type OutboxState = 'pending' | 'inflight' | 'failed' | 'conflict';

/** 0007. JSON columns are TEXT; sync/outbox/queue.ts parses them. */
export interface OutboxTable {
  mutation_id: Generated<number>;
  entity: string;
  kind: string;
  operation_id: string;
  path: string;
  body: string | null;
  idempotency_key: string;
  depends_on: string;
  state: OutboxState;
  attempts: Generated<number>;
  next_attempt_at: Generated<number>;
  last_error: string | null;
  base: string | null;
  created_at: number;
  updated_at: number;
  /** 0010: the fields the user changed with this row, each with when (JSON object). */
  edited: string | null;
  /** 0010: when the row first went out. */
  sent_at: number | null;
}

/** 0010: what the sync panel tells the user about edits already sent. */
export interface OutboxNoticesTable {
  notice_id: Generated<number>;
  entity: string;
  message: string;
  created_at: number;
}

export interface OutboxFilesTable {
  mutation_id: number;
  position: number;
  name: string;
  /** Relative to the data directory. */
  path: string;
  size: number;
  content_type: string | null;
}

export interface LocalIdsTable {
  entity_kind: string;
  local_id: number;
  server_id: number;
}

export interface DB {
  users: UsersTable;
  spaces: SpacesTable;
  space_members: SpaceMembersTable;
  projects: ProjectsTable;
  project_tags: ProjectTagsTable;
  project_members: ProjectMembersTable;
  custom_fields: CustomFieldsTable;
  tasks: TasksTable;
  task_tags: TaskTagsTable;
  task_owners: TaskOwnersTable;
  custom_field_values: CustomFieldValuesTable;
  checklist_items: ChecklistItemsTable;
  attachments: AttachmentsTable;
  timers: TimersTable;
  notifications: NotificationsTable;
  comments: CommentsTable;
  lazy_cache: LazyCacheTable;
  attachment_files: AttachmentFilesTable;
  tasks_fts: TasksFtsTable;
  sync_state: SyncStateTable;
  replica_info: ReplicaInfoTable;
  outbox: OutboxTable;
  outbox_files: OutboxFilesTable;
  outbox_notices: OutboxNoticesTable;
  local_ids: LocalIdsTable;
}
