/**
 * Rows the work suites (spaces, projects, tasks, bulk export) need that no API creates:
 * custom field definitions with their options, contacts and comments. Written with SQL
 * through the test server's database.
 */
import type { Db } from '../../server/db/open';
import type { FixtureOrg, FixtureUser } from './client';
import { failure, rawCaller } from './fixtures-items';
import type { TestServer } from './server';

export interface FieldDef {
  orgId: number;
  createdBy: number;
  name: string;
  type: 'TEXT' | 'NUMBER' | 'DATE' | 'DROPDOWN' | 'CHECKBOX';
  /** A space-level field (projectId absent) or a project-level one. */
  spaceId: number;
  projectId?: number;
  options?: string[];
  now: number;
}

/** Inserts a definition (and its options); answers its id and the option ids by name. */
export const insertCustomField = (
  db: Db,
  f: FieldDef,
): { fieldId: number; options: Record<string, number> } => {
  const fieldId = Number(
    db
      .prepare(
        `INSERT INTO custom_fields (org_id, space_id, project_id, name, field_type, created_by, created_time, modified_time)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(f.orgId, f.spaceId, f.projectId ?? null, f.name, f.type, f.createdBy, f.now, f.now)
      .lastInsertRowid,
  );
  const options: Record<string, number> = {};
  for (const name of f.options ?? [])
    options[name] = Number(
      db
        .prepare('INSERT INTO custom_field_options (field_id, name) VALUES (?, ?)')
        .run(fieldId, name).lastInsertRowid,
    );
  return { fieldId, options };
};

export const insertContact = (
  db: Db,
  orgId: number,
  body: Record<string, unknown>,
  now: number,
): number =>
  Number(
    db
      .prepare(
        'INSERT INTO contacts (org_id, body, created_time, modified_time) VALUES (?, ?, ?, ?)',
      )
      .run(orgId, JSON.stringify(body), now, now).lastInsertRowid,
  );

export const insertComment = (
  db: Db,
  c: { orgId: number; taskId: number; userId: number; content: string; at: number },
): number =>
  Number(
    db
      .prepare(
        'INSERT INTO comments (org_id, task_id, content, created_by, created_time, modified_time) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(c.orgId, c.taskId, c.content, c.userId, c.at, c.at).lastInsertRowid,
  );

export interface NotificationRow {
  user_id: number;
  type: string;
  title: string;
  body: string;
  task_id: number | null;
  project_id: number | null;
}

/** Notifications of a task, oldest first (read with SQL: independent of the notification routes). */
export const notificationsOf = (db: Db, taskId: number): NotificationRow[] =>
  db
    .prepare(
      'SELECT user_id, type, title, body, task_id, project_id FROM notifications WHERE task_id = ? ORDER BY notification_id',
    )
    .all(taskId) as NotificationRow[];

/**
 * Plain fetch as a fixture user (`rawCaller`), answering the status, the JSON body and the
 * fields of its errors: for inputs the typed client refuses to send.
 */
export const rawAs = async (server: TestServer, user: FixtureUser, org: FixtureOrg) => {
  const call = await rawCaller(server, user, org);
  return async (method: string, path: string, body?: unknown) => {
    const res = await call(method, path, body);
    const json = (await res.json().catch(() => undefined)) as
      | { errors?: { field: string; message: string }[]; data?: unknown }
      | undefined;
    return { status: res.status, body: json, fields: (json?.errors ?? []).map((e) => e.field) };
  };
};

/** The rejection of a call that must fail (fails the test when it resolves). */
export const rejection = failure;

export const iso = (ms: number): string => new Date(ms).toISOString();
export const DAY = 86_400_000;
