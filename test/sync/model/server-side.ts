/**
 * The reference server's side of the model test, all in this process: the servers (one
 * honouring Idempotency-Key, one ignoring it), fresh orgs per case seeded through the store,
 * the second writer (one synchronous read-and-write through the store functions, as the other
 * user), faults and the clock, what the server holds (straight from its database), and which
 * faults it dealt to which methods over the whole run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningServer, startServer } from '../../../server/app';
import { parseFaultSpec } from '../../../server/faults';
import { addOrgMember, createOrg } from '../../../server/seed/fixtures';
import { createChecklistItem, updateChecklistItem } from '../../../server/store/checklists';
import { findTask } from '../../../server/store/lookup';
import { createTask, updateTask } from '../../../server/store/tasks';
import { loadTaskRow } from '../../../server/store/tasks-dto';
import { type TimerRow, timerColumns, timerDto } from '../../../server/store/timers';
import { signIn } from '../../../sync/api';
import { type SessionTokensMsg, type TimerView, timerView } from './protocol';

export const DEMO = { email: 'demo@example.com', password: 'demo1234' };
const OTHER_EMAIL = 'other@example.com';

export type FaultKind = 'drop' | 'malformed' | '5xx' | 'reset' | '429';
export type FaultMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export const faultKinds: readonly FaultKind[] = ['drop', 'malformed', '5xx', 'reset', '429'];

/** Hits per `kind METHOD` (e.g. `drop PUT`, `latency DELETE`), as the server counts them. */
export type FaultHits = Map<string, number>;

export interface ModelServer {
  server: RunningServer;
  quirky: boolean;
  demoUserId: number;
  otherUserId: number;
  /** The demo user's session, resumed by every child (refreshed pairs come back here). */
  tokens: SessionTokensMsg;
  user: { userId: number; firstName?: string; lastName?: string; email?: string };
  signedInAt: number;
}

const userIdOf = (s: RunningServer, email: string): number => {
  const row = s.deps.db.prepare('SELECT user_id FROM users WHERE email = ?').get(email) as
    | { user_id: number }
    | undefined;
  if (!row) throw new Error(`the demo seed has no ${email}`);
  return row.user_id;
};

export const startModelServer = async (quirky: boolean): Promise<ModelServer> => {
  const server = await startServer({
    dataDir: null,
    admin: true,
    seed: { kind: 'demo' },
    ...(quirky ? { quirks: ['ignore-idempotency-key' as const] } : {}),
    // A skew of up to 10 minutes ahead shortens the tokens' life in real time; a run (or a
    // soak's stretch between two sign-ins) stays well inside an hour.
    accessTtlSec: 3_600,
  });
  const ms: ModelServer = {
    server,
    quirky,
    demoUserId: userIdOf(server, DEMO.email),
    otherUserId: userIdOf(server, OTHER_EMAIL),
    tokens: { accessToken: '', refreshToken: '', accessExpiresAt: 0, refreshExpiresAt: 0 },
    user: { userId: 0 },
    signedInAt: 0,
  };
  await refreshSignIn(ms);
  return ms;
};

/** Signs the demo user in again (at start, and after half an hour of a soak). */
export const refreshSignIn = async (ms: ModelServer): Promise<void> => {
  let got: SessionTokensMsg | null = null;
  const session = await signIn(ms.server.url, DEMO.email, DEMO.password, {
    onTokens: (t) => {
      got = t;
    },
  });
  await session.close();
  if (!got || !session.user) throw new Error('sign-in gave no tokens');
  ms.tokens = got;
  ms.user = { userId: session.user.userId };
  ms.signedInAt = Date.now();
};

/**
 * Faults and the clock are set on the server's own objects (what its admin route does), in
 * this process: no request of the test's shares the server's fault rules with the engine's.
 */
export const setClockOffset = (ms: ModelServer, offsetMs: number): void =>
  ms.server.deps.clock.setOffset(offsetMs);

/** One targeted rule; a 429 asks for no wait (Retry-After: 0) so that backoff stays fast. */
export const addFault = (ms: ModelServer, kind: FaultKind, method: FaultMethod, count: number) =>
  ms.server.deps.faults.addRules([
    { kind, method, count, ...(kind === '429' ? { retryAfterSec: 0 } : {}) },
  ]);

export const setLatency = (ms: ModelServer): void =>
  ms.server.deps.faults.setRates(parseFaultSpec('latency=5-40'));

/** Rules and rates gone (the hit counters stay). */
export const healFaults = (ms: ModelServer): void => ms.server.deps.faults.clear();

// ---- a case's orgs --------------------------------------------------------------------------

export interface SeededTask {
  serverId: number;
  title: string;
  priority: string;
  status: string;
}
export interface SeededItem {
  serverId: number;
  taskServerId: number;
  name: string;
  completed: boolean;
}
export interface SeededOrg {
  orgId: number;
  tasks: SeededTask[];
  items: SeededItem[];
}

/**
 * A fresh org with the demo user and the second writer as members, and two personal tasks of
 * the demo user's, the first with a checklist item: something to edit from the first action.
 */
export const seedOrg = (ms: ModelServer, name: string, titlePrefix: string): SeededOrg => {
  const { db, clock } = ms.server.deps;
  return db.transaction(() => {
    const now = clock.now();
    const orgId = createOrg(db, name, now);
    addOrgMember(db, orgId, ms.demoUserId, 'Owner');
    addOrgMember(db, orgId, ms.otherUserId, 'Member');
    const ctx = { userId: ms.demoUserId, orgId, now };
    const at = { spaceId: null, projectId: null, parentTaskId: null };
    const tasks: SeededTask[] = [1, 2].map((n) => {
      const title = `${titlePrefix}s${n}`;
      const serverId = createTask(db, ctx, at, { taskTitle: title });
      return { serverId, title, priority: 'None', status: 'To Do' };
    });
    const first = tasks[0];
    if (!first) throw new Error('no seeded task');
    const item = createChecklistItem(
      db,
      findTask(db, orgId, first.serverId),
      { name: `${titlePrefix}sc1` },
      ctx,
    );
    return {
      orgId,
      tasks,
      items: [
        {
          serverId: item.checklistId,
          taskServerId: first.serverId,
          name: item.name,
          completed: false,
        },
      ],
    };
  })();
};

// ---- the second writer ----------------------------------------------------------------------

export type TaskField = 'title' | 'priority' | 'status';
export interface WriteOutcome {
  /** The field's value just before the write, read in the same synchronous call. */
  before: string;
  value: string;
  /** The parent's clock at the write (the server's is it plus the offset). */
  at: number;
}

const taskBody = (ms: ModelServer, taskId: number) => {
  const { db } = ms.server.deps;
  const row = loadTaskRow(db, taskId);
  if (!row || row.deleted) return null;
  const owners = (
    db.prepare('SELECT user_id FROM task_owners WHERE task_id = ?').all(taskId) as {
      user_id: number;
    }[]
  ).map((o) => o.user_id);
  const tags = (
    db.prepare('SELECT name FROM task_tags WHERE task_id = ?').all(taskId) as { name: string }[]
  ).map((t) => t.name);
  const iso = (v: number | null) => (v === null ? null : new Date(v).toISOString());
  return {
    row,
    body: {
      taskTitle: row.title,
      description: row.description,
      status: row.status,
      priority: row.priority,
      startDate: iso(row.start_date),
      dueDate: iso(row.due_date),
      completion: row.completion,
      owners,
      tags,
    },
  };
};

/**
 * The other user changes one field of a live task: the current row is read and written back
 * whole with one field changed, in one synchronous call (nothing interleaves). `pick` chooses
 * the field and value from the current row. Null when the task is not live in the org.
 */
export const writeTaskField = (
  ms: ModelServer,
  orgId: number,
  taskId: number,
  pick: (current: Record<TaskField, string>) => { field: TaskField; value: string },
): (WriteOutcome & { field: TaskField }) | null => {
  const { db, clock } = ms.server.deps;
  return db.transaction(() => {
    const found = taskBody(ms, taskId);
    if (!found || found.row.org_id !== orgId) return null;
    const { row, body } = found;
    const current = { title: row.title, priority: row.priority, status: row.status };
    const { field, value } = pick(current);
    const next =
      field === 'title'
        ? { ...body, taskTitle: value }
        : field === 'priority'
          ? { ...body, priority: value }
          : { ...body, status: value };
    const at = Date.now();
    updateTask(db, { userId: ms.otherUserId, orgId, now: clock.now() }, row, next);
    return { field, before: current[field], value, at };
  })();
};

/** The other user renames a checklist item (its state and assignee written back as they are). */
export const writeItemName = (
  ms: ModelServer,
  orgId: number,
  checklistId: number,
  pick: (current: { name: string }) => { field: 'name'; value: string },
): (WriteOutcome & { field: 'name' }) | null => {
  const { db, clock } = ms.server.deps;
  return db.transaction(() => {
    const row = db
      .prepare(
        `SELECT c.task_id, c.name, c.completed, c.assignee_id FROM checklist_items c
         JOIN tasks t ON t.task_id = c.task_id
         WHERE c.checklist_id = ? AND t.org_id = ? AND t.deleted = 0`,
      )
      .get(checklistId, orgId) as
      | { task_id: number; name: string; completed: number; assignee_id: number | null }
      | undefined;
    if (!row) return null;
    const { field, value } = pick({ name: row.name });
    const at = Date.now();
    updateChecklistItem(
      db,
      findTask(db, orgId, row.task_id),
      checklistId,
      { name: value, completed: row.completed === 1, assigneeId: row.assignee_id },
      { userId: ms.otherUserId, orgId, now: clock.now() },
    );
    return { field, before: row.name, value, at };
  })();
};

// ---- what the server holds ------------------------------------------------------------------

export interface ServerState {
  tasks: {
    id: number;
    orgId: number;
    title: string;
    priority: string;
    status: string;
    deleted: boolean;
  }[];
  items: { id: number; taskId: number; name: string; completed: boolean }[];
  attachments: { id: number; taskId: number | null; name: string; size: number; bytes: string }[];
  timers: TimerView[];
}

/** Everything of the given orgs, straight from the server's database (and files). */
export const serverState = (ms: ModelServer, orgIds: readonly number[]): ServerState => {
  const { db, filesDir, clock } = ms.server.deps;
  const orgs = JSON.stringify(orgIds);
  const inOrgs = 'IN (SELECT value FROM json_each(?))';
  const tasks = (
    db
      .prepare(
        `SELECT task_id, org_id, title, priority, status, deleted FROM tasks WHERE org_id ${inOrgs} ORDER BY task_id`,
      )
      .all(orgs) as {
      task_id: number;
      org_id: number;
      title: string;
      priority: string;
      status: string;
      deleted: number;
    }[]
  ).map((t) => ({
    id: t.task_id,
    orgId: t.org_id,
    title: t.title,
    priority: t.priority,
    status: t.status,
    deleted: t.deleted === 1,
  }));
  const items = (
    db
      .prepare(
        `SELECT c.checklist_id, c.task_id, c.name, c.completed FROM checklist_items c
         JOIN tasks t ON t.task_id = c.task_id WHERE t.org_id ${inOrgs} ORDER BY c.checklist_id`,
      )
      .all(orgs) as { checklist_id: number; task_id: number; name: string; completed: number }[]
  ).map((c) => ({
    id: c.checklist_id,
    taskId: c.task_id,
    name: c.name,
    completed: c.completed === 1,
  }));
  const attachments = (
    db
      .prepare(
        `SELECT attachment_id, task_id, file_name, size, stored_name FROM attachments WHERE org_id ${inOrgs} ORDER BY attachment_id`,
      )
      .all(orgs) as {
      attachment_id: number;
      task_id: number | null;
      file_name: string;
      size: number;
      stored_name: string;
    }[]
  ).map((a) => {
    let bytes: string;
    try {
      bytes = readFileSync(join(filesDir, a.stored_name)).toString('base64');
    } catch {
      bytes = '(missing)';
    }
    return { id: a.attachment_id, taskId: a.task_id, name: a.file_name, size: a.size, bytes };
  });
  const now = clock.now();
  const timers = (
    db
      .prepare(
        `SELECT ${timerColumns} FROM timers WHERE org_id ${inOrgs} AND user_id = ? ORDER BY track_id`,
      )
      .all(orgs, ms.demoUserId) as TimerRow[]
  ).map((r) => timerView(timerDto(r, now)));
  return { tasks, items, attachments, timers };
};

/** The faults the server dealt since it started, by `kind METHOD`: its own counters. */
export const faultHits = (ms: ModelServer): FaultHits =>
  new Map(Object.entries(ms.server.deps.faults.state().hits));
