/**
 * A user edit the engine applied, logged twice: into the model (what the server must hold)
 * and as a step of the model's own undo history (what an undo or a redo will take, and what
 * the replica held before it, for the undo's set back). The margins kept between the user's
 * and the second client's changes of one task are touch.ts's.
 */
import type { EditKind } from '../../../shared/edits/commands';
import type { CaseRun } from './case-run';
import type { Value } from './field-rules';
import type { MakeEvent, Prior } from './model-history';
import type { TimerMove } from './model-timers';

export { margin, mark } from './touch';

/** Something made (a task, item, file, time entry, space, project). */
export const made = (run: CaseRun, kind: EditKind, event: MakeEvent): void => {
  run.model.apply(event);
  run.steps.push(event.org, { kind, entry: { t: 'create', key: event.key, make: event } });
};

/** Something deleted (with what hangs on it). */
export const deleted = (run: CaseRun, kind: EditKind, key: string, at: number): void => {
  run.model.apply({ type: 'delete', key, at });
  run.steps.push(run.current, { kind, entry: { t: 'delete', key, at } });
};

const unique = (xs: Value[]) => [...new Set(xs)];

/**
 * What the replica may have held of a field just before the user's set (already applied to
 * the model): the user's value before it, or a change of the writer's made before it (pulled,
 * or kept by the server: rule 1's limit) or the value that change replaced.
 */
const priorOf = (run: CaseRun, key: string, field: string): Prior => {
  const { model } = run;
  const t = model.timers.get(key);
  const u = model.uploads.get(key);
  const h = t
    ? t.fields[field as 'notes' | 'billing']
    : u
      ? u.names
      : model.fieldHistory(key, field as never);
  const set = h.sets[h.sets.length - 1];
  const before = h.sets[h.sets.length - 2];
  const prev = before ? before.value : h.initial;
  const earlier = h.writes.filter((w) => set === undefined || w.at < set.at);
  return { values: unique([prev, ...earlier.flatMap((w) => [w.value, w.before])]) };
};

/**
 * Fields set, each already applied to the model by the caller as its kind of set. `prior`:
 * what the fields held before, where the model's histories do not tell it (a timer's block).
 */
export const setStep = (
  run: CaseRun,
  kind: EditKind,
  key: string,
  values: Record<string, Value>,
  prior?: Record<string, Prior>,
): void =>
  run.steps.push(run.current, {
    kind,
    entry: {
      t: 'set',
      key,
      values,
      prior: prior ?? Object.fromEntries(Object.keys(values).map((f) => [f, priorOf(run, key, f)])),
    },
  });

/** A timer moved. */
export const moved = (run: CaseRun, key: string, move: TimerMove, at: number): void => {
  run.model.apply({ type: 'timer-move', key, move, at });
  run.steps.push(run.current, { kind: `timer.${move}`, entry: { t: 'move', key, move } });
};
