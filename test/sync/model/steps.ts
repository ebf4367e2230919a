/**
 * The actions of a case, played: the user's edits through the child (each logged into the
 * model with the engine's `at`), syncs, faults, kills, restarts, org switches, and the second
 * writer's changes through the server's store.
 */
import type { EditCommand } from '../../../shared/edits/commands';
import { type CaseRun, spawnChild } from './case-run';
import type { Entity } from './model';
import type { Action } from './scenario';
import { addFault, healFaults, setLatency, writeItemName, writeTaskField } from './server-side';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Real time kept between a user edit and a second-writer write of the same task (or of items
 * on it), in either order, so that which came after is never in doubt.
 */
const MARGIN_MS = 30;

/** The task a write or an edit concerns (an item's task): margins are kept per task. */
const taskOf = (run: CaseRun, key: string) => run.model.entities.get(key)?.task ?? key;

/** Sleeps until `MARGIN_MS` have passed since the other side last touched the task. */
const margin = async (run: CaseRun, key: string, side: 'user' | 'writer') => {
  const other = run.touched[side === 'user' ? 'writer' : 'user'].get(taskOf(run, key));
  if (other === undefined) return;
  const wait = other + MARGIN_MS + 1 - Date.now();
  if (wait > 0) await sleep(wait);
};
const mark = (run: CaseRun, key: string, side: 'user' | 'writer', at: number) =>
  run.touched[side].set(taskOf(run, key), at);

const pickOf = <T>(xs: readonly T[], n: number): T | undefined =>
  xs.length === 0 ? undefined : xs[n % xs.length];

/** A user edit of an existing task or item, recorded as a set of one field. */
const userSet = async (
  run: CaseRun,
  e: Entity,
  field: 'title' | 'priority' | 'status' | 'name' | 'completed',
  value: string | boolean,
) => {
  await margin(run, e.key, 'user');
  const command: EditCommand =
    e.kind === 'task'
      ? {
          kind: 'task.update',
          taskId: e.id,
          patch:
            field === 'title'
              ? { taskTitle: String(value) }
              : field === 'priority'
                ? { priority: String(value) }
                : { status: String(value) },
        }
      : {
          kind: 'checklist.update',
          checklistId: e.id,
          patch: field === 'name' ? { name: String(value) } : { completed: value === true },
        };
  const r = await run.edit(command, `set ${e.key}.${field} = ${JSON.stringify(value)}`);
  if (!r) return;
  mark(run, e.key, 'user', r.at);
  run.model.apply({ type: 'set', key: e.key, field, value, at: r.at });
};

/** Plays one action, logging what it did into the model and the case's log. */
export const step = async (run: CaseRun, act: Action): Promise<void> => {
  const { model, prefix } = run;
  const org = run.current;
  const tasks = () => model.live('task', org);
  const items = () => model.live('checklist', org);
  switch (act.a) {
    case 'task.create': {
      const n = ++run.n;
      const title = `${prefix}u${n}`;
      const r = await run.edit(
        { kind: 'task.create', fields: { taskTitle: title } },
        `create t${n} "${title}"`,
      );
      if (r)
        model.apply({ type: 'create-task', key: `t${n}`, org, id: r.result.id, at: r.at, title });
      return;
    }
    case 'task.title': {
      const e = pickOf(tasks(), act.i);
      if (e) await userSet(run, e, 'title', `${prefix}u${++run.n}`);
      return;
    }
    case 'task.priority':
    case 'task.status': {
      const e = pickOf(tasks(), act.i);
      const field = act.a === 'task.priority' ? 'priority' : 'status';
      if (e) await userSet(run, e, field, model.nextUserValue(e.key, field));
      return;
    }
    case 'item.toggle': {
      const e = pickOf(items(), act.i);
      if (e) await userSet(run, e, 'completed', model.nextUserValue(e.key, 'completed'));
      return;
    }
    case 'item.rename': {
      const e = pickOf(items(), act.i);
      if (e) await userSet(run, e, 'name', `c${++run.n}`);
      return;
    }
    case 'task.delete':
    case 'item.delete': {
      const e = pickOf(act.a === 'task.delete' ? tasks() : items(), act.i);
      if (!e) return;
      await margin(run, e.key, 'user');
      const command: EditCommand =
        e.kind === 'task'
          ? { kind: 'task.delete', taskId: e.id }
          : { kind: 'checklist.delete', checklistId: e.id };
      const r = await run.edit(command, `delete ${e.key}`);
      if (r) model.apply({ type: 'delete', key: e.key, at: r.at });
      return;
    }
    case 'item.create': {
      const t = pickOf(tasks(), act.i);
      if (!t) return;
      const n = ++run.n;
      const name = `c${n}`;
      const r = await run.edit(
        { kind: 'checklist.create', taskId: t.id, name },
        `create c${n} on ${t.key}`,
      );
      if (r)
        model.apply({
          type: 'create-item',
          key: `c${n}`,
          org,
          id: r.result.id,
          task: t.key,
          at: r.at,
          name,
        });
      return;
    }
    case 'upload': {
      const t = pickOf(tasks(), act.i);
      if (!t) return;
      const n = ++run.n;
      const name = `f${n}.txt`;
      const bytes = Buffer.from(`${prefix}${name} ${'x'.repeat(act.pad)}\n`);
      const r = await run.edit(
        {
          kind: 'attachment.upload',
          taskId: t.id,
          files: [{ name, contentType: 'text/plain', dataBase64: bytes.toString('base64') }],
        },
        `upload f${n} (${bytes.length} B) to ${t.key}`,
      );
      const id = r?.result.ids[0];
      if (r && id !== undefined)
        model.apply({
          type: 'upload',
          key: `f${n}`,
          org,
          id,
          task: t.key,
          at: r.at,
          name,
          size: bytes.length,
          bytes: bytes.toString('base64'),
        });
      return;
    }
    case 'timer.start': {
      const t = pickOf(tasks(), act.i);
      if (!t) return;
      const n = ++run.n;
      const r = await run.edit(
        { kind: 'timer.start', taskId: t.id },
        `start timer m${n} on ${t.key}`,
      );
      if (r)
        model.apply({
          type: 'timer-start',
          key: `m${n}`,
          org,
          id: r.result.id,
          task: t.key,
          at: r.at,
        });
      return;
    }
    case 'timer.toggle':
    case 'timer.stop': {
      // The org's running or paused timer: a toggle pauses a running one, resumes a paused one.
      const t = model.activeTimer(org);
      if (!t) return;
      const move = act.a === 'timer.stop' ? 'stop' : t.state === 'RUNNING' ? 'pause' : 'resume';
      const r = await run.edit({ kind: `timer.${move}`, trackId: t.id }, `${move} timer ${t.key}`);
      if (r) model.apply({ type: 'timer-move', key: t.key, move, at: r.at });
      return;
    }
    case 'sync':
      await run.child().request({ cmd: 'sync' });
      return;
    case 'fault':
      addFault(run.ms, act.kind, act.method, act.count);
      return;
    case 'latency':
      setLatency(run.ms);
      return;
    case 'heal':
      healFaults(run.ms);
      return;
    case 'kill': {
      // A sync in flight, killed a random moment later: between a request's commit and the
      // child's record of its answer, at times.
      const child = run.child();
      const syncing = child.request({ cmd: 'sync' }).catch(() => null);
      await sleep(act.afterMs);
      await child.kill();
      await syncing;
      run.ctx.stats.kills++;
      run.ctx.child = await spawnChild(run.ctx);
      await run.open(org);
      return;
    }
    case 'restart':
      await run.close();
      await run.open(org);
      return;
    case 'switch':
      await run.close();
      await run.open(1 - org);
      return;
    case 'write':
      await secondWriter(run, act);
      return;
    case 'wait':
      await sleep(act.ms);
      return;
    case 'wait.timer':
      // A second or so with a timer running: durations of whole seconds to get right.
      if (model.activeTimer(org)?.state === 'RUNNING') await sleep(act.ms);
      return;
  }
};

/**
 * The other user changes one field of a task or item of the current org that the server has
 * (its id known to the replica: a create whose answer never came is left alone, so that a
 * lost create is always the engine's to find).
 */
const secondWriter = async (run: CaseRun, act: Extract<Action, { a: 'write' }>) => {
  const { model, ms, prefix } = run;
  const org = run.current;
  const orgId = run.orgs[org]?.orgId ?? 0;
  const ids = await run.child().request({ cmd: 'ids' });
  const mapped = new Map(ids.mappings.map((m) => [`${m.kind}:${m.local}`, m.server]));
  const sid = (e: Entity) => (e.id > 0 ? e.id : mapped.get(`${e.kind}:${e.id}`));
  const kind = act.field === 'item.name' ? 'checklist' : 'task';
  const candidates = model.live(kind, org).filter((e) => sid(e) !== undefined);
  const e = pickOf(candidates, act.i);
  const id = e ? sid(e) : undefined;
  if (!e || id === undefined) {
    run.log.push('  (no entity of the server to write)');
    return;
  }
  await margin(run, e.key, 'writer');
  const queued = new Set(ids.queued);
  const unsent = queued.has(`${kind}:${e.id}`) || queued.has(`${kind}:${id}`);
  const n = ++run.n;
  const out =
    kind === 'checklist'
      ? writeItemName(ms, orgId, id, () => ({ field: 'name', value: `oc${n}` }))
      : writeTaskField(ms, orgId, id, (cur) => {
          // Always a change, and never a value the user uses.
          if (act.field === 'priority') {
            const value =
              cur.priority === 'Medium' || cur.priority === 'Urgent'
                ? cur.priority === 'Medium'
                  ? 'Urgent'
                  : 'Medium'
                : act.alt
                  ? 'Urgent'
                  : 'Medium';
            return { field: 'priority', value };
          }
          if (act.field === 'status' && cur.status !== 'In Review')
            return { field: 'status', value: 'In Review' };
          return { field: 'title', value: `${prefix}o${n}` };
        });
  if (!out) {
    run.log.push(`  write ${e.key}: not on the server`);
    return;
  }
  mark(run, e.key, 'writer', out.at);
  model.apply({ type: 'write', key: e.key, ...out, unsent });
  run.log.push(
    `  write ${e.key}.${out.field} ${JSON.stringify(out.before)} -> ${JSON.stringify(out.value)} at ${out.at}${unsent ? ' (user edit unsent)' : ''}`,
  );
};
