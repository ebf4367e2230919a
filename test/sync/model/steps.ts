/**
 * The actions of a case, played: the user's edits through the child (each logged into the
 * model with the engine's `at`), syncs, faults, kills, restarts, org switches, and the second
 * client's changes (second-client.ts).
 */
import type { EditCommand } from '../../../shared/edits/commands';
import { cfKey, ownersKey, tagsKey } from './canonical';
import { type CaseRun, spawnChild } from './case-run';
import { playClock } from './clock';
import type { Entity, Field, TaskField, Value } from './model';
import type { Action, FieldEdit } from './scenario';
import { secondClient } from './second-client';
import {
  addFault,
  addHold,
  dropHoldRule,
  healFaults,
  heldAnswers,
  requestsInFlight,
  setLatency,
} from './server-side';
import { deleted, made, moved, setStep } from './step-log';
import {
  addTime,
  createPlace,
  createTask,
  deleteOne,
  deletePlace,
  editPlace,
  fixTimer,
} from './steps-structure';
import { undoOrRedo } from './steps-undo';
import { margin, mark, pickOf } from './touch';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long an aimed kill waits for a request in flight. */
const AIM_MS = 100;

/** A user edit of one field of an existing task or item, recorded as a set of it. */
const userSet = async (
  run: CaseRun,
  e: Entity,
  field: Field,
  value: Value,
  command: EditCommand,
) => {
  await margin(run, e.key, 'user');
  const r = await run.edit(command, `set ${e.key}.${field} = ${JSON.stringify(value)}`);
  if (!r) return;
  mark(run, e.key, 'user', r.at);
  run.model.apply({ type: 'set', key: e.key, field, value, at: r.at });
  setStep(run, command.kind, e.key, { [field]: value });
};

const taskSet = (run: CaseRun, e: Entity, field: TaskField, value: Value, patch: TaskPatch) =>
  userSet(run, e, field, value, { kind: 'task.update', taskId: e.id, patch });

type TaskPatch = Extract<EditCommand, { kind: 'task.update' }>['patch'];

/** `options` turned by `n`, so that which differing value comes first varies. */
const turned = <T>(options: readonly T[], n: number): T[] => {
  const k = n % options.length;
  return [...options.slice(k), ...options.slice(0, k)];
};

const DAY_MS = 86_400_000;
/** The user's dates (whole seconds, as the API's ISO strings carry them); the writer's are 2031. */
const USER_DAY0 = Date.UTC(2030, 0, 1, 9);

/** Plays a user's edit of one field: the value chosen by `n`, differing from the user's own. */
const fieldEdit = async (run: CaseRun, act: { a: FieldEdit; i: number; n: number }) => {
  const { model, prefix } = run;
  const org = run.current;
  const tasks = model.live('task', org);
  const demo = run.ms.demoUserId;
  const other = run.ms.otherUserId;
  switch (act.a) {
    case 'task.description': {
      const e = pickOf(tasks, act.i);
      if (!e) return;
      const text = `${prefix}d${++run.n}`;
      const value = act.n % 4 === 0 && model.userValue(e.key, 'description') !== '' ? '' : text;
      return taskSet(run, e, 'description', value, { description: value });
    }
    case 'task.start':
    case 'task.due': {
      const e = pickOf(tasks, act.i);
      if (!e) return;
      const field = act.a === 'task.start' ? 'startDate' : 'dueDate';
      const day = USER_DAY0 + (++run.n % 900) * DAY_MS;
      const value = act.n % 3 === 0 && model.userValue(e.key, field) !== null ? null : day;
      const iso = value === null ? null : new Date(value).toISOString();
      return taskSet(
        run,
        e,
        field,
        value,
        field === 'startDate' ? { startDate: iso } : { dueDate: iso },
      );
    }
    case 'task.completion': {
      const e = pickOf(tasks, act.i);
      const value = e && model.nextOf(e.key, 'completion', turned([0, 25, 50, 100], act.n));
      if (e && value !== undefined)
        await taskSet(run, e, 'completion', value, { completion: value });
      return;
    }
    case 'task.owners': {
      const e = pickOf(tasks, act.i);
      const sets = [[], [demo], [other], [demo, other]];
      const value = e && model.nextOf(e.key, 'owners', turned(sets.map(ownersKey), act.n));
      if (!e || value === undefined) return;
      const owners = value === '' ? [] : value.split(',').map(Number);
      return taskSet(run, e, 'owners', value, { owners });
    }
    case 'task.tags': {
      const e = pickOf(tasks, act.i);
      const sets = [[], ['red'], ['blue'], ['red', 'blue']];
      const value = e && model.nextOf(e.key, 'tags', turned(sets.map(tagsKey), act.n));
      if (!e || value === undefined) return;
      return taskSet(run, e, 'tags', value, { tags: value === '' ? [] : value.split('|') });
    }
    case 'task.cf': {
      // One field per edit: the contract keeps the others (task.update, customFieldValues).
      const fields = run.orgs[org]?.fields ?? [];
      const has = (t: Entity) => fields.filter((f) => model.hasField(t.key, cfKey(f.fieldId)));
      const e = pickOf(
        tasks.filter((t) => has(t).length > 0),
        act.i,
      );
      // Of the fields the task has (a project outside the seeded space has none of its).
      const f = e && pickOf(has(e), act.n);
      if (!e || !f) return;
      const field = cfKey(f.fieldId);
      const n = ++run.n;
      // Never a value the field may hold already (an edit that changes nothing is no step):
      // the seed's is 7, the second client's negative.
      const set = f.type === 'TEXT' ? `${prefix}v${n}` : 1_000 + n;
      const raw = act.n % 3 === 0 && model.userValue(e.key, field) !== null ? null : set;
      const value = raw === null ? null : JSON.stringify(raw);
      return taskSet(run, e, field, value, {
        customFieldValues: [{ taskCustomFieldId: f.fieldId, value: raw }],
      });
    }
    case 'item.assign': {
      const e = pickOf(model.live('checklist', org), act.i);
      const value = e && model.nextOf(e.key, 'assignee', turned([null, demo, other], act.n));
      if (!e || value === undefined || typeof value === 'string' || typeof value === 'boolean')
        return;
      return userSet(run, e, 'assignee', value, {
        kind: 'checklist.update',
        checklistId: e.id,
        patch: { assigneeId: value },
      });
    }
    case 'file.rename': {
      const files = [...model.uploads.values()].filter(
        (u) => u.org === org && model.isAlive(u.key),
      );
      const u = pickOf(files, act.i);
      if (!u) return;
      await margin(run, u.task, 'user');
      const base = `g${++run.n}`;
      // The server keeps the extension: sent with it or without, the name ends in it.
      const fileName = act.n % 2 === 0 ? base : `${base}.txt`;
      const r = await run.edit(
        { kind: 'attachment.rename', attachmentId: u.id, fileName },
        `rename ${u.key} to ${fileName}`,
      );
      if (!r) return;
      mark(run, u.task, 'user', r.at);
      model.apply({ type: 'rename', key: u.key, value: `${base}.txt`, at: r.at });
      setStep(run, 'attachment.rename', u.key, { name: `${base}.txt` });
      return;
    }
    case 'timer.notes':
    case 'timer.billing': {
      const timers = [...model.timers.values()].filter(
        (t) => t.org === org && model.isAlive(t.key),
      );
      const t = pickOf(timers, act.i);
      if (!t) return;
      const field = act.a === 'timer.notes' ? 'notes' : 'billing';
      const lastSet = last(t.fields[field].sets);
      const current = lastSet ? lastSet.value : t.fields[field].initial;
      const value: string | null =
        field === 'notes'
          ? act.n % 3 === 0 && current !== null
            ? null
            : `note${++run.n}`
          : current === 'BILLABLE'
            ? 'NON_BILLABLE'
            : 'BILLABLE';
      const patch =
        field === 'notes'
          ? { notes: value }
          : {
              billingStatus:
                value === 'BILLABLE' ? ('BILLABLE' as const) : ('NON_BILLABLE' as const),
            };
      const r = await run.edit(
        { kind: 'timer.update', trackId: t.id, patch },
        `set timer ${t.key}.${field} = ${JSON.stringify(value)}`,
      );
      if (!r) return;
      model.apply({ type: 'timer-set', key: t.key, field, value, at: r.at });
      setStep(run, 'timer.update', t.key, { [field]: value });
      return;
    }
  }
};

const last = <T>(xs: readonly T[]): T | undefined => xs[xs.length - 1];

/** Plays one action, logging what it did into the model and the case's log. */
export const step = async (run: CaseRun, act: Action): Promise<void> => {
  const { model, prefix } = run;
  const org = run.current;
  const tasks = () => model.live('task', org);
  const items = () => model.live('checklist', org);
  switch (act.a) {
    case 'task.create':
    case 'subtask.create':
      await createTask(run, act);
      return;
    case 'space.create':
    case 'project.create':
      await createPlace(run, act);
      return;
    case 'space.edit':
    case 'project.edit':
      await editPlace(run, act);
      return;
    case 'space.delete':
    case 'project.delete':
      await deletePlace(run, act);
      return;
    case 'timer.range':
    case 'timer.manual':
      await addTime(run, act);
      return;
    case 'timer.fix':
      await fixTimer(run, act);
      return;
    case 'timer.delete':
    case 'file.delete':
      await deleteOne(run, act);
      return;
    case 'undo': {
      await undoOrRedo(run, 'undo', act.n);
      const undid = run.did;
      if (act.back > 0) await undoOrRedo(run, 'redo', act.back);
      run.did = undid;
      return;
    }
    case 'redo':
      await undoOrRedo(run, 'redo', act.n);
      return;
    case 'task.title': {
      const e = pickOf(tasks(), act.i);
      const value = `${prefix}u${++run.n}`;
      if (e) await taskSet(run, e, 'title', value, { taskTitle: value });
      return;
    }
    case 'task.priority':
    case 'task.status': {
      const e = pickOf(tasks(), act.i);
      if (!e) return;
      const value = String(
        model.nextUserValue(e.key, act.a === 'task.priority' ? 'priority' : 'status'),
      );
      await (act.a === 'task.priority'
        ? taskSet(run, e, 'priority', value, { priority: value })
        : taskSet(run, e, 'status', value, { status: value }));
      return;
    }
    case 'item.toggle': {
      const e = pickOf(items(), act.i);
      const value = e !== undefined && model.nextUserValue(e.key, 'completed') === true;
      if (e)
        await userSet(run, e, 'completed', value, {
          kind: 'checklist.update',
          checklistId: e.id,
          patch: { completed: value },
        });
      return;
    }
    case 'item.rename': {
      const e = pickOf(items(), act.i);
      const value = `c${++run.n}`;
      if (e)
        await userSet(run, e, 'name', value, {
          kind: 'checklist.update',
          checklistId: e.id,
          patch: { name: value },
        });
      return;
    }
    case 'task.description':
    case 'task.start':
    case 'task.due':
    case 'task.completion':
    case 'task.owners':
    case 'task.tags':
    case 'task.cf':
    case 'item.assign':
    case 'file.rename':
    case 'timer.notes':
    case 'timer.billing':
      await fieldEdit(run, act);
      return;
    case 'task.delete':
    case 'item.delete': {
      const deletable = act.a === 'task.delete' ? tasks() : items();
      const e = pickOf(deletable, act.i);
      if (!e) return;
      await margin(run, e.key, 'user');
      const command: EditCommand =
        e.kind === 'task'
          ? { kind: 'task.delete', taskId: e.id }
          : { kind: 'checklist.delete', checklistId: e.id };
      const r = await run.edit(command, `delete ${e.key}`);
      if (r) deleted(run, command.kind, e.key, r.at);
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
        made(run, 'checklist.create', {
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
        made(run, 'attachment.upload', {
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
        made(run, 'timer.start', {
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
      if (r) moved(run, t.key, move, r.at);
      return;
    }
    case 'sync': {
      const from = Date.now();
      const s = await run.child().request({ cmd: 'sync' });
      const at = Date.now();
      // What the app has seen, and what has surely reached the server: rule 1's bounds.
      if (s.freshPull) model.apply({ type: 'pulled', from, at });
      if (s.pending === 0 && s.failed.length === 0) model.apply({ type: 'quiet', at });
      return;
    }
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
      // The server answers within one turn of this process's loop, so a kill at a random
      // moment seldom finds a request on its way. Aimed, the next request's answer is held
      // after its commit (server/faults.ts `hold`) and the kill waits for it, a little while
      // at most: a kill between the server's commit and the child's record of it.
      if (act.aim) {
        addHold(run.ms);
        const until = Date.now() + AIM_MS;
        while (heldAnswers(run.ms) === 0 && Date.now() < until) await sleep(1);
      }
      // As the server sees it: a request begun and not answered when the child dies.
      if (requestsInFlight(run.ms) > 0) run.ctx.stats.killsInFlight++;
      await child.kill();
      await syncing;
      // A hold the dead child never met must not hold the next child's request.
      if (act.aim) dropHoldRule(run.ms);
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
    case 'writer.create':
    case 'writer.delete':
    case 'writer.sync':
      await secondClient(run, act);
      return;
    case 'wait':
      await sleep(act.ms);
      return;
    case 'wait.timer':
      // A second or so with a timer running: durations of whole seconds to get right.
      if (model.activeTimer(org)?.state === 'RUNNING') await sleep(act.ms);
      return;
    case 'clock.step':
    case 'clock.sleep':
      await playClock(run, act);
      return;
  }
};
