import type { Db } from '../db/open';

/** The demo seed's inserts, prepared once per run and reused for every row. */
export const statements = (db: Db) => {
  const p = (sql: string) => db.prepare(sql);
  return {
    space: p(
      'INSERT INTO spaces (org_id, space_name, description, color, space_type, created_by, modified_by, created_time, modified_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    spaceMember: p(
      'INSERT INTO space_members (space_id, user_id, invited_by, role_id, role_name) VALUES (?, ?, ?, ?, ?)',
    ),
    contact: p(
      'INSERT INTO contacts (org_id, body, created_time, modified_time) VALUES (?, ?, ?, ?)',
    ),
    contactBody: p('UPDATE contacts SET body = ? WHERE contact_id = ?'),
    vocab: {
      status: p('SELECT status_id AS id FROM project_statuses WHERE org_id = ? AND name = ?'),
      priority: p(
        'SELECT priority_id AS id FROM project_priorities WHERE org_id = ? AND label = ?',
      ),
      health: p('SELECT health_id AS id FROM project_health WHERE org_id = ? AND label = ?'),
    },
    project: p(
      `INSERT INTO projects (org_id, space_id, project_name, description, start_date, due_date, completion, is_public,
         status_id, priority_id, health_id, contact_id, completed, completed_time, created_by, modified_by, created_time, modified_time)
       VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    projectCompletion: p('UPDATE projects SET completion = ? WHERE project_id = ?'),
    projectTag: p(
      'INSERT INTO project_tags (project_id, name, color, created_by) VALUES (?, ?, ?, ?)',
    ),
    projectMember: p(
      'INSERT INTO project_members (project_id, user_id, invited_by, role_id, role_name) VALUES (?, ?, ?, ?, ?)',
    ),
    field: p(
      `INSERT INTO custom_fields (org_id, space_id, project_id, name, description, field_type, icon, sort_order, created_by, created_time, modified_time)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    option: p('INSERT INTO custom_field_options (field_id, name, color) VALUES (?, ?, ?)'),
    task: p(
      `INSERT INTO tasks (org_id, space_id, project_id, parent_task_id, title, description, status, priority, start_date, due_date,
         completion, completed, completed_time, created_by, modified_by, created_time, modified_time)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    taskTag: p('INSERT INTO task_tags (task_id, name) VALUES (?, ?)'),
    taskOwner: p('INSERT INTO task_owners (task_id, user_id) VALUES (?, ?)'),
    value: p(
      'INSERT INTO custom_field_values (task_id, field_id, value, text, num) VALUES (?, ?, ?, ?, ?)',
    ),
    checklist: p(
      'INSERT INTO checklist_items (task_id, name, completed, assignee_id, position, created_time, modified_time) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    attachment: p(
      `INSERT INTO attachments (org_id, task_id, project_id, file_name, extension, content_type, size, completed_bytes, stored_name, created_by, created_time)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    timer: p(
      `INSERT INTO timers (org_id, task_id, project_id, user_id, state, start_time, end_time, accumulated_ms, running_since, billing_status, notes, created_time, modified_time)
       VALUES (?, ?, ?, ?, 'STOPPED', ?, ?, ?, NULL, ?, ?, ?, ?)`,
    ),
    notification: p(
      'INSERT INTO notifications (org_id, user_id, type, title, body, task_id, project_id, read, created_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    comment: p(
      'INSERT INTO comments (org_id, task_id, content, created_by, created_time, modified_time) VALUES (?, ?, ?, ?, ?, ?)',
    ),
  };
};

export type Statements = ReturnType<typeof statements>;

export const idOf = (info: { lastInsertRowid: number | bigint }) => Number(info.lastInsertRowid);
export const lookupId = (
  s: { get(...params: unknown[]): unknown },
  ...params: unknown[]
): number => {
  const row = s.get(...params) as { id: number } | undefined;
  if (!row) throw new Error(`demo seed: no vocabulary row for ${params.join(' / ')}`);
  return row.id;
};
