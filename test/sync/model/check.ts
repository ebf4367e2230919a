/**
 * One org's check at the end of a case: the server against the model (rules 1-5), the replica
 * against the server (rule 6), with every expected and actual value laid out for the report.
 */
import type { Expectations, Value } from './model';
import type { EngineStatusMsg, IdsAnswer, ReplicaDump } from './protocol';
import type { ServerState } from './server-side';

export interface Problem {
  rule: string;
  message: string;
}

export interface OrgView {
  /** The model's org index (0 or 1) and the server's id of each. */
  org: number;
  orgIds: readonly number[];
  status: EngineStatusMsg | null;
  drained: boolean;
  ids: IdsAnswer | null;
  replica: ReplicaDump | null;
  server: ServerState;
}

/** startTime and a stop's endTime: the user's `at` in server time, within this. */
export const TIME_TOLERANCE_MS = 250;

/** A plain value with every object's keys in order (rows compared as JSON text). */
const sortedKeys = (x: unknown): unknown =>
  x === null || typeof x !== 'object'
    ? x
    : Array.isArray(x)
      ? x.map(sortedKeys)
      : Object.fromEntries(
          Object.entries(x)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([k, v]) => [k, sortedKeys(v)]),
        );

const show = (v: Value | undefined) => (v === undefined ? '(absent)' : JSON.stringify(v));

type Row = ServerState['tasks' | 'items' | 'spaces' | 'projects'][number];

/**
 * Where a task or a project is on the server against where the user put it: a project task
 * in its project, a subtask under its parent, a project in its space. Null when right.
 */
const placementOf = (
  e: Expectations['entities'][number],
  row: Row,
  keyToSid: ReadonlyMap<string, number | undefined>,
  want: Expectations,
): string | null => {
  const holder = e.within === null ? undefined : want.entities.find((x) => x.key === e.within);
  const holderId = e.within === null ? null : (keyToSid.get(e.within) ?? null);
  if (e.kind === 'task' && 'parentTaskId' in row) {
    const parent = holder?.kind === 'task' ? holderId : null;
    if (row.parentTaskId !== parent)
      return `has parent ${row.parentTaskId}, not ${parent} (${e.within ?? 'none'})`;
    // A subtask is where its parent is: its project is checked on the parent.
    const project = holder?.kind === 'project' ? holderId : null;
    if (holder?.kind !== 'task' && row.projectId !== project)
      return `is in project ${row.projectId}, not ${project} (${e.within ?? 'none'})`;
  }
  if (e.kind === 'project' && 'spaceId' in row && row.spaceId !== holderId)
    return `is in space ${row.spaceId}, not ${holderId} (${e.within})`;
  return null;
};

export const checkOrg = (
  want: Expectations,
  v: OrgView,
): { problems: Problem[]; table: string[] } => {
  const problems: Problem[] = [];
  const table: string[] = [];
  const fail = (rule: string, message: string) => problems.push({ rule, message });
  const orgId = v.orgIds[v.org];
  const mapped = new Map<string, number>();
  for (const m of v.ids?.mappings ?? []) mapped.set(`${m.kind}:${m.local}`, m.server);
  const sid = (kind: string, id: number): number | undefined =>
    id > 0 ? id : mapped.get(`${kind}:${id}`);

  const known = {
    task: new Set<number>(),
    checklist: new Set<number>(),
    attachment: new Set<number>(),
    timer: new Set<number>(),
    space: new Set<number>(),
    project: new Set<number>(),
  };
  // Every entity's server id by its key: tasks (what items, files and timers hang on), and
  // the projects, parents and spaces that hold tasks and projects.
  const keyToSid = new Map<string, number | undefined>();
  for (const e of want.entities) keyToSid.set(e.key, sid(e.kind, e.id));
  const taskKeyToSid = keyToSid;
  // The server ids of everything alive in this org. Items, files and timers are deleted for
  // real, and SQLite gives a deleted row's id to the next row made: a dead entity's id names
  // it only while no live entity has taken it and the row hangs where it did.
  const add = (kind: keyof typeof known, id: number, alive: boolean) => {
    const s = sid(kind, id);
    if (s !== undefined && alive) known[kind].add(s);
  };
  for (const e of want.entities) if (e.org === v.org) add(e.kind, e.id, e.alive);
  for (const t of want.timers) if (t.org === v.org) add('timer', t.id, t.alive);
  for (const u of want.uploads) if (u.org === v.org) add('attachment', u.id, u.alive);
  const stillThere = (kind: keyof typeof known, id: number | undefined) =>
    id !== undefined && !known[kind].has(id);

  // ---- tasks, checklist items, spaces and projects: rules 1, 2, 3 ----
  for (const e of want.entities.filter((x) => x.org === v.org)) {
    const id = sid(e.kind, e.id);
    const parent = e.task === null ? undefined : taskKeyToSid.get(e.task);
    const inOrg = (r: { id: number; orgId: number }) =>
      r.id === id && (e.alive || r.orgId === orgId);
    const row =
      id === undefined || !(e.alive || stillThere(e.kind, id))
        ? undefined
        : e.kind === 'task'
          ? v.server.tasks.find(inOrg)
          : e.kind === 'space'
            ? v.server.spaces.find(inOrg)
            : e.kind === 'project'
              ? v.server.projects.find(inOrg)
              : v.server.items.find((c) => c.id === id && (e.alive || c.taskId === parent));
    const live = row !== undefined && !('deleted' in row && row.deleted);
    const line = [
      `${e.kind} ${e.key} (id ${e.id} -> ${id ?? 'none'})${e.alive ? '' : ' deleted'}:`,
    ];
    if (!e.alive) {
      if (live)
        fail(
          '3 exactly once',
          `${e.kind} ${e.key} (server ${id}) was deleted but is still on the server`,
        );
      table.push(`${line[0]} ${live ? 'STILL ON SERVER' : 'gone'}`);
      continue;
    }
    if (id === undefined) {
      fail(
        '3 exactly once',
        `${e.kind} ${e.key} never reached the server (no server id in the replica)`,
      );
      table.push(`${line[0]} LOST`);
      continue;
    }
    if (!row || !live) {
      fail('3 exactly once', `${e.kind} ${e.key} (server ${id}) is not on the server`);
      table.push(`${line[0]} NOT ON SERVER`);
      continue;
    }
    if ('orgId' in row && row.orgId !== orgId)
      fail('3 exactly once', `task ${e.key} (server ${id}) is in org ${row.orgId}, not ${orgId}`);
    if ('taskId' in row && row.taskId !== parent)
      fail('3 exactly once', `item ${e.key} is on task ${row.taskId}, not ${parent} (${e.task})`);
    const placed = placementOf(e, row, keyToSid, want);
    if (placed) fail('3 exactly once', `${e.kind} ${e.key} (server ${id}) ${placed}`);
    const replicaRow =
      e.kind === 'task'
        ? v.replica?.tasks.find((t) => t.id === id)?.fields
        : v.replica?.checklist.find((c) => c.id === id);
    // A custom field without a value has no row: null, as the model holds a cleared one.
    const fieldOf = (fields: Record<string, Value>, field: string) =>
      Object.hasOwn(fields, field) ? fields[field] : field.startsWith('cf:') ? null : undefined;
    for (const [field, exp] of Object.entries(e.fields)) {
      if (!exp) continue;
      const actual =
        'fields' in row
          ? fieldOf(row.fields, field)
          : (row as unknown as Record<string, Value>)[field];
      const inReplica = replicaRow
        ? fieldOf(replicaRow as unknown as Record<string, Value>, field)
        : undefined;
      const ok = exp.accept.some((a) => a === actual);
      line.push(
        `${field} server=${show(actual)} replica=${show(inReplica)} accept=${exp.accept.map(show).join('|')}${ok ? '' : ' <-- WRONG'} (${exp.why})`,
      );
      if (!ok)
        fail(
          exp.rule === 1 ? '1 last write as the user left it' : '2 fields the user never set',
          `${e.kind} ${e.key} (server ${id}) ${field}: server has ${show(actual)}, the model accepts ${exp.accept.map(show).join(' or ')} (${exp.why})`,
        );
    }
    table.push(line.join('\n    '));
  }

  // ---- timers: rule 4 ----
  for (const t of want.timers.filter((x) => x.org === v.org)) {
    const id = sid('timer', t.id);
    const task = taskKeyToSid.get(t.task);
    const row =
      id === undefined || !(t.alive || stillThere('timer', id))
        ? undefined
        : v.server.timers.find((s) => s.id === id && (t.alive || s.taskId === task));
    const expect = `${t.state} ${t.durationSeconds}s start ${t.startTime}${t.endTime === null ? '' : ` end ${t.endTime}`} notes ${t.fields.notes.accept.map(show).join('|')} ${t.fields.billing.accept.map(show).join('|')}`;
    const got = row
      ? `${row.state} ${row.durationSeconds}s start ${row.startTime}${row.endTime === null ? '' : ` end ${row.endTime}`} notes ${show(row.notes)} ${row.billing}`
      : 'none';
    table.push(
      `timer ${t.key} (id ${t.id} -> ${id ?? 'none'}) on ${t.task}: want ${t.alive ? expect : 'gone with its task'}, server ${got}`,
    );
    if (!t.alive) {
      if (row) fail('4 timers', `timer ${t.key} (server ${id}) outlived its deleted task`);
      continue;
    }
    if (!row) {
      fail('4 timers', `timer ${t.key} is not on the server (server id ${id ?? 'none'})`);
      continue;
    }
    const bad: string[] = [];
    if (row.taskId !== task) bad.push(`on task ${row.taskId}, not ${task} (${t.task})`);
    if (row.state !== t.state) bad.push(`state ${row.state}, want ${t.state}`);
    for (const [field, exp] of Object.entries(t.fields)) {
      const actual = field === 'notes' ? row.notes : row.billing;
      if (!exp.accept.some((a) => a === actual))
        bad.push(`${field} ${show(actual)}, want ${exp.accept.map(show).join(' or ')}`);
    }
    if (t.state !== 'RUNNING' && row.durationSeconds !== t.durationSeconds)
      bad.push(`duration ${row.durationSeconds}s, want ${t.durationSeconds}s`);
    // A block the user gave: its start as given (or the entry's own), its end start + duration.
    if (t.exact && row.startTime !== t.startTime)
      bad.push(`startTime ${row.startTime}, want exactly ${t.startTime}`);
    const blockEnd =
      t.exact && t.endTime !== null ? t.endTime : row.startTime + row.durationSeconds * 1000;
    if (t.block && row.endTime !== blockEnd)
      bad.push(`endTime ${row.endTime}, want ${blockEnd} (a block the user gave)`);
    if (!t.exact && Math.abs(row.startTime - t.startTime) > TIME_TOLERANCE_MS)
      bad.push(
        `startTime ${row.startTime} is ${row.startTime - t.startTime} ms off the user's start in server time`,
      );
    // A stopped record the engine corrected with updateTimer is one block (start + duration),
    // by the API's rule. Otherwise it ends when the stop arrived: a stop carries no time (one
    // sent late would end before a resume the server stamped late), so at or after the user's
    // stop, never before (ARCHITECTURE.md, "What it does not promise").
    if (t.state === 'STOPPED' && t.endTime !== null && row.endTime !== null) {
      const block = row.startTime + row.durationSeconds * 1000;
      if (row.endTime !== block && row.endTime < t.endTime - TIME_TOLERANCE_MS)
        bad.push(
          `endTime ${row.endTime} is ${t.endTime - row.endTime} ms before the user's stop in server time`,
        );
    }
    if (bad.length > 0) fail('4 timers', `timer ${t.key} (server ${id}): ${bad.join('; ')}`);
  }

  // ---- attachments: rule 5 ----
  for (const u of want.uploads.filter((x) => x.org === v.org)) {
    const id = sid('attachment', u.id);
    const task = taskKeyToSid.get(u.task);
    const row =
      id === undefined || !(u.alive || stillThere('attachment', id))
        ? undefined
        : v.server.attachments.find((a) => a.id === id && (u.alive || a.taskId === task));
    table.push(
      `attachment ${u.key} ${u.nameExpect.accept.map(show).join('|')} (${u.size} B, id ${u.id} -> ${id ?? 'none'}) on ${u.task}: ${row ? `server ${row.name} ${row.size} B on task ${row.taskId}` : 'not on server'}${u.alive ? '' : ' (task deleted)'}`,
    );
    if (!u.alive) {
      if (row)
        fail('5 attachments', `attachment ${u.key} (server ${id}) outlived its deleted task`);
      continue;
    }
    if (!row) {
      fail('5 attachments', `${u.name} (${u.key}) is not on the server`);
      continue;
    }
    const bad: string[] = [];
    if (row.taskId !== task) bad.push(`on task ${row.taskId}, not ${task}`);
    if (!u.nameExpect.accept.some((a) => a === row.name))
      bad.push(`named ${row.name}, want ${u.nameExpect.accept.map(show).join(' or ')}`);
    if (row.size !== u.size) bad.push(`${row.size} bytes, not ${u.size}`);
    if (row.bytes !== u.bytes) bad.push('other bytes than uploaded');
    if (bad.length > 0)
      fail('5 attachments', `${u.name} (${u.key}, server ${id}): ${bad.join('; ')}`);
  }

  // ---- rule 3: nothing the model does not know ----
  const serverTasks = v.server.tasks.filter((t) => t.orgId === orgId && !t.deleted);
  const liveTaskIds = new Set(serverTasks.map((t) => t.id));
  for (const t of serverTasks)
    if (!known.task.has(t.id))
      fail(
        '3 exactly once',
        `task ${t.id} "${String(t.fields.title)}" in org ${orgId} is a twin or a stray`,
      );
  for (const kind of ['space', 'project'] as const)
    for (const p of v.server[`${kind}s`])
      if (p.orgId === orgId && !p.deleted && !known[kind].has(p.id))
        fail(
          '3 exactly once',
          `${kind} ${p.id} "${String(p.fields.name)}" in org ${orgId} is a twin or a stray`,
        );
  const serverItems = v.server.items.filter((c) => liveTaskIds.has(c.taskId));
  for (const c of serverItems)
    if (!known.checklist.has(c.id))
      fail(
        '3 exactly once',
        `checklist item ${c.id} "${c.name}" on task ${c.taskId} is a twin or a stray`,
      );
  const serverFiles = v.server.attachments.filter(
    (a) => a.taskId !== null && liveTaskIds.has(a.taskId),
  );
  for (const a of serverFiles)
    if (!known.attachment.has(a.id))
      fail(
        '3 exactly once',
        `attachment ${a.id} ${a.name} on task ${a.taskId} is a twin or a stray`,
      );
  const serverTimers = v.server.timers.filter((t) => liveTaskIds.has(t.taskId));
  for (const t of serverTimers)
    if (!known.timer.has(t.id))
      fail('4 timers', `timer ${t.id} (${t.state}) on task ${t.taskId} is a twin or a stray`);

  // ---- rule 6: the replica equals the server, nothing pending or failed ----
  if (!v.drained) fail('6 replica', `the outbox did not empty: ${JSON.stringify(v.status)}`);
  else if (v.status && (v.status.pending !== 0 || v.status.failed.length > 0))
    fail('6 replica', `pending ${v.status.pending}, failed ${JSON.stringify(v.status.failed)}`);
  if (v.replica) {
    const r = v.replica;
    // Keys sorted at every level: the same fields read in another order are the same row.
    const key = (x: object) => JSON.stringify(sortedKeys(x));
    const diff = (what: string, server: object[], replica: object[]) => {
      const s = new Set(server.map(key));
      const rr = new Set(replica.map(key));
      const onlyServer = [...s].filter((x) => !rr.has(x));
      const onlyReplica = [...rr].filter((x) => !s.has(x));
      if (onlyServer.length + onlyReplica.length > 0)
        fail(
          '6 replica',
          `${what} differ: server only ${onlyServer.join(' ')}; replica only ${onlyReplica.join(' ')}`,
        );
    };
    diff(
      'tasks',
      serverTasks.map((t) => ({ id: t.id, fields: t.fields })),
      r.tasks,
    );
    diff(
      'checklist items',
      serverItems.map((c) => ({
        id: c.id,
        taskId: c.taskId,
        name: c.name,
        completed: c.completed,
        assignee: c.assignee,
      })),
      r.checklist,
    );
    diff(
      'attachments',
      serverFiles.map((a) => ({ id: a.id, taskId: a.taskId, name: a.name, size: a.size })),
      r.attachments,
    );
    // The replica holds the active timers and those its own edits wrote: each must be the
    // server's, every field the app edits; every active one of the server must be there.
    const inReplica = new Set(r.timers.map((t) => t.id));
    diff(
      'timers',
      serverTimers.filter((t) => inReplica.has(t.id) || t.state !== 'STOPPED'),
      r.timers,
    );
  }
  return { problems, table };
};
