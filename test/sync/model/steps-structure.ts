/**
 * The actions that make and unmake the places work lives in, and time added or corrected by
 * hand: tasks (personal, in a project, subtasks), spaces, projects, files deleted, time
 * ranges, manual time, corrections of a stopped entry, entries deleted. Each is logged into
 * the model with the engine's `at`.
 */
import type { EditCommand } from '../../../shared/edits/commands';
import { cfKey } from './canonical';
import type { CaseRun } from './case-run';
import type { Entity, Field, PlaceField, TaskField, Value } from './model';
import type { Prior } from './model-history';
import type { Timer } from './model-timers';
import type { Action } from './scenario';
import { seededFields } from './server-side';
import { deleted, made, setStep } from './step-log';

const DAY_MS = 86_400_000;
/** The user's dates for projects (as for tasks: 2030) and time entries (2025: in the past). */
const USER_DAY0 = Date.UTC(2030, 0, 1, 9);
const TIMER_DAY0 = Date.UTC(2025, 0, 1, 9);

const pickOf = <T>(xs: readonly T[], n: number): T | undefined =>
  xs.length === 0 ? undefined : xs[n % xs.length];

/** A new space's or project's fields as the server gives them (a project's: as a task's). */
export const placeFields = (kind: 'space' | 'project', name: string): Record<string, Value> =>
  kind === 'space'
    ? { name, description: '' }
    : { name, description: '', completion: 0, dueDate: null };

/**
 * The custom fields a task in `project` has (without values): the project's own, and the
 * seeded space's when the project is in it. Subtasks are given none (none is checked).
 */
export const taskFieldsIn = (
  run: CaseRun,
  project: Entity | undefined,
  title: string,
): Partial<Record<TaskField, Value>> => {
  const fields = { ...seededFields(title, []) } as Partial<Record<TaskField, Value>>;
  if (!project) return fields;
  const o = run.orgs[run.current];
  const inSeededSpace = project.within === seededSpaceKey(run.current);
  const projectId = project.id > 0 ? project.id : null;
  for (const f of o?.fields ?? [])
    if (f.projectId === null ? inSeededSpace : f.projectId === projectId)
      fields[cfKey(f.fieldId)] = null;
  return fields;
};

export const seededSpaceKey = (org: number) => `${'ab'[org]}sp`;
export const seededProjectKey = (org: number) => `${'ab'[org]}pj`;

/** A task: personal, in one of the org's projects, or a subtask of a top-level task. */
export const createTask = async (
  run: CaseRun,
  act: Extract<Action, { a: 'task.create' | 'subtask.create' }>,
): Promise<void> => {
  const { model, prefix } = run;
  const org = run.current;
  let within: Entity | undefined;
  if (act.a === 'subtask.create') {
    // Subtasks one level deep, as the service nests them.
    within = pickOf(
      model.live('task', org).filter((t) => model.entities.get(t.within ?? '')?.kind !== 'task'),
      act.i,
    );
    if (!within) return;
  } else if (act.proj) {
    within = pickOf(model.live('project', org), act.p ?? 0);
    if (!within) return;
  }
  const n = ++run.n;
  const title = `${prefix}u${n}`;
  const place =
    within === undefined
      ? {}
      : within.kind === 'task'
        ? { parentTaskId: within.id }
        : { projectId: within.id };
  const r = await run.edit(
    { kind: 'task.create', ...place, fields: { taskTitle: title } },
    `create t${n} "${title}"${within ? ` in ${within.key}` : ''}`,
  );
  if (!r) return;
  made(run, 'task.create', {
    type: 'create-task',
    key: `t${n}`,
    org,
    id: r.result.id,
    at: r.at,
    fields: taskFieldsIn(run, within?.kind === 'project' ? within : undefined, title),
    ...(within ? { within: within.key } : {}),
  });
};

export const createPlace = async (
  run: CaseRun,
  act: Extract<Action, { a: 'space.create' | 'project.create' }>,
): Promise<void> => {
  const { model, prefix } = run;
  const org = run.current;
  const n = ++run.n;
  const space = act.a === 'project.create' ? pickOf(model.live('space', org), act.i) : undefined;
  if (act.a === 'project.create' && !space) return;
  const kind = act.a === 'space.create' ? 'space' : 'project';
  const name = `${prefix}${kind === 'space' ? 'S' : 'P'}${n}`;
  const command: EditCommand = space
    ? { kind: 'project.create', spaceId: space.id, fields: { projectName: name } }
    : { kind: 'space.create', fields: { spaceName: name } };
  const key = `${kind === 'space' ? 'sp' : 'pj'}${n}`;
  const r = await run.edit(
    command,
    `create ${kind} ${key} "${name}"${space ? ` in ${space.key}` : ''}`,
  );
  if (!r) return;
  made(run, command.kind, {
    type: 'create',
    kind,
    key,
    org,
    id: r.result.id,
    task: null,
    within: space?.key ?? null,
    at: r.at,
    fields: placeFields(kind, name),
  });
};

/** A space's name or description; a project's name, description, completion or due date. */
export const editPlace = async (
  run: CaseRun,
  act: Extract<Action, { a: 'space.edit' | 'project.edit' }>,
): Promise<void> => {
  const { model, prefix } = run;
  const kind = act.a === 'space.edit' ? 'space' : 'project';
  const e = pickOf(model.live(kind, run.current), act.i);
  if (!e) return;
  const fields: PlaceField[] =
    kind === 'space' ? ['name', 'description'] : ['name', 'description', 'completion', 'dueDate'];
  const field = fields[act.n % fields.length] ?? 'name';
  const n = ++run.n;
  let value: Value;
  let patch: Record<string, unknown>;
  switch (field) {
    case 'name':
      value = `${prefix}${kind === 'space' ? 'S' : 'P'}${n}`;
      patch = kind === 'space' ? { spaceName: value } : { projectName: value };
      break;
    case 'description':
      value = act.n % 3 === 0 && model.userValue(e.key, field) !== '' ? '' : `pd${n}`;
      patch = { description: value };
      break;
    case 'completion':
      value = model.nextOf(e.key, field, [25, 50, 0, 75]) ?? 25;
      patch = { completion: value };
      break;
    case 'dueDate':
      value =
        act.n % 3 === 0 && model.userValue(e.key, field) !== null
          ? null
          : USER_DAY0 + (n % 900) * DAY_MS;
      patch = { dueDate: value === null ? null : new Date(value).toISOString() };
      break;
  }
  const command = (
    kind === 'space'
      ? { kind: 'space.update', spaceId: e.id, patch }
      : { kind: 'project.update', projectId: e.id, patch }
  ) as EditCommand;
  const r = await run.edit(command, `set ${e.key}.${field} = ${JSON.stringify(value)}`);
  if (!r) return;
  model.apply({ type: 'set', key: e.key, field: field as Field, value, at: r.at });
  setStep(run, command.kind, e.key, { [field]: value });
};

export const deletePlace = async (
  run: CaseRun,
  act: Extract<Action, { a: 'space.delete' | 'project.delete' }>,
): Promise<void> => {
  const kind = act.a === 'space.delete' ? 'space' : 'project';
  const e = pickOf(run.model.live(kind, run.current), act.i);
  if (!e) return;
  const command: EditCommand =
    kind === 'space'
      ? { kind: 'space.delete', spaceId: e.id }
      : { kind: 'project.delete', projectId: e.id };
  const r = await run.edit(command, `delete ${e.key}`);
  if (!r) return;
  deleted(run, command.kind, e.key, r.at);
};

/** The org's stopped entries that are still there. */
const stoppedTimers = (run: CaseRun): Timer[] =>
  [...run.model.timers.values()].filter(
    (t) => t.org === run.current && t.state === 'STOPPED' && run.model.isAlive(t.key),
  );

/** A start in the past, whole seconds (the API's times are ms; the user types minutes). */
const pastStart = (run: CaseRun) => TIMER_DAY0 + (++run.n % 300) * DAY_MS + (run.n % 60) * 1000;

/** Time added to a task: a range (start to end) or manual time (hours and minutes). */
export const addTime = async (
  run: CaseRun,
  act: Extract<Action, { a: 'timer.range' | 'timer.manual' }>,
): Promise<void> => {
  const { model } = run;
  const org = run.current;
  const t = pickOf(model.live('task', org), act.i);
  if (!t) return;
  const startTime = pastStart(run);
  const n = ++run.n;
  let command: EditCommand;
  let durationSeconds: number;
  let notes: string | null = null;
  let billing = 'BILLABLE';
  if (act.a === 'timer.range') {
    durationSeconds = ((act.n % 90) + 1) * 60 + (act.n % 7);
    command = {
      kind: 'timer.range',
      taskId: t.id,
      startTime,
      endTime: startTime + durationSeconds * 1000,
    };
  } else {
    const hours = act.n % 3;
    const minutes = hours === 0 ? (act.n % 59) + 1 : (act.n * 7) % 60;
    durationSeconds = (hours * 60 + minutes) * 60;
    if (act.n % 2 === 1) billing = 'NON_BILLABLE';
    if (act.n % 3 === 0) notes = `mn${n}`;
    command = {
      kind: 'timer.manual',
      taskId: t.id,
      hours,
      minutes,
      startTime,
      billingStatus: billing === 'BILLABLE' ? 'BILLABLE' : 'NON_BILLABLE',
      ...(notes === null ? {} : { notes }),
    };
  }
  const key = `m${n}`;
  const r = await run.edit(
    command,
    `add ${act.a.slice(6)} ${key} (${durationSeconds} s) on ${t.key}`,
  );
  if (!r) return;
  made(run, command.kind, {
    type: 'timer-add',
    key,
    org,
    id: r.result.id,
    task: t.key,
    at: r.at,
    block: { startTime, durationSeconds },
    notes,
    billing,
  });
};

/** A stopped entry's start, duration or both set by hand (`timer.update`). */
export const fixTimer = async (
  run: CaseRun,
  act: Extract<Action, { a: 'timer.fix' }>,
): Promise<void> => {
  const t = pickOf(stoppedTimers(run), act.i);
  if (!t) return;
  const which = act.n % 3;
  const startTime = which === 1 ? undefined : pastStart(run);
  const current = Math.floor(t.accumulatedMs / 1000);
  const minutes = ((act.n + run.n) % 120) + 1;
  const durationSeconds =
    which === 0 ? undefined : minutes * 60 === current ? minutes * 60 + 60 : minutes * 60;
  const patch = {
    ...(startTime === undefined ? {} : { startTime }),
    ...(durationSeconds === undefined ? {} : { durationSeconds }),
  };
  const command: EditCommand = { kind: 'timer.update', trackId: t.id, patch };
  // What the entry held: the start the user gave it, or its own (the user's start in server
  // time, give or take the engine's estimate of the server's clock).
  const prior: Record<string, Prior> = {
    startTime:
      t.block?.startTime != null
        ? { values: [t.block.startTime] }
        : { values: [], near: t.startAt },
    durationSeconds: { values: [Math.floor(t.accumulatedMs / 1000)] },
  };
  const r = await run.edit(command, `correct timer ${t.key} ${JSON.stringify(patch)}`);
  if (!r) return;
  run.model.apply({ type: 'timer-fix', key: t.key, block: patch, at: r.at });
  setStep(run, 'timer.update', t.key, patch, prior);
};

/** A stopped entry deleted, or a file. */
export const deleteOne = async (
  run: CaseRun,
  act: Extract<Action, { a: 'timer.delete' | 'file.delete' }>,
): Promise<void> => {
  const { model } = run;
  const org = run.current;
  const one =
    act.a === 'timer.delete'
      ? pickOf(stoppedTimers(run), act.i)
      : pickOf(
          [...model.uploads.values()].filter((u) => u.org === org && model.isAlive(u.key)),
          act.i,
        );
  if (!one) return;
  const command: EditCommand =
    act.a === 'timer.delete'
      ? { kind: 'timer.delete', trackId: one.id }
      : { kind: 'attachment.delete', attachmentId: one.id };
  const r = await run.edit(command, `delete ${one.key}`);
  if (!r) return;
  deleted(run, command.kind, one.key, r.at);
};
