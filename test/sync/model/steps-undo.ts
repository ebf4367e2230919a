/**
 * Undo and redo played: the model's own history says which step the engine must take and
 * what it does (sync/history's rules); the engine's answer must name that step and its
 * entity. Where the engine's choice hangs on what its replica held (a field someone else
 * changed since, a delete that may or may not have reached the server) the model predicts
 * the choices, reads which one the replica shows, and holds it to them; then it logs what
 * the undo or redo did as the user's own edits at its time.
 */
import { cfKey } from './canonical';
import type { CaseRun } from './case-run';
import { TIME_TOLERANCE_MS } from './check';
import {
  type EngineKind,
  engineKindOf,
  type Ids,
  idOf,
  readIds,
  replicaFields,
} from './engine-view';
import type { Value } from './field-rules';
import type { MakeEvent, Prior, StepEntry, UserStep } from './model-history';
import type { TimerExpectation } from './model-timers';
import type { Field } from './model-types';
import { margin, mark } from './step-log';
import { seededProjectKey, seededSpaceKey } from './steps-structure';

class UndoMismatch extends Error {
  override readonly name = 'UndoMismatch';
}

const show = (v: unknown) => JSON.stringify(v);

/** Plays `times` undos or redos of the current org, one after the other. */
export const undoOrRedo = async (
  run: CaseRun,
  which: 'undo' | 'redo',
  times: number,
): Promise<void> => {
  let did = false;
  for (let k = 0; k < times; k++) {
    await once(run, which);
    did ||= run.did === which;
  }
  run.did = did ? which : 'no-op';
};

const once = async (run: CaseRun, which: 'undo' | 'redo'): Promise<void> => {
  const org = run.current;
  const peek = which === 'undo' ? run.steps.undo(org) : run.steps.redo(org);
  const key = peek ? run.steps.resolve(peek.entry.key) : null;
  if (key !== null) await margin(run, key, 'user');
  // What the replica holds of a set's fields just before its undo: the engine's rule.
  const before =
    peek?.entry.t === 'set' &&
    which === 'undo' &&
    key !== null &&
    (run.model.isAlive(key) || run.model.userSees(key))
      ? await fieldsNow(run, key)
      : null;
  const answer = await run.child().request({ cmd: which });
  const did = answer.step;
  run.log.push(
    `  ${which}: model ${peek ? `${peek.kind} of ${peek.entry.key}${key !== peek.entry.key ? ` (now ${key})` : ''}` : 'nothing'}; engine ${did ? `${did.kind} "${did.label}" [${did.entities.join(' ')}]` : 'null'}`,
  );
  run.did = peek ? which : 'no-op';
  // Steps each took, whichever action asked (an undo's redos right after it among them).
  if (peek) {
    const stats = run.ctx.stats.byAction;
    stats[`${which}: steps`] = (stats[`${which}: steps`] ?? 0) + 1;
  }
  if (!peek || key === null) {
    if (did) throw new UndoMismatch(`${which}: the model has no step, the engine did ${show(did)}`);
    return;
  }
  if (!did || answer.at === null)
    throw new UndoMismatch(
      `${which}: the model has ${peek.kind} of ${key}, the engine answered null`,
    );
  if (did.kind !== peek.kind)
    throw new UndoMismatch(
      `${which}: the model has ${peek.kind} of ${key}, the engine did ${did.kind}`,
    );
  const at = answer.at;
  const ids = await readIds(run);
  const ek = engineKindOf(run, key);
  const id = idOf(run, key);
  if (ek === null || id === null) throw new Error(`no entity ${key}`);
  mark(run, key, 'user', at);
  if (which === 'undo') await undone(run, peek, key, before, ids, at);
  else await redone(run, peek, key, ids, at);
  // The engine names the step's entity as its replica named it then (made again: the new
  // id), local or, once its create was answered, the server's (a push may land meanwhile).
  const last = idOf(run, run.steps.resolve(key)) ?? id;
  const names = [id, ids.now(ek, id), last, ids.now(ek, last)].map((x) => `${ek}:${x}`);
  if (!names.some((n) => did.entities.includes(n)))
    throw new UndoMismatch(
      `${which} of ${peek.kind} on ${key}: the engine's answer names ${did.entities.join(', ')}, not ${names[1]}`,
    );
};

/** The entity's fields in the replica now (null: not there). */
const fieldsNow = async (run: CaseRun, key: string) => {
  const ek = engineKindOf(run, key);
  const id = idOf(run, key);
  if (ek === null || id === null) return null;
  return replicaFields(run, ek, id);
};

/** A field's value as read (a custom field without a value: null, as the model holds it). */
const valueIn = (fields: Record<string, Value>, f: string): Value =>
  Object.hasOwn(fields, f) ? (fields[f] ?? null) : null;

const fits = (v: Value, p: Prior): boolean =>
  p.values.some((x) => x === v) ||
  (p.near !== undefined && typeof v === 'number' && Math.abs(v - p.near) <= TIME_TOLERANCE_MS);

const undone = async (
  run: CaseRun,
  step: UserStep,
  key: string,
  before: Record<string, Value> | null,
  ids: Ids,
  at: number,
): Promise<void> => {
  const { model } = run;
  const e = step.entry;
  switch (e.t) {
    case 'set': {
      // Deleted by the second client: until a pull takes it away the undo still sets it back
      // here, and a recreate carries what it set.
      const gone = !model.isAlive(key);
      if (gone && !model.userSees(key)) return;
      if (gone && !before) return;
      if (!before) throw new UndoMismatch(`undo: ${key} is alive in the model, not in the replica`);
      const after = await fieldsNow(run, key);
      if (!after && gone) return;
      if (!after) throw new UndoMismatch(`undo: ${key} left the replica`);
      // Custom fields go item by item, as the engine compares and sets them back.
      const ent = model.entities.get(key);
      const written = (f: string) => (ent?.fields.get(f as Field)?.writes.length ?? 0) > 0;
      // A pull may land between the read before the undo and the undo itself: a writer's
      // value there at the undo is a change since, kept. Since the step's set: one the writer
      // made before it is the value the step replaced, which the undo sets back.
      const theirs = (f: string, v: Value) => {
        const h = ent?.fields.get(f as Field);
        const setAt = h?.sets.findLast((x) => x.value === e.values[f])?.at ?? -Infinity;
        return h?.writes.some((w) => w.value === v && w.at > setAt) ?? false;
      };
      const back: Record<string, Value> = {};
      for (const [f, set] of Object.entries(e.values)) {
        const was = valueIn(before, f);
        const now = valueIn(after, f);
        const prior = e.prior[f] ?? { values: [] };
        // sync/history's rule: a field still as the step set it goes back; one changed since
        // (by someone else: the user's own later steps were undone first) stays.
        if (was === set && !theirs(f, now)) {
          if (now === was || !fits(now, prior))
            throw new UndoMismatch(
              `undo of ${key}.${f} = ${show(set)}: the replica has ${show(now)}, the model expects one of ${show(prior.values)}${prior.near === undefined ? '' : ` or about ${prior.near}`}`,
            );
          back[f] = now;
        } else {
          if (now !== was && !theirs(f, now))
            throw new UndoMismatch(
              `undo of ${key}.${f} = ${show(set)}: changed since (${show(was)}), yet set to ${show(now)}`,
            );
          if (!written(f))
            throw new UndoMismatch(
              `undo of ${key}.${f} = ${show(set)}: the replica shows ${show(was)}, which nobody else wrote`,
            );
        }
      }
      setAll(run, key, back, at, true);
      return;
    }
    case 'create':
      deleteNow(run, key, at, true);
      return;
    case 'move': {
      const t = model.timers.get(key);
      if (!t || !model.isAlive(key)) return;
      if (e.move === 'pause' && t.state === 'PAUSED')
        model.apply({ type: 'timer-move', key, move: 'resume', at });
      else if (e.move === 'resume' && t.state === 'RUNNING')
        model.apply({ type: 'timer-move', key, move: 'pause', at });
      return;
    }
    case 'delete':
      await undoDelete(run, step, key, e, ids, at);
      return;
  }
};

/** The values set on the entity (each by its kind of set) at `at`; `undo`: set back. */
const setAll = (
  run: CaseRun,
  key: string,
  values: Record<string, Value>,
  at: number,
  undo = false,
) => {
  const { model } = run;
  if (Object.keys(values).length === 0) return;
  if (model.timers.has(key)) {
    const { startTime, durationSeconds, ...rest } = values;
    if (startTime !== undefined || durationSeconds !== undefined)
      model.apply({
        type: 'timer-fix',
        key,
        block: {
          ...(typeof startTime === 'number' ? { startTime } : {}),
          ...(typeof durationSeconds === 'number' ? { durationSeconds } : {}),
        },
        at,
        undo,
      });
    for (const [f, v] of Object.entries(rest))
      model.apply({ type: 'timer-set', key, field: f as 'notes' | 'billing', value: v, at });
    return;
  }
  if (model.uploads.has(key)) {
    model.apply({ type: 'rename', key, value: String(values.name), at });
    return;
  }
  for (const [f, v] of Object.entries(values))
    model.apply({ type: 'set', key, field: f as Field, value: v, at });
};

/**
 * The entity deleted now, if it is still there (gone: the engine skips it). The API deletes
 * stopped entries: a running or paused one is stopped first.
 */
/**
 * `undone`: a create undone, which takes the entity away even under a task or place the second
 * client deleted meanwhile (the user saw it still); a recreate of that task later does not
 * bring it back (seed 748415872).
 */
const deleteNow = (run: CaseRun, key: string, at: number, undone = false) => {
  const own =
    run.model.timers.get(key) ?? run.model.uploads.get(key) ?? run.model.entities.get(key);
  if (undone ? !own || own.deletedAt !== null : !run.model.isAlive(key)) return;
  const t = run.model.timers.get(key);
  if (t && t.state !== 'STOPPED') run.model.apply({ type: 'timer-move', key, move: 'stop', at });
  run.model.apply({ type: 'delete', key, at });
};

/**
 * A delete undone: while its request cannot have reached the server the engine drops it and
 * the entity is as it was (same id); once it may have, the entity is made again (new ids; a
 * task with its checklist and subtasks, not its files, whose content this replica never
 * cached, nor its time entries). Which, the replica tells; the model holds it to what can be.
 */
const undoDelete = async (
  run: CaseRun,
  step: UserStep,
  key: string,
  e: Extract<StepEntry, { t: 'delete' }>,
  ids: Ids,
  at: number,
) => {
  const { model } = run;
  const ek = engineKindOf(run, key);
  const id = idOf(run, key);
  if (ek === null || id === null) return;
  const movedTo = ids.movedTo(ek, id);
  const rolledBack = movedTo === undefined && (await replicaFields(run, ek, id)) !== null;
  run.log.push(
    `    ${key}: ${movedTo !== undefined ? `made again as ${ek}:${movedTo}` : rolledBack ? 'its delete dropped' : 'not back'}`,
  );
  if (rolledBack) {
    // Nothing of the user's was unsent at some moment after the delete: it had reached the server.
    if (model.quietBetween(e.at, at))
      throw new UndoMismatch(
        `undo of ${step.kind} of ${key}: the delete had reached the server, yet it was dropped`,
      );
    model.apply({ type: 'undelete', key, at });
    return;
  }
  const can = canRemake(run, key);
  if (movedTo === undefined) {
    if (can === true) throw new UndoMismatch(`undo of ${step.kind} of ${key}: nothing came back`);
    return;
  }
  if (can === false)
    throw new UndoMismatch(
      `undo of ${step.kind} of ${key}: made again as ${movedTo}, which the model cannot`,
    );
  await remake(run, key, ids, at, e.at);
};

/** What a recreate can make again: not files (never cached here), nor anything orphaned. */
/**
 * Whether the engine makes it again: where what it hangs on lives; not where that is deleted;
 * either where the second client deleted that and the user may not have pulled it yet (the
 * engine makes it again on the task its replica still holds, and the server refuses it).
 */
const canRemake = (run: CaseRun, key: string): boolean | 'either' => {
  const { model } = run;
  if (model.uploads.has(key)) return false;
  const holder = holderOf(run, key);
  if (holder === null) return true;
  const h = run.steps.resolve(holder);
  if (model.isAlive(h)) return true;
  return model.userSees(h) ? 'either' : false;
};

/** What an entity hangs on (its task, parent, project or space), or null. */
const holderOf = (run: CaseRun, key: string): string | null => {
  const e = run.model.entities.get(key);
  if (e) return e.task ?? e.within;
  return run.model.timers.get(key)?.task ?? run.model.uploads.get(key)?.task ?? null;
};

/** Entities hanging on `key` that were there when it was deleted at `deletedAt`. */
const heldBy = (run: CaseRun, key: string, deletedAt: number) =>
  [...run.model.entities.values()].filter(
    (x) =>
      (x.task === key || (x.kind === 'task' && x.within === key)) &&
      (x.deletedAt === null || x.deletedAt >= deletedAt),
  );

/**
 * Whether a custom field is gone: the project or space that defined it was deleted, or made
 * again (a new one, without the field; the app cannot make a field). A task made again then
 * comes back without its value (seed 834385570).
 */
const fieldGone = (run: CaseRun, org: number, f: string): boolean => {
  const def = run.orgs[org]?.fields.find((x) => cfKey(x.fieldId) === f);
  if (!def) return false;
  const definers = [
    seededSpaceKey(org),
    ...(def.projectId === null ? [] : [seededProjectKey(org)]),
  ];
  return definers.some((k) => {
    const now = run.steps.resolve(k);
    return now !== k || !run.model.isAlive(now);
  });
};

/** Its fields as read from the replica, each one the model allows the copy to hold. */
const copiedFields = async (
  run: CaseRun,
  key: string,
  kind: EngineKind,
  newId: number,
  refused: boolean,
) => {
  const { model } = run;
  const got = await replicaFields(run, kind, newId);
  const e = model.entities.get(key);
  // Made again in what the second client deleted: the server refuses it and its rollback may
  // have taken it from the replica already; it never lands, its fields are the model's.
  if (!got && refused && e)
    return Object.fromEntries(
      [...e.fields.keys()].map((f) => [f, model.fieldExpectation(key, f).accept[0] ?? null]),
    );
  if (!got) throw new UndoMismatch(`${key} made again as ${kind}:${newId}: not in the replica`);
  if (!e) return got;
  const fields: Record<string, Value> = {};
  for (const [f, h] of e.fields) {
    const v = valueIn(got, f);
    const may = [
      ...model.fieldExpectation(key, f).accept,
      model.userValue(key, f),
      ...h.writes.map((w) => w.value),
    ];
    if (!may.some((x) => x === v) && !(v === null && fieldGone(run, e.org, f)))
      throw new UndoMismatch(
        `${key} made again: its ${f} is ${show(v)}, the model allows ${show([...new Set(may)])}`,
      );
    fields[f] = v;
  }
  return fields;
};

/** A timer's fields as the model expects them (one made again that the server refused). */
const lostTimer = (exp: TimerExpectation): Record<string, unknown> => ({
  startTime: exp.startTime,
  durationSeconds: exp.durationSeconds,
  notes: exp.fields.notes.accept[0] ?? null,
  billing: exp.fields.billing.accept[0] ?? 'BILLABLE',
});

/** The entity (and what it held) made again by a recreate, under new keys. */
const remake = async (run: CaseRun, key: string, ids: Ids, at: number, deletedAt: number) => {
  const { model } = run;
  const ek = engineKindOf(run, key);
  const id = idOf(run, key);
  if (ek === null || id === null) return;
  const to = ids.movedTo(ek, id);
  if (to === undefined) throw new UndoMismatch(`${key} was not made again`);
  const nk = `${key}r${++run.n}`;
  const holder = holderOf(run, key);
  const within = holder === null ? null : run.steps.resolve(holder);
  const t = model.timers.get(key);
  if (t) {
    const exp = model.expectations().timers.find((x) => x.key === key);
    // On a task the second client deleted, the server refuses it and its rollback may have
    // taken it from the replica already: it is what the model had, and never lands.
    const got =
      (await replicaFields(run, 'timer', to)) ??
      (exp && within !== null && !model.isAlive(within) ? lostTimer(exp) : null);
    if (!got) throw new UndoMismatch(`${key} made again as timer:${to}: not in the replica`);
    const startTime = Number(got.startTime);
    const durationSeconds = Number(got.durationSeconds);
    if (
      !exp ||
      durationSeconds !== exp.durationSeconds ||
      (exp.exact && startTime !== exp.startTime)
    )
      throw new UndoMismatch(
        `${key} made again: ${startTime} for ${durationSeconds} s, the model had ${exp?.startTime} for ${exp?.durationSeconds} s`,
      );
    model.apply({
      type: 'timer-add',
      key: nk,
      org: t.org,
      id: to,
      task: within ?? t.task,
      at,
      // sync/history/recreate.ts: a range of its whole seconds, 1 ms for one under a second.
      block: {
        startTime,
        durationSeconds,
        endTime: startTime + Math.max(1, durationSeconds * 1000),
      },
      notes: (got.notes as string | null) ?? null,
      billing: String(got.billing),
    });
    run.steps.noteMoved(key, nk);
    return;
  }
  const e = model.entities.get(key);
  if (!e) return;
  const fields = await copiedFields(run, key, ek, to, within !== null && !model.isAlive(within));
  const held = heldBy(run, key, deletedAt);
  model.apply({
    type: 'create',
    kind: e.kind,
    key: nk,
    org: e.org,
    id: to,
    task: e.task === null ? null : within,
    within: e.within === null ? null : within,
    at,
    fields,
  });
  run.steps.noteMoved(key, nk);
  // A task brings its checklist and subtasks back (not a space its projects, nor a project
  // its tasks: sync/history/recreate.ts).
  if (e.kind === 'task')
    for (const x of held) {
      if (ids.movedTo(x.kind, x.id) === undefined) {
        // One the second client made is in the copy only if a pull brought it before the delete.
        if (x.writerMadeAt !== null && !model.pulledBetween(x.writerMadeAt, deletedAt)) continue;
        throw new UndoMismatch(`${key} made again without its ${x.kind} ${x.key}`);
      }
      await remake(run, x.key, ids, at, deletedAt);
    }
  else
    for (const x of held)
      if (ids.movedTo(x.kind, x.id) !== undefined)
        throw new UndoMismatch(`${key} made again with its ${x.kind} ${x.key}, which it cannot`);
  for (const u of [...model.uploads.values()].filter((x) => x.task === key))
    if (ids.movedTo('attachment', u.id) !== undefined)
      throw new UndoMismatch(`file ${u.key} came back, but its content was never cached here`);
};

/** A redo: the step's command again, with the ids of today (sync/history `redo`). */
const redone = async (run: CaseRun, step: UserStep, key: string, ids: Ids, at: number) => {
  const { model } = run;
  const e = step.entry;
  switch (e.t) {
    case 'set':
      // Its entity gone from the replica: skipped (one the second client deleted is there
      // until a pull takes it away).
      if (model.isAlive(key) || (model.userSees(key) && (await fieldsNow(run, key))))
        setAll(run, key, e.values, at);
      return;
    case 'delete':
      deleteNow(run, key, at);
      // Its next undo judges by this delete: whether it could have reached the server since.
      e.at = at;
      return;
    case 'move': {
      const t = model.timers.get(key);
      if (!t || !model.isAlive(key)) return;
      // A move the timer can no longer make (stopped since) is skipped, as a gone entity is.
      const legal =
        (e.move === 'pause' && t.state === 'RUNNING') ||
        (e.move === 'resume' && t.state === 'PAUSED') ||
        (e.move === 'stop' && t.state !== 'STOPPED');
      if (legal) model.apply({ type: 'timer-move', key, move: e.move, at });
      return;
    }
    case 'create':
      remade(run, e, key, ids, at);
      return;
  }
};

/** A create redone: made again from its command (new key and id) unless its holder is gone. */
const remade = (
  run: CaseRun,
  e: Extract<StepEntry, { t: 'create' }>,
  key: string,
  ids: Ids,
  at: number,
) => {
  const { model } = run;
  const { make } = e;
  const holderKey =
    'task' in make && typeof make.task === 'string'
      ? make.task
      : 'within' in make && typeof make.within === 'string'
        ? make.within
        : null;
  const holder = holderKey === null ? null : run.steps.resolve(holderKey);
  // Its holder deleted: by the user, it is not made again; by the second client and maybe
  // not pulled yet, it may be, on the task the replica still holds (the server refuses it).
  const holderGone = holder !== null && !model.isAlive(holder);
  if (holderGone && !model.userSees(holder)) return;
  // The engine's step names what it made by the id it made it under (its create's, or its
  // last redo's), not the id a recreate gave it since: the new id is noted from that one.
  const ek = engineKindOf(run, e.key);
  const id = idOf(run, e.key);
  if (ek === null || id === null) return;
  const to = ids.movedTo(ek, id);
  if (to === undefined && holderGone) return;
  if (to === undefined) throw new UndoMismatch(`redo of ${key}: not made again`);
  const nk = `${key}r${++run.n}`;
  const again = { ...make, key: nk, id: to, at } as MakeEvent;
  if ('task' in again && typeof again.task === 'string' && holder !== null) again.task = holder;
  if ('within' in again && typeof again.within === 'string' && holder !== null)
    again.within = holder;
  model.apply(again);
  run.steps.noteMoved(key, nk);
  e.key = nk;
};
