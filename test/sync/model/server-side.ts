/**
 * The reference server's side of the model test, all in this process: the servers (one
 * honouring Idempotency-Key, one ignoring it), fresh orgs per case seeded through the store,
 * both users' sessions (the second client's is the other user's), faults and the clock, what
 * the server holds (straight from its database), and which faults it dealt to which methods
 * over the whole run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningServer, startServer } from '../../../server/app';
import { parseFaultSpec } from '../../../server/faults';
import { addOrgMember, createOrg } from '../../../server/seed/fixtures';
import { createChecklistItem } from '../../../server/store/checklists';
import { findTask } from '../../../server/store/lookup';
import { createProject } from '../../../server/store/projects';
import { createSpace } from '../../../server/store/spaces';
import { createTask } from '../../../server/store/tasks';
import { type TimerRow, timerColumns, timerDto } from '../../../server/store/timers';
import { signIn } from '../../../sync/api';
import { cfKey, type TaskColumns, taskFields } from './canonical';
import { type SessionTokensMsg, type TimerView, timerView } from './protocol';

export const DEMO = { email: 'demo@example.com', password: 'demo1234' };
const OTHER = { email: 'other@example.com', password: 'other1234' };

export type FaultKind = 'drop' | 'malformed' | '5xx' | 'reset' | '429' | 'late5xx';
export type FaultMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/**
 * `late5xx` (a 503 after the handler committed) is left out with MODEL_NO_LATE5XX=1, to look
 * at another failure while one it causes hides it.
 */
export const faultKinds: readonly FaultKind[] = [
  'drop',
  'malformed',
  '5xx',
  'reset',
  '429',
  ...(process.env.MODEL_NO_LATE5XX === '1' ? [] : (['late5xx'] as const)),
];

/** Hits per `kind METHOD` (e.g. `drop PUT`, `latency DELETE`), as the server counts them. */
export type FaultHits = Map<string, number>;

export interface ModelServer {
  server: RunningServer;
  quirky: boolean;
  demoUserId: number;
  otherUserId: number;
  /** The demo user's session, resumed by every child (refreshed pairs come back here). */
  tokens: SessionTokensMsg;
  user: UserRef;
  /** The other user's, the second client's. */
  writer: { tokens: SessionTokensMsg; user: UserRef };
  signedInAt: number;
  /** A move of the server's clock due at a real instant (`setClockOffsetAt`). */
  clockAt: { offsetMs: number; atReal: number } | null;
}

type UserRef = { userId: number; firstName?: string; lastName?: string; email?: string };

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
    otherUserId: userIdOf(server, OTHER.email),
    tokens: noTokens,
    user: { userId: 0 },
    writer: { tokens: noTokens, user: { userId: 0 } },
    signedInAt: 0,
    clockAt: null,
  };
  scheduleClock(ms);
  await refreshSignIn(ms);
  return ms;
};

const noTokens: SessionTokensMsg = {
  accessToken: '',
  refreshToken: '',
  accessExpiresAt: 0,
  refreshExpiresAt: 0,
};

const signInAs = async (ms: ModelServer, who: { email: string; password: string }) => {
  let got: SessionTokensMsg | null = null;
  const session = await signIn(ms.server.url, who.email, who.password, {
    onTokens: (t) => {
      got = t;
    },
  });
  await session.close();
  if (!got || !session.user) throw new Error(`sign-in of ${who.email} gave no tokens`);
  return { tokens: got as SessionTokensMsg, user: { userId: session.user.userId } };
};

/** Signs both users in again (at start, and after half an hour of a soak). */
export const refreshSignIn = async (ms: ModelServer): Promise<void> => {
  const [demo, other] = await Promise.all([signInAs(ms, DEMO), signInAs(ms, OTHER)]);
  ms.tokens = demo.tokens;
  ms.user = demo.user;
  ms.writer = other;
  ms.signedInAt = Date.now();
};

/**
 * Faults and the clock are set on the server's own objects (what its admin route does), in
 * this process: no request of the test's shares the server's fault rules with the engine's.
 */
export const setClockOffset = (ms: ModelServer, offsetMs: number): void => {
  ms.clockAt = null;
  ms.server.deps.clock.setOffset(offsetMs);
};

/**
 * The server's clock moves to `offsetMs` at the real instant `atReal`, as its own readings
 * find (clock.ts: the child's clock moves at that instant too, whatever either event loop is
 * busy with then).
 */
export const setClockOffsetAt = (ms: ModelServer, offsetMs: number, atReal: number): void => {
  // A move still pending (nothing read the server's clock since its instant) is made first:
  // replaced, it would leave the server on the clock before it while the child's had moved.
  const pending = ms.clockAt;
  if (pending && Date.now() >= pending.atReal) ms.server.deps.clock.setOffset(pending.offsetMs);
  ms.clockAt = { offsetMs, atReal };
};

/** Installs the moment-bound move of `setClockOffsetAt` in the server's clock. */
const scheduleClock = (ms: ModelServer): void => {
  const clock = ms.server.deps.clock;
  const now = clock.now.bind(clock);
  clock.now = () => {
    const at = ms.clockAt;
    if (at && Date.now() >= at.atReal) {
      ms.clockAt = null;
      clock.setOffset(at.offsetMs);
    }
    return now();
  };
};

/** One targeted rule; a 429 asks for no wait (Retry-After: 0) so that backoff stays fast. */
export const addFault = (ms: ModelServer, kind: FaultKind, method: FaultMethod, count: number) =>
  ms.server.deps.faults.addRules([
    { kind, method, count, ...(kind === '429' ? { retryAfterSec: 0 } : {}) },
  ]);

export const setLatency = (ms: ModelServer): void =>
  ms.server.deps.faults.setRates(parseFaultSpec('latency=5-40'));

/** Rules and rates gone (the hit counters stay). */
export const healFaults = (ms: ModelServer): void => ms.server.deps.faults.clear();

/** The next request's answer (any method) held after its commit, until its client is gone. */
export const addHold = (ms: ModelServer): void =>
  ms.server.deps.faults.addRules([{ kind: 'hold', count: 1 }]);

export const heldAnswers = (ms: ModelServer): number => ms.server.deps.faults.state().held;

/** An unspent hold rule taken back, the other rules and the rates kept. */
export const dropHoldRule = (ms: ModelServer): void => {
  const { faults } = ms.server.deps;
  const { rates, rules } = faults.state();
  if (!rules.some((r) => r.kind === 'hold')) return;
  faults.clear();
  faults.setRates(rates);
  faults.addRules(rules.filter((r) => r.kind !== 'hold'));
};

/**
 * Runs `fn` with the fault rules and rates set aside, then puts back what is left of them: the
 * second client's syncs land whole, at a moment the model knows (the faults are the user's
 * engine's to meet).
 */
export const withoutFaults = async <T>(ms: ModelServer, fn: () => Promise<T>): Promise<T> => {
  const { faults } = ms.server.deps;
  const { rates, rules } = faults.state();
  faults.clear();
  try {
    return await fn();
  } finally {
    const { rules: added } = faults.state();
    faults.clear();
    faults.setRates(rates);
    faults.addRules([...rules, ...added]);
  }
};

/** Requests the server has begun and not answered yet (a kill now lands with one in flight). */
export const requestsInFlight = (ms: ModelServer): number => ms.server.deps.faults.state().inFlight;

// ---- a case's orgs --------------------------------------------------------------------------

/** A seeded task's fields, in the model's canonical form (model.ts, `canonicalTask`). */
export type SeededFields = Record<string, string | number | boolean | null>;
export interface SeededTask {
  serverId: number;
  /** The project it is in (its custom fields apply), or null for a personal task. */
  projectId: number | null;
  fields: SeededFields;
}
export interface SeededItem {
  serverId: number;
  taskServerId: number;
  name: string;
  completed: boolean;
}
/**
 * A custom field the org's project tasks have: its id, the type of value it takes, and the
 * project it is defined on (null: on the seeded space, for every project in it).
 */
export interface SeededField {
  fieldId: number;
  type: 'TEXT' | 'NUMBER';
  projectId: number | null;
}
export interface SeededOrg {
  orgId: number;
  spaceId: number;
  projectId: number;
  /** The seeded space's and project's names. */
  spaceName: string;
  projectName: string;
  fields: SeededField[];
  tasks: SeededTask[];
  items: SeededItem[];
}

/**
 * A fresh org with the demo user and the second writer as members, two personal tasks of the
 * demo user's, the first with a checklist item, and a space with a project: a TEXT field on
 * the space and a NUMBER field on the project (no API makes definitions: inserted as the
 * demo seed does), and a project task holding a value of each, so that an edit of one field
 * that loses the other shows.
 */
export const seedOrg = (ms: ModelServer, name: string, titlePrefix: string): SeededOrg => {
  const { db, clock } = ms.server.deps;
  return db.transaction(() => {
    const now = clock.now();
    const orgId = createOrg(db, name, now);
    addOrgMember(db, orgId, ms.demoUserId, 'Owner');
    addOrgMember(db, orgId, ms.otherUserId, 'Member');
    const ctx = { userId: ms.demoUserId, orgId, now };
    const spaceName = `${titlePrefix}space`;
    const projectName = `${titlePrefix}project`;
    const spaceId = createSpace(db, ctx, { spaceName });
    db.prepare(
      "INSERT INTO space_members (space_id, user_id, invited_by, role_id, role_name) VALUES (?, ?, NULL, 3, 'Member')",
    ).run(spaceId, ms.otherUserId);
    const projectId = createProject(db, ctx, spaceId, {
      projectName,
      members: [ms.otherUserId],
    });
    const field = (space: number, project: number | null, type: SeededField['type']) => ({
      fieldId: Number(
        db
          .prepare(
            `INSERT INTO custom_fields (org_id, space_id, project_id, name, description, field_type, icon, sort_order, created_by, created_time, modified_time)
             VALUES (?, ?, ?, ?, '', ?, '', 0, ?, ?, ?)`,
          )
          .run(orgId, space, project, `${titlePrefix}${type}`, type, ms.demoUserId, now, now)
          .lastInsertRowid,
      ),
      type,
      projectId: project,
    });
    const fields = [field(spaceId, null, 'TEXT'), field(spaceId, projectId, 'NUMBER')];
    const personal = { spaceId: null, projectId: null, parentTaskId: null };
    const tasks: SeededTask[] = [1, 2].map((n) => {
      const title = `${titlePrefix}s${n}`;
      const serverId = createTask(db, ctx, personal, { taskTitle: title });
      return { serverId, projectId: null, fields: seededFields(title, []) };
    });
    const [text, num] = fields;
    if (!text || !num) throw new Error('no seeded field');
    const title = `${titlePrefix}s3`;
    const values = [
      { taskCustomFieldId: text.fieldId, value: `${titlePrefix}v0` },
      { taskCustomFieldId: num.fieldId, value: 7 },
    ];
    const serverId = createTask(
      db,
      ctx,
      { spaceId, projectId, parentTaskId: null },
      { taskTitle: title, customFieldValues: values },
    );
    tasks.push({ serverId, projectId, fields: seededFields(title, values) });
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
      spaceId,
      projectId,
      spaceName,
      projectName,
      fields,
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

/** A task made with a title (and custom field values) only, as the model holds it. */
export const seededFields = (
  title: string,
  values: readonly { taskCustomFieldId: number; value: string | number }[],
): SeededFields => ({
  title,
  description: '',
  status: 'To Do',
  priority: 'None',
  completion: 0,
  startDate: null,
  dueDate: null,
  owners: '',
  tags: '',
  ...Object.fromEntries(values.map((v) => [cfKey(v.taskCustomFieldId), JSON.stringify(v.value)])),
});

// ---- canonical values ----------------------------------------------------------------------

/** A field's value as the model and the check compare it (field-rules.ts `Value`). */
export type Canonical = string | number | boolean | null;

// ---- what the server holds ------------------------------------------------------------------

/** A space's or a project's fields as the model compares them (dates as epoch ms). */
export interface PlaceRow {
  id: number;
  orgId: number;
  deleted: boolean;
  /** A project's space. */
  spaceId: number | null;
  fields: Record<string, Canonical>;
}

export interface ServerState {
  spaces: PlaceRow[];
  projects: PlaceRow[];
  tasks: {
    id: number;
    orgId: number;
    deleted: boolean;
    projectId: number | null;
    parentTaskId: number | null;
    /** Every field the app edits, canonical (`taskBody`): custom fields as `cf:<id>`. */
    fields: Record<string, Canonical>;
  }[];
  items: {
    id: number;
    taskId: number;
    name: string;
    completed: boolean;
    assignee: number | null;
  }[];
  attachments: { id: number; taskId: number | null; name: string; size: number; bytes: string }[];
  timers: TimerView[];
}

/** Everything of the given orgs, straight from the server's database (and files). */
export const serverState = (ms: ModelServer, orgIds: readonly number[]): ServerState => {
  const { db, filesDir, clock } = ms.server.deps;
  const orgs = JSON.stringify(orgIds);
  const inOrgs = 'IN (SELECT value FROM json_each(?))';
  const ownersOf = new Map<number, number[]>();
  for (const o of db
    .prepare(
      `SELECT o.task_id, o.user_id FROM task_owners o JOIN tasks t USING (task_id) WHERE t.org_id ${inOrgs}`,
    )
    .all(orgs) as { task_id: number; user_id: number }[])
    ownersOf.set(o.task_id, [...(ownersOf.get(o.task_id) ?? []), o.user_id]);
  const tagsOf = new Map<number, string[]>();
  for (const g of db
    .prepare(
      `SELECT g.task_id, g.name FROM task_tags g JOIN tasks t USING (task_id) WHERE t.org_id ${inOrgs}`,
    )
    .all(orgs) as { task_id: number; name: string }[])
    tagsOf.set(g.task_id, [...(tagsOf.get(g.task_id) ?? []), g.name]);
  const valuesOf = new Map<number, Record<string, string>>();
  for (const v of db
    .prepare(
      `SELECT v.task_id, v.field_id, v.value FROM custom_field_values v JOIN tasks t USING (task_id) WHERE t.org_id ${inOrgs}`,
    )
    .all(orgs) as { task_id: number; field_id: number; value: string }[])
    valuesOf.set(v.task_id, { ...valuesOf.get(v.task_id), [cfKey(v.field_id)]: v.value });
  const tasks = (
    db
      .prepare(
        `SELECT task_id, org_id, project_id, parent_task_id, title, description, status, priority, completion, start_date, due_date, deleted
         FROM tasks WHERE org_id ${inOrgs} ORDER BY task_id`,
      )
      .all(orgs) as (TaskColumns & {
      org_id: number;
      project_id: number | null;
      parent_task_id: number | null;
      deleted: number;
    })[]
  ).map((t) => ({
    id: t.task_id,
    orgId: t.org_id,
    deleted: t.deleted === 1,
    projectId: t.project_id,
    parentTaskId: t.parent_task_id,
    fields: taskFields(
      t,
      ownersOf.get(t.task_id) ?? [],
      tagsOf.get(t.task_id) ?? [],
      valuesOf.get(t.task_id) ?? {},
    ),
  }));
  const items = (
    db
      .prepare(
        `SELECT c.checklist_id, c.task_id, c.name, c.completed, c.assignee_id FROM checklist_items c
         JOIN tasks t ON t.task_id = c.task_id WHERE t.org_id ${inOrgs} ORDER BY c.checklist_id`,
      )
      .all(orgs) as {
      checklist_id: number;
      task_id: number;
      name: string;
      completed: number;
      assignee_id: number | null;
    }[]
  ).map((c) => ({
    id: c.checklist_id,
    taskId: c.task_id,
    name: c.name,
    completed: c.completed === 1,
    assignee: c.assignee_id,
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
  return { ...placesOf(ms, orgs), tasks, items, attachments, timers };
};

/** The orgs' spaces and projects (`orgs`: their ids as JSON), deleted ones too. */
const placesOf = (ms: ModelServer, orgs: string): Pick<ServerState, 'spaces' | 'projects'> => {
  const { db } = ms.server.deps;
  const spaces = (
    db
      .prepare(
        'SELECT space_id, org_id, space_name, description, deleted FROM spaces WHERE org_id IN (SELECT value FROM json_each(?))',
      )
      .all(orgs) as {
      space_id: number;
      org_id: number;
      space_name: string;
      description: string;
      deleted: number;
    }[]
  ).map((r) => ({
    id: r.space_id,
    orgId: r.org_id,
    deleted: r.deleted === 1,
    spaceId: null,
    fields: { name: r.space_name, description: r.description },
  }));
  const projects = (
    db
      .prepare(
        `SELECT project_id, org_id, space_id, project_name, description, completion, due_date, deleted
         FROM projects WHERE org_id IN (SELECT value FROM json_each(?))`,
      )
      .all(orgs) as {
      project_id: number;
      org_id: number;
      space_id: number;
      project_name: string;
      description: string;
      completion: number;
      due_date: number | null;
      deleted: number;
    }[]
  ).map((r) => ({
    id: r.project_id,
    orgId: r.org_id,
    deleted: r.deleted === 1,
    spaceId: r.space_id,
    fields: {
      name: r.project_name,
      description: r.description,
      completion: r.completion,
      dueDate: r.due_date,
    },
  }));
  return { spaces, projects };
};

/** The faults the server dealt since it started, by `kind METHOD`: its own counters. */
export const faultHits = (ms: ModelServer): FaultHits =>
  new Map(Object.entries(ms.server.deps.faults.state().hits));
