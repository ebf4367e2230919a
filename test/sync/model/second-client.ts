/**
 * The second client: the other user's own engine, in a process of its own (engine-child.ts, as
 * the user's), with its own replica and outbox, over HTTP to the same server. It edits, creates
 * and deletes what the user works on, online (synced at once) or offline (queued until its next
 * sync). The model learns what it did as it lands: the server's state just before and just
 * after each of its syncs (second-client-learn.ts). Its syncs run one at a time with the
 * faults set aside (the faults are the user's engine's to meet), so each change lands inside
 * a window the model knows.
 */
import type { EditCommand } from '../../../shared/edits/commands';
import { parseEntityKey } from '../../../sync/outbox';
import { cfKey, tagsKey } from './canonical';
import { CaseFailure, type CaseRun, clockIn, type RunContext } from './case-run';
import { EngineChild } from './child';
import type { EntityKind, Field, Value } from './model';
import type { EngineStatusMsg, IdsAnswer } from './protocol';
import type { Action, WriterField } from './scenario';
import { learn, type Pending, rowOf, serverIdOf } from './second-client-learn';
import { serverState, withoutFaults } from './server-side';
import { margin, pickOf } from './touch';

export interface SecondClient {
  dir: string;
  /** Orgs its replica has filled. */
  filled: Set<number>;
  /** Its unsynced changes per org. */
  pending: Map<number, Pending[]>;
}

export const newSecondClient = (dir: string): SecondClient => ({
  dir,
  filled: new Set(),
  pending: new Map(),
});

/** How long one of its syncs may take (faults aside, it needs a few requests). */
const DRAIN_MS = 5_000;
const DAY_MS = 86_400_000;
/** Its due dates are in 2031; the user's in 2030. */
const WRITER_DAY0 = Date.UTC(2031, 0, 1, 9);

/** The long-lived process, started once per run (and again if it died). */
const processOf = async (ctx: RunContext): Promise<EngineChild> => {
  if (ctx.writer?.alive) return ctx.writer;
  ctx.writer = await EngineChild.spawn(ctx.script, (tokens) => {
    if (ctx.tokenSink) ctx.tokenSink.writer.tokens = tokens;
  });
  return ctx.writer;
};

/** Opens the second client's engine on `org`: online (its first sync awaited) or offline. */
const openOn = async (run: CaseRun, org: number, online: boolean): Promise<EngineChild> => {
  const w = await processOf(run.ctx);
  const { ms } = run;
  await w.request({
    cmd: 'open',
    dataDir: run.second.dir,
    serverUrl: ms.server.url,
    orgId: run.orgs[org]?.orgId ?? 0,
    userId: ms.otherUserId,
    auth: { kind: 'tokens', tokens: ms.writer.tokens, user: ms.writer.user },
    awaitSync: online,
    offline: !online,
    // The other user's machine keeps true time; the model orders its changes by what landed.
    clockOffsetMs: 0,
  });
  if (online) run.second.filled.add(org);
  return w;
};

/**
 * One sync of the second client on `org`, with `edit` (an online change) made after its first
 * pull; the model learns what landed. Waits the margin before, marks the touch after.
 */
const syncSecond = async (
  run: CaseRun,
  org: number,
  edit?: (w: EngineChild, ids: IdsAnswer) => Promise<Pending | null>,
): Promise<void> => {
  const { model, ms } = run;
  const orgIds = run.orgs.map((o) => o.orgId);
  const pending = run.second.pending.get(org) ?? [];
  for (const p of pending) if (model.entities.has(p.key)) await margin(run, p.key, 'writer');
  let t = performance.now();
  const userIds = await run.child().request({ cmd: 'ids' });
  const before = serverState(ms, orgIds);
  t = clockIn(run.ctx.stats, 'second: snapshot', t);
  let writerIds: IdsAnswer | null = null;
  await withoutFaults(ms, async () => {
    const w = await openOn(run, org, true);
    t = clockIn(run.ctx.stats, 'second: open', t);
    try {
      if (edit) {
        const made = await edit(w, userIds);
        if (made) pending.push(made);
      }
      t = clockIn(run.ctx.stats, 'second: edit', t);
      let d = await w.request({ cmd: 'drain', maxMs: DRAIN_MS });
      t = clockIn(run.ctx.stats, 'second: drain', t);
      if (d.status.failed.length > 0) {
        await letGo(run, w, d.status, userIds);
        d = await w.request({ cmd: 'drain', maxMs: DRAIN_MS });
      }
      if (!d.drained || d.status.failed.length > 0)
        throw new CaseFailure(
          `the second client's outbox did not empty: ${JSON.stringify(d.status)}\n${run.log.join('\n')}`,
        );
      writerIds = await w.request({ cmd: 'ids' });
    } finally {
      await w.request({ cmd: 'close' });
      t = clockIn(run.ctx.stats, 'second: close', t);
    }
  });
  const at = Date.now();
  const after = serverState(ms, orgIds);
  const userAfter = await run.child().request({ cmd: 'ids' });
  run.second.pending.set(org, []);
  if (!writerIds) return;
  learn(run, org, pending, { before, after, userIds, userAfter, writerIds, at });
};

/**
 * Its failed edits, let go as its user would: an edit of something the user deleted (a
 * conflict), or a create in something the user deleted. Anything else is a bug the case
 * reports.
 */
const letGo = async (run: CaseRun, w: EngineChild, s: EngineStatusMsg, userIds: IdsAnswer) => {
  for (const f of s.failed) {
    const { kind, id } = parseEntityKey(f.entity);
    const userDeleted = [...run.model.entities.values()].some(
      (e) =>
        e.kind === kind &&
        serverIdOf(run, userIds, e.key) === id &&
        (!run.model.userSees(e.key) || !run.model.isAlive(e.key)),
    );
    // A create refused because what it goes in is gone (a task, a project the user deleted).
    const parentGone =
      f.kind.endsWith('.create') && (f.error as { kind?: string } | null)?.kind === 'not-found';
    if (!(f.state === 'conflict' || userDeleted || parentGone))
      throw new CaseFailure(
        `the second client's edit failed: ${JSON.stringify(f)}\n${run.log.join('\n')}`,
      );
    run.log.push(`  second client lets go of ${f.kind} ${f.entity} (${f.state})`);
    await w.request({ cmd: 'resolve', mutationId: f.mutationId, choice: 'discard' });
  }
};

/**
 * Fills the second client's replica of `org`, once: beside the user's own first fill of it
 * (two processes, two cores), as both would have opened the app that morning.
 */
export const fillSecond = async (run: CaseRun, org: number): Promise<void> => {
  if (run.second.filled.has(org)) return;
  const t = performance.now();
  const w = await openOn(run, org, true);
  await w.request({ cmd: 'close' });
  clockIn(run.ctx.stats, 'second: fill', t);
};

/** A value of `field` differing from the server's, and never one the user uses. */
const writerValue = (
  run: CaseRun,
  field: WriterField,
  alt: boolean,
  current: Partial<Record<Field, Value>>,
  n: number,
  cf: { fieldId: number; type: 'TEXT' | 'NUMBER' } | undefined,
): { field: Field; value: Value; patch: Record<string, unknown> } | null => {
  const { prefix } = run;
  switch (field) {
    case 'priority': {
      const value =
        current.priority === 'Medium'
          ? 'Urgent'
          : current.priority === 'Urgent'
            ? 'Medium'
            : alt
              ? 'Urgent'
              : 'Medium';
      return { field, value, patch: { priority: value } };
    }
    case 'status':
      return current.status === 'In Review'
        ? null
        : { field, value: 'In Review', patch: { status: 'In Review' } };
    case 'description': {
      const value = `${prefix}od${n}`;
      return { field, value, patch: { description: value } };
    }
    case 'dueDate': {
      const value = WRITER_DAY0 + (n % 900) * DAY_MS;
      return { field, value, patch: { dueDate: new Date(value).toISOString() } };
    }
    case 'completion': {
      const value = current.completion === 10 ? 90 : 10;
      return { field, value, patch: { completion: value } };
    }
    case 'tags': {
      const tags = [`w${n}`];
      return { field, value: tagsKey(tags), patch: { tags } };
    }
    case 'cf': {
      if (!cf) return null;
      const raw = cf.type === 'TEXT' ? `${prefix}o${n}` : -n;
      return {
        field: cfKey(cf.fieldId),
        value: JSON.stringify(raw),
        patch: { customFieldValues: [{ taskCustomFieldId: cf.fieldId, value: raw }] },
      };
    }
    case 'title':
    case 'item.name': {
      const value = field === 'title' ? `${prefix}o${n}` : `oc${n}`;
      return {
        field: field === 'title' ? 'title' : 'name',
        value,
        patch: field === 'title' ? { taskTitle: value } : { name: value },
      };
    }
  }
};

type SecondAction = Extract<
  Action,
  { a: 'write' } | { a: 'writer.create' } | { a: 'writer.delete' } | { a: 'writer.sync' }
>;

/**
 * Plays one of the second client's actions on the user's current org: a change made offline
 * (queued), or online (made and synced at once), or a sync of what it queued.
 */
export const secondClient = async (run: CaseRun, act: SecondAction): Promise<void> => {
  const org = run.current;
  if (act.a === 'writer.sync') {
    if ((run.second.pending.get(org) ?? []).length === 0) return;
    await syncSecond(run, org);
    return;
  }
  const make = (w: EngineChild, ids: IdsAnswer) => change(run, org, act, w, ids);
  if (!act.offline) {
    await syncSecond(run, org, make);
    return;
  }
  await fillSecond(run, org);
  const ids = await run.child().request({ cmd: 'ids' });
  const w = await openOn(run, org, false);
  try {
    const made = await make(w, ids);
    if (made) run.second.pending.set(org, [...(run.second.pending.get(org) ?? []), made]);
  } finally {
    await w.request({ cmd: 'close' });
  }
};

/** The change itself, through the second client's engine: what it queued, or null. */
const change = async (
  run: CaseRun,
  org: number,
  act: Exclude<SecondAction, { a: 'writer.sync' }>,
  w: EngineChild,
  ids: IdsAnswer,
): Promise<Pending | null> => {
  const { model } = run;
  const n = ++run.n;
  const fields = run.orgs[org]?.fields ?? [];
  const cfOf = (key: string) => fields.filter((f) => model.hasField(key, cfKey(f.fieldId)));
  const kind: EntityKind =
    act.a === 'write'
      ? act.field === 'item.name'
        ? 'checklist'
        : 'task'
      : act.item
        ? 'checklist'
        : 'task';
  const onServer = (k: EntityKind) =>
    [...model.entities.values()].filter(
      (e) =>
        e.kind === k &&
        e.org === org &&
        model.isAlive(e.key) &&
        serverIdOf(run, ids, e.key) !== undefined,
    );
  const send = async (command: EditCommand, what: string, touches: string | undefined) => {
    // Its change lands after this: the user's last touch of the task is surely before it.
    if (touches) await margin(run, touches, 'writer');
    try {
      const r = await w.request({ cmd: 'edit', command });
      run.log.push(`  second client: ${what} -> id ${r.result.id}`);
      return r.result.id;
    } catch (error) {
      run.log.push(`  second client: ${what}: REFUSED ${(error as Error).message.split('\n')[0]}`);
      return null;
    }
  };
  if (act.a === 'writer.create') {
    if (kind === 'task') {
      const projectId = run.orgs[org]?.projectId;
      const title = `${run.prefix}w${n}`;
      const local = await send(
        {
          kind: 'task.create',
          ...(projectId === undefined ? {} : { projectId }),
          fields: { taskTitle: title },
        },
        `create w${n} "${title}"`,
        undefined,
      );
      return local === null ? null : { t: 'create', key: `w${n}`, kind, local, task: null };
    }
    const t = pickOf(onServer('task'), act.i);
    const taskId = t && serverIdOf(run, ids, t.key);
    if (!t || taskId === undefined) return null;
    const local = await send(
      { kind: 'checklist.create', taskId, name: `wc${n}` },
      `create wc${n} on ${t.key}`,
      t.key,
    );
    return local === null ? null : { t: 'create', key: `wc${n}`, kind, local, task: t.key };
  }
  const candidates = onServer(kind).filter(
    (e) => act.a !== 'write' || act.field !== 'cf' || cfOf(e.key).length > 0,
  );
  const e = pickOf(candidates, act.i);
  const id = e && serverIdOf(run, ids, e.key);
  if (!e || id === undefined) {
    run.log.push('  (nothing of the server for the second client to change)');
    return null;
  }
  if (act.a === 'writer.delete') {
    const command: EditCommand =
      kind === 'task'
        ? { kind: 'task.delete', taskId: id }
        : { kind: 'checklist.delete', checklistId: id };
    return (await send(command, `delete ${e.key}`, e.key)) === null
      ? null
      : { t: 'delete', key: e.key };
  }
  const current =
    rowOf(
      serverState(
        run.ms,
        run.orgs.map((o) => o.orgId),
      ),
      kind,
      id,
    ) ?? {};
  const v = writerValue(run, act.field, act.alt, current, n, pickOf(cfOf(e.key), act.alt ? 1 : 0));
  if (!v) return null;
  const command: EditCommand =
    kind === 'task'
      ? ({ kind: 'task.update', taskId: id, patch: v.patch } as EditCommand)
      : ({ kind: 'checklist.update', checklistId: id, patch: v.patch } as EditCommand);
  const done = await send(command, `set ${e.key}.${v.field} = ${JSON.stringify(v.value)}`, e.key);
  return done === null ? null : { t: 'update', key: e.key, field: v.field, value: v.value };
};

/** The end of a case on `org`: the second client syncs what it queued. */
export const settleSecond = async (run: CaseRun, org: number): Promise<void> => {
  if ((run.second.pending.get(org) ?? []).length > 0) await syncSecond(run, org);
};
