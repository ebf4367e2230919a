/**
 * Rows the checklist, attachment, timer and notification suites need, written with SQL so that
 * those suites do not depend on the task, project and space routes of another module.
 */
import type { Db } from '../../server/db/open';
import {
  type ApiClient,
  type ApiClientError,
  createApiClient,
  isApiClientError,
  signIn,
  type UploadRules,
} from '../../sync/api';
import type { FixtureOrg, FixtureUser } from './client';
import { signInRaw, type TestServer } from './server';

export interface Who {
  orgId: number;
  userId: number;
}

export const insertSpace = (db: Db, who: Who, now: number, name = 'Space'): number =>
  Number(
    db
      .prepare(
        'INSERT INTO spaces (org_id, space_name, created_by, modified_by, created_time, modified_time) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(who.orgId, name, who.userId, who.userId, now, now).lastInsertRowid,
  );

export const insertProject = (
  db: Db,
  who: Who,
  spaceId: number,
  now: number,
  name = 'Project',
): number =>
  Number(
    db
      .prepare(
        'INSERT INTO projects (org_id, space_id, project_name, created_by, modified_by, created_time, modified_time) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(who.orgId, spaceId, name, who.userId, who.userId, now, now).lastInsertRowid,
  );

export interface NewTaskRow {
  title?: string;
  spaceId?: number | null;
  projectId?: number | null;
  parentTaskId?: number | null;
  deleted?: boolean;
}

export const insertTask = (db: Db, who: Who, now: number, t: NewTaskRow = {}): number =>
  Number(
    db
      .prepare(
        `INSERT INTO tasks (org_id, space_id, project_id, parent_task_id, title, status, priority, created_by, modified_by, created_time, modified_time, deleted)
         VALUES (?, ?, ?, ?, ?, 'To Do', 'None', ?, ?, ?, ?, ?)`,
      )
      .run(
        who.orgId,
        t.spaceId ?? null,
        t.projectId ?? null,
        t.parentTaskId ?? null,
        t.title ?? 'Task',
        who.userId,
        who.userId,
        now,
        now,
        t.deleted ? 1 : 0,
      ).lastInsertRowid,
  );

export interface NewNotificationRow {
  type?: string;
  title?: string;
  body?: string;
  taskId?: number | null;
  read?: boolean;
  createdTime: number;
}

export const insertNotification = (db: Db, who: Who, n: NewNotificationRow): number =>
  Number(
    db
      .prepare(
        'INSERT INTO notifications (org_id, user_id, type, title, body, task_id, read, created_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        who.orgId,
        who.userId,
        n.type ?? 'ASSIGNED',
        n.title ?? 'You were assigned',
        n.body ?? '',
        n.taskId ?? null,
        n.read ? 1 : 0,
        n.createdTime,
      ).lastInsertRowid,
  );

/** The task row's modified time (what a delta pull compares). */
export const taskModifiedTime = (db: Db, taskId: number): number =>
  (
    db.prepare('SELECT modified_time FROM tasks WHERE task_id = ?').get(taskId) as {
      modified_time: number;
    }
  ).modified_time;

export const projectModifiedTime = (db: Db, projectId: number): number =>
  (
    db.prepare('SELECT modified_time FROM projects WHERE project_id = ?').get(projectId) as {
      modified_time: number;
    }
  ).modified_time;

/** A personal task, a subtask of it, and a project task with a subtask, in one org. */
export const taskWorld = (db: Db, who: Who, now: number) => {
  const spaceId = insertSpace(db, who, now);
  const projectId = insertProject(db, who, spaceId, now);
  const personal = insertTask(db, who, now, { title: 'Personal' });
  const personalSub = insertTask(db, who, now, { title: 'Personal sub', parentTaskId: personal });
  const projectTask = insertTask(db, who, now, { title: 'Project task', spaceId, projectId });
  const projectSub = insertTask(db, who, now, {
    title: 'Project sub',
    spaceId,
    projectId,
    parentTaskId: projectTask,
  });
  return { spaceId, projectId, personal, personalSub, projectTask, projectSub };
};

// ---------------------------------------------------------------------------------------------
// Calling the server: the typed client, raw fetch for what the client refuses to send, and the
// admin clock.

/**
 * Like `clientFor` (client.ts), with the client's own upload checks replaced: lets a suite send
 * what the client would refuse, so that the server's refusal is what is tested.
 */
export const clientWithUploadRules = async (
  server: TestServer,
  user: FixtureUser,
  org: FixtureOrg,
  uploadRules: UploadRules,
): Promise<ApiClient> => {
  const session = await signIn(server.url, `${user}@example.com`, server.password);
  return createApiClient({ baseUrl: server.url, orgId: server.orgs[org], session, uploadRules });
};

/** Plain fetch with bearer and X-Org-Id: for statuses and bodies the typed client hides or refuses. */
export const rawCaller = async (server: TestServer, user: FixtureUser, org: FixtureOrg) => {
  const { accessToken } = await signInRaw(server.url, `${user}@example.com`, server.password);
  return (method: string, path: string, body?: unknown): Promise<Response> => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${accessToken}`,
      'x-org-id': String(server.orgs[org]),
    };
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    return fetch(`${server.url}${path}`, { method, headers, body: payload });
  };
};

/** The rejection of a call that must fail, as the client's error (fails the test if it resolves). */
export const failure = async (p: Promise<unknown>): Promise<ApiClientError> => {
  try {
    await p;
  } catch (e) {
    if (isApiClientError(e)) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
};

/** Moves the server clock by `ms` through the admin route; answers the server's new now. */
export const advanceClock = async (server: TestServer, ms: number): Promise<number> => {
  const res = await fetch(`${server.url}/__admin/clock`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceMs: ms }),
  });
  if (!res.ok) throw new Error(`clock move failed: HTTP ${res.status}`);
  return ((await res.json()) as { now: number }).now;
};
