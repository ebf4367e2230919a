/**
 * The model of the model test, pure: from the log of what happened (the user's edits with the
 * engine's `at`, the second writer's writes with the parent's clock, creates, deletes, timer
 * moves, uploads) it computes what the server must hold: acceptable values per field
 * (field-rules.ts), which entities exist, each timer's record and each file.
 */
import {
  expectField,
  type FieldExpectation,
  type FieldHistory,
  last,
  type Value,
} from './field-rules';
import {
  correctTimer,
  moveTimer,
  newTimer,
  type Timer,
  timerExpectation,
  uncorrectTimer,
} from './model-timers';
import type {
  Entity,
  EntityExpectation,
  EntityKind,
  Expectations,
  Field,
  ModelEvent,
  Upload,
} from './model-types';
import { userPriorities, userStatuses } from './model-types';

export type { Value } from './field-rules';
export type { Timer, TimerExpectation, TimerField, TimerState } from './model-timers';
export type * from './model-types';
export { userPriorities, userStatuses } from './model-types';

/** What the user and the second writer did, replayed; queries for choosing the next action. */
export class Model {
  readonly entities = new Map<string, Entity>();
  readonly timers = new Map<string, Timer>();
  readonly uploads = new Map<string, Upload>();
  /**
   * When the user changed each task's checklist, files or subtasks: those reach the server as
   * changes of the task too (they move its modification time), at a moment after the edit.
   */
  private readonly childEdits = new Map<string, number[]>();
  private readonly pulls: { from: number; at: number }[] = [];
  private readonly quiets: number[] = [];
  readonly log: ModelEvent[] = [];
  /**
   * The server's clock against the real one now. Timers run on the server's clock: a sleep
   * (both clocks moving on, clock.ts) counts in a running timer, a step of the user's clock
   * does not.
   */
  private serverOffsetMs = 0;

  setServerOffset(ms: number): void {
    this.serverOffsetMs = ms;
  }

  private childEdit(task: string, at: number) {
    this.childEdits.set(task, [...(this.childEdits.get(task) ?? []), at]);
  }

  /** A subtask's create and delete touch its parent on the server (its subtask count). */
  private parentTouched(e: Entity, at: number) {
    if (e.task !== null) this.childEdit(e.task, at);
    else if (e.kind === 'task' && e.within !== null && this.entities.get(e.within)?.kind === 'task')
      this.childEdit(e.within, at);
  }

  apply(e: ModelEvent): void {
    this.log.push(e);
    switch (e.type) {
      case 'seed-task':
        this.add(e.key, 'task', e.org, e.id, null, e.within ?? null, e.fields);
        return;
      case 'seed-item':
        this.add(e.key, 'checklist', e.org, e.id, e.task, null, { ...e.fields, assignee: null });
        return;
      case 'seed':
        this.add(e.key, e.kind, e.org, e.id, null, e.within, e.fields);
        return;
      case 'create-task':
        this.parentTouched(
          this.add(e.key, 'task', e.org, e.id, null, e.within ?? null, e.fields),
          e.at,
        );
        return;
      case 'create':
        this.parentTouched(this.add(e.key, e.kind, e.org, e.id, e.task, e.within, e.fields), e.at);
        return;
      case 'create-item':
        this.childEdit(e.task, e.at);
        this.add(e.key, 'checklist', e.org, e.id, e.task, null, {
          name: e.name,
          completed: false,
          assignee: null,
        });
        return;
      case 'upload':
        this.childEdit(e.task, e.at);
        this.uploads.set(e.key, {
          key: e.key,
          org: e.org,
          id: e.id,
          task: e.task,
          name: e.name,
          names: { initial: e.name, sets: [], writes: [] },
          size: e.size,
          bytes: e.bytes,
          deletedAt: null,
          goneAt: null,
        });
        return;
      case 'set': {
        const ent = this.must(e.key);
        this.history(ent, e.field).sets.push({ at: e.at, value: e.value });
        ent.userEdits.push(e.at);
        if (ent.task !== null) this.childEdit(ent.task, e.at);
        return;
      }
      case 'rename': {
        const u = this.upload(e.key);
        u.names.sets.push({ at: e.at, value: e.value });
        this.childEdit(u.task, e.at);
        return;
      }
      case 'timer-set': {
        const t = this.timer(e.key);
        t.fields[e.field].sets.push({ at: e.at, value: e.value });
        t.userEdits.push(e.at);
        return;
      }
      case 'delete':
      case 'undelete': {
        const at = e.type === 'delete' ? e.at : null;
        const t = this.timers.get(e.key);
        if (t) {
          t.deletedAt = at;
          return;
        }
        const u = this.uploads.get(e.key);
        if (u) {
          u.deletedAt = at;
          this.childEdit(u.task, e.at);
          return;
        }
        const ent = this.must(e.key);
        // The engine stops the user's active timer on a task it deletes (or on its subtasks, or
        // a project's or space's tasks).
        const active =
          e.type === 'delete' && ent.kind !== 'checklist' ? this.activeTimer(ent.org) : undefined;
        if (active && this.under(active.task, e.key))
          moveTimer(active, 'stop', e.at + this.serverOffsetMs);
        ent.deletedAt = at;
        this.parentTouched(ent, e.at);
        return;
      }
      case 'pulled':
        this.pulls.push({ from: e.from, at: e.at });
        return;
      case 'quiet':
        this.quiets.push(e.at);
        return;
      case 'write': {
        const ent = this.must(e.key);
        if (e.value === e.before) return;
        this.history(ent, e.field).writes.push({
          at: e.at,
          value: e.value,
          before: e.before,
          unsent: e.unsent,
        });
        ent.writerChanges.push({ at: e.at, field: e.field });
        if (e.carry) ent.carries.push({ at: e.at, values: e.carry });
        return;
      }
      case 'writer-create': {
        const ent = this.add(e.key, e.kind, e.org, e.id, e.task, e.within, e.fields);
        // Made by the other user: a change of the entity (and of its task) by the writer.
        ent.writerChanges.push({ at: e.at, field: e.kind === 'task' ? 'title' : 'name' });
        ent.writerMadeAt = e.at;
        return;
      }
      case 'writer-delete': {
        this.must(e.key).goneAt = e.at;
        for (const k of e.children) {
          const gone = this.entities.get(k) ?? this.timers.get(k) ?? this.uploads.get(k);
          if (!gone) throw new Error(`no child ${k} of ${e.key}`);
          gone.goneAt = e.at;
        }
        return;
      }
      case 'let-go': {
        const gone = this.entities.get(e.key) ?? this.timers.get(e.key) ?? this.uploads.get(e.key);
        if (!gone) throw new Error(`no ${e.key} to let go`);
        gone.goneAt = e.at;
        return;
      }
      case 'recreate': {
        const ent = this.must(e.key);
        Object.assign(ent, { id: e.id, goneAt: null, recreatedAt: e.at });
        return;
      }
      case 'timer-start': {
        const at = e.at + this.serverOffsetMs;
        const active = this.activeTimer(e.org);
        // The engine stops the user's running or paused timer first, at the same moment.
        if (active) moveTimer(active, 'stop', at);
        this.timers.set(e.key, newTimer({ ...e, startAt: at }));
        return;
      }
      case 'timer-add':
        this.timers.set(
          e.key,
          newTimer({
            ...e,
            startAt: e.at + this.serverOffsetMs,
            block: e.block,
            notes: e.notes,
            billing: e.billing,
          }),
        );
        return;
      case 'timer-fix': {
        const t = this.timer(e.key);
        if (e.undo) uncorrectTimer(t, e.block);
        else correctTimer(t, e.block);
        t.userEdits.push(e.at);
        return;
      }
      case 'timer-move':
        moveTimer(this.timer(e.key), e.move, e.at + this.serverOffsetMs);
        return;
    }
  }

  private add(
    key: string,
    kind: EntityKind,
    org: number,
    id: number,
    task: string | null,
    within: string | null,
    fields: Partial<Record<Field, Value>>,
  ): Entity {
    if (this.entities.has(key)) throw new Error(`entity ${key} twice`);
    const ent: Entity = {
      key,
      kind,
      org,
      id,
      task,
      within,
      deletedAt: null,
      fields: new Map(),
      userEdits: [],
      writerChanges: [],
      goneAt: null,
      recreatedAt: null,
      writerMadeAt: null,
      carries: [],
    };
    for (const [f, v] of Object.entries(fields) as [Field, Value][])
      ent.fields.set(f, { initial: v, sets: [], writes: [] });
    this.entities.set(key, ent);
    return ent;
  }

  private must(key: string): Entity {
    const e = this.entities.get(key);
    if (!e) throw new Error(`no entity ${key}`);
    return e;
  }

  timer(key: string): Timer {
    const t = this.timers.get(key);
    if (!t) throw new Error(`no timer ${key}`);
    return t;
  }

  upload(key: string): Upload {
    const u = this.uploads.get(key);
    if (!u) throw new Error(`no upload ${key}`);
    return u;
  }

  private history(e: Entity, f: Field): FieldHistory {
    const h = e.fields.get(f);
    if (!h) throw new Error(`${e.key} has no field ${f}`);
    return h;
  }

  /** The field's history (for the undo's prediction of what it sets back). */
  fieldHistory(key: string, f: Field): FieldHistory {
    return this.history(this.must(key), f);
  }

  /** `key` is `root` or hangs on it (through tasks, parents, projects and spaces). */
  under(key: string, root: string): boolean {
    if (key === root) return true;
    const e = this.entities.get(key);
    const up = e
      ? [e.task, e.within]
      : [this.timers.get(key)?.task ?? this.uploads.get(key)?.task ?? null];
    return up.some((k) => k !== null && k !== undefined && this.under(k, root));
  }

  /**
   * Not deleted (by the user, or by the second client and not made again), nor hanging on
   * something deleted: what the server must hold at the end.
   */
  isAlive(key: string): boolean {
    const e = this.entities.get(key);
    if (e)
      return (
        e.deletedAt === null &&
        e.goneAt === null &&
        (e.task === null || this.isAlive(e.task)) &&
        (e.within === null || this.isAlive(e.within))
      );
    const t = this.timers.get(key) ?? this.uploads.get(key);
    return t ? t.deletedAt === null && t.goneAt === null && this.isAlive(t.task) : false;
  }

  /**
   * Not deleted by the user: what the user may still edit (the second client's delete shows
   * only after a pull; an edit of it before then is a conflict for the user to resolve).
   */
  userSees(key: string): boolean {
    const e = this.entities.get(key);
    if (!e) return false;
    return (
      e.deletedAt === null &&
      (e.task === null || this.userSees(e.task)) &&
      (e.within === null || this.userSees(e.within))
    );
  }

  live(kind: EntityKind, org: number): Entity[] {
    return [...this.entities.values()].filter(
      (e) => e.kind === kind && e.org === org && this.userSees(e.key),
    );
  }

  /** The model's entity, timer or file the user knows by `kind` and `id` (local or server). */
  byId(kind: string, id: number): string | undefined {
    const pool =
      kind === 'timer'
        ? [...this.timers.values()]
        : kind === 'attachment'
          ? [...this.uploads.values()]
          : [...this.entities.values()].filter((e) => e.kind === kind);
    return pool.find((x) => x.id === id)?.key;
  }

  /** Gone by the second client's delete: itself, or what it hangs on. */
  goneByWriter(key: string): boolean {
    const e = this.entities.get(key);
    const t = e ?? this.timers.get(key) ?? this.uploads.get(key);
    if (!t) return false;
    if (t.goneAt !== null) return true;
    if (t.task !== null && this.goneByWriter(t.task)) return true;
    return e?.within != null && this.goneByWriter(e.within);
  }

  /** The org's running or paused timer (the server deletes a deleted task's timers). */
  activeTimer(org: number): Timer | undefined {
    return [...this.timers.values()].find(
      (t) => t.org === org && t.state !== 'STOPPED' && this.isAlive(t.key),
    );
  }

  /** The user's value of a field: the last the user gave it, or its initial one. */
  userValue(key: string, field: Field): Value {
    const h = this.history(this.must(key), field);
    // A set of null (a clear) is a value like any: not the initial one.
    const set = last(h.sets);
    return set ? set.value : h.initial;
  }

  /** The entity has the field (a custom field: on project tasks only). */
  hasField(key: string, field: Field): boolean {
    return this.entities.get(key)?.fields.has(field) ?? false;
  }

  /** The first of `options` that differs from the user's value of the field. */
  nextOf<V extends Value>(key: string, field: Field, options: readonly V[]): V | undefined {
    const current = this.userValue(key, field);
    return options.find((o) => o !== current);
  }

  /** A user value for a field that differs from what the user last gave it (or its initial). */
  nextUserValue(key: string, field: 'priority' | 'status' | 'completed'): Value {
    if (field === 'completed') return !this.userValue(key, field);
    const options: readonly string[] = field === 'priority' ? userPriorities : userStatuses;
    return this.nextOf(key, field, options) ?? options[0] ?? '';
  }

  /** Whether some sync that began after `from` had pulled by `to`. */
  pulledBetween(from: number, to: number): boolean {
    return this.pulls.some((p) => p.from > from && p.at < to);
  }

  /** Whether at some moment between the two nothing of the user's was unsent. */
  quietBetween(from: number, to: number): boolean {
    return this.quiets.some((q) => q > from && q < to);
  }

  /**
   * Rule 1's documented limit (ARCHITECTURE.md, "What it does not promise"): the writer's
   * change of a field at `writeAt`, before the user's set at `setAt`, may be kept when the app
   * had not seen it at the set (no pull that began after the write had ended by then) and the
   * entity changed again after the set: the writer changed another of its fields, or (a task)
   * one of its checklist items, or the user's own change of its checklist, files or subtasks
   * reached the server after the set. That last moment the model does not know; it bounds it:
   * an edit made after the set, or one made before it and not known to have reached the
   * server by then (no moment with nothing unsent between the two).
   */
  private keptEarlier(e: Entity, field: Field) {
    return (writeAt: number, setAt: number): boolean => {
      if (this.pulledBetween(writeAt, setAt)) return false;
      const later = (t: number) => t > setAt;
      if (e.writerChanges.some((c) => c.field !== field && later(c.at))) return true;
      if (e.kind !== 'task') return false;
      const items = [...this.entities.values()].filter((i) => i.task === e.key);
      if (items.some((i) => i.writerChanges.some((c) => later(c.at)))) return true;
      return (this.childEdits.get(e.key) ?? []).some(
        (c) => later(c) || !this.quietBetween(c, setAt),
      );
    };
  }

  /** One field's acceptable values on the server now. */
  fieldExpectation(key: string, f: Field): FieldExpectation {
    const e = this.must(key);
    if (e.recreatedAt !== null) return recreatedField(this.history(e, f));
    const carries = e.carries.flatMap((c) =>
      f in c.values ? [{ at: c.at, value: c.values[f] ?? null }] : [],
    );
    return expectField(this.history(e, f), e.userEdits, this.keptEarlier(e, f), carries);
  }

  expectations(): Expectations {
    const entities: EntityExpectation[] = [];
    for (const e of this.entities.values()) {
      const fields: Partial<Record<Field, FieldExpectation>> = {};
      for (const f of e.fields.keys()) fields[f] = this.fieldExpectation(e.key, f);
      entities.push({
        key: e.key,
        kind: e.kind,
        org: e.org,
        id: e.id,
        task: e.task,
        within: e.within,
        alive: this.isAlive(e.key),
        fields,
      });
    }
    const timers = [...this.timers.values()].map((t) => timerExpectation(t, this.isAlive(t.key)));
    // Nobody else renames files: the user's last name, always.
    const never = () => false;
    const uploads = [...this.uploads.values()].map(({ names, deletedAt: _, goneAt: __, ...u }) => ({
      ...u,
      alive: this.isAlive(u.key),
      nameExpect: expectField(names, [], never),
    }));
    return { entities, timers, uploads };
  }
}

/**
 * A field of an entity the user made again after the second client deleted it: the recreate
 * carries the replica's state then, the user's last value of a field the user set (or the
 * writer's later one, pulled before the delete); of a field never set, any value it had.
 */
const recreatedField = (h: FieldHistory): FieldExpectation => {
  const lastSet = last(h.sets);
  const laterWrites = h.writes.filter((w) => lastSet === undefined || w.at > lastSet.at);
  const accept = [...(lastSet ? [lastSet.value] : [h.initial]), ...laterWrites.map((w) => w.value)];
  return {
    accept: [...new Set(accept)],
    why: lastSet
      ? "made again: the user's last set, or a later change of the writer's"
      : 'made again: any value it had',
    rule: lastSet ? 1 : 2,
  };
};
