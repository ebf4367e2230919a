/**
 * Local writes of spaces, projects and notifications: the optimistic effect of an edit. The
 * replica's writers take whole server DTOs; these write what a request body says over the
 * row, keeping what only the server sets.
 */
import type { ProjectCreateRequest } from '../../shared/api/projects';
import type { SpaceCreateRequest } from '../../shared/api/spaces';
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { toMs } from '../db/queries/convert';

export const upsertSpace = (
  db: Sqlite,
  spaceId: number,
  body: Partial<SpaceCreateRequest> & { spaceName: string },
  createdBy: number | null,
  now: number,
): void => {
  stmt(
    db,
    `INSERT INTO spaces (space_id, space_name, description, color, space_type, archived, created_by, created_time, modified_time)
     VALUES (@id, @name, @description, @color, @type, 0, @by, @now, @now)
     ON CONFLICT(space_id) DO UPDATE SET space_name = excluded.space_name, description = excluded.description,
       space_type = excluded.space_type, color = coalesce(@color, spaces.color)`,
  ).run({
    id: spaceId,
    name: body.spaceName,
    description: body.description ?? null,
    color: body.color ?? null,
    type: body.spaceType ?? null,
    by: createdBy,
    now,
  });
};

/**
 * A project's editable state over its row (or a new row in `spaceId`). Status, priority and
 * health are names in the body and in the row; tags and members are rebuilt from the body,
 * keeping the server's objects for those it already sent.
 */
export const upsertProject = (
  db: Sqlite,
  projectId: number,
  spaceId: number,
  body: ProjectCreateRequest,
  createdBy: number | null,
  now: number,
): void => {
  const done = (body.status ?? '').toLowerCase() === 'completed';
  stmt(
    db,
    `INSERT INTO projects (project_id, space_id, project_name, description, start_date, due_date, completion,
       is_public, archived, completed, completed_time, status, priority, health, contact, created_by, modified_by,
       created_time, modified_time, detail)
     VALUES (@id, @space, @name, @description, @start, @due, @completion, @public, 0, @done,
       CASE WHEN @done = 1 THEN @now END, @status, @priority, @health,
       CASE WHEN @contact IS NULL THEN NULL ELSE json_object('contactId', @contact) END,
       @by, @by, @now, @now, '{}')
     ON CONFLICT(project_id) DO UPDATE SET project_name = excluded.project_name,
       description = excluded.description, start_date = excluded.start_date, due_date = excluded.due_date,
       completion = excluded.completion, is_public = excluded.is_public, status = excluded.status,
       priority = excluded.priority, health = excluded.health,
       contact = CASE WHEN @contact IS NULL THEN NULL
         WHEN json_extract(projects.contact, '$.contactId') = @contact THEN projects.contact
         ELSE excluded.contact END`,
  ).run({
    id: projectId,
    space: spaceId,
    name: body.projectName,
    description: body.description ?? null,
    start: toMs(body.startDate),
    due: toMs(body.dueDate),
    completion: body.completion ?? null,
    public: body.public ? 1 : 0,
    done: done ? 1 : 0,
    status: body.status ?? null,
    priority: body.priority ?? null,
    health: body.health ?? null,
    contact: body.contactId ?? null,
    by: createdBy,
    now,
  });
  const tags = [...new Set(body.tags ?? [])];
  stmt(
    db,
    'DELETE FROM project_tags WHERE project_id = ? AND name NOT IN (SELECT value FROM json_each(?))',
  ).run(projectId, JSON.stringify(tags));
  const tag = stmt(
    db,
    `INSERT OR IGNORE INTO project_tags (project_id, name, tag) VALUES (?, ?, json_object('tagName', ?))`,
  );
  for (const t of tags) tag.run(projectId, t, t);
  const members = [...new Set(body.members ?? [])];
  stmt(
    db,
    'DELETE FROM project_members WHERE project_id = ? AND user_id NOT IN (SELECT value FROM json_each(?))',
  ).run(projectId, JSON.stringify(members));
  const member = stmt(
    db,
    `INSERT OR IGNORE INTO project_members (project_id, user_id, member)
     VALUES (?, ?, json_object('user', json_object('userId', ?)))`,
  );
  for (const m of members) member.run(projectId, m, m);
};

export const markNotificationRead = (db: Sqlite, notificationId: number): void => {
  stmt(db, 'UPDATE notifications SET read = 1 WHERE notification_id = ?').run(notificationId);
};

export const deleteNotification = (db: Sqlite, notificationId: number): void => {
  stmt(db, 'DELETE FROM notifications WHERE notification_id = ?').run(notificationId);
};
