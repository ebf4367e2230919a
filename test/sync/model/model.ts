/**
 * The model of the model test, pure: from the log of what happened (the user's edits with the
 * engine's `at`, the second client's changes as they landed on the server, with the parent's
 * clock, creates, deletes, timer moves, uploads, conflicts resolved) it computes what the server must hold: acceptable values per field
 * (field-rules.ts), which entities exist, each timer's record and each file.
 */
import {
  expectField,
  type FieldExpectation,
  type FieldHistory,
  last,
  type Value,
} from './field-rules';

export type { Value } from './field-rules';

/** Entities with fields; files and timers are kept apart (uploads, timers). */
export type EntityKind = 'task' | 'checklist';
/**
 * A task's fields: title, description, status, priority, completion, startDate, dueDate
 * (epoch ms or null), owners (sorted ids, `1,4`), tags (sorted names, `blue|red`), and on a
 * project task each custom field as `cf:<id>` (its stored JSON, or null).
 */
export type TaskField =
  | 'title'
  | 'description'
  | 'status'
  | 'priority'
  | 'completion'
  | 'startDate'
  | 'dueDate'
  | 'owners'
  | 'tags'
  | `cf:${number}`;
/** A checklist item's: its assignee a user id or null. */
export type ItemField = 'name' | 'completed' | 'assignee';
export type Field = TaskField | ItemField;
export type TimerField = 'notes' | 'billing';
export type TimerState = 'RUNNING' | 'PAUSED' | 'STOPPED';

export const userPriorities = ['Low', 'High'] as const;
export const userStatuses = ['To Do', 'In Progress'] as const;

export type ModelEvent =
  | {
      type: 'seed-task';
      key: string;
      org: number;
      id: number;
      fields: Partial<Record<TaskField, Value>>;
    }
  | {
      type: 'seed-item';
      key: string;
      org: number;
      id: number;
      task: string;
      fields: { name: string; completed: boolean };
    }
  | {
      type: 'create-task';
      key: string;
      org: number;
      id: number;
      at: number;
      fields: Partial<Record<TaskField, Value>>;
    }
  | {
      type: 'create-item';
      key: string;
      org: number;
      id: number;
      task: string;
      at: number;
      name: string;
    }
  | {
      type: 'upload';
      key: string;
      org: number;
      id: number;
      task: string;
      at: number;
      name: string;
      size: number;
      bytes: string;
    }
  | { type: 'set'; key: string; field: Field; value: Value; at: number }
  /** A file renamed by the user (the name the server keeps: with its extension). */
  | { type: 'rename'; key: string; value: string; at: number }
  | { type: 'timer-set'; key: string; field: TimerField; value: Value; at: number }
  | { type: 'delete'; key: string; at: number }
  /** A pull that began after `from` succeeded before `at` (this machine's clock). */
  | { type: 'pulled'; from: number; at: number }
  /** Nothing of the user's was unsent at `at`: every earlier edit had reached the server. */
  | { type: 'quiet'; at: number }
  | { type: 'timer-start'; key: string; org: number; id: number; task: string; at: number }
  | { type: 'timer-move'; key: string; move: 'pause' | 'resume' | 'stop'; at: number }
  | {
      type: 'write';
      key: string;
      field: Field;
      value: Value;
      before: Value;
      at: number;
      /** The user had an edit of the entity queued (pending or in flight) at the write. */
      unsent: boolean;
      /**
       * With `unsent`: the entity's fields on the server as the second client's sync began,
       * which its update may carry over a user edit landing meanwhile (field-rules.ts rule 3).
       */
      carry?: Partial<Record<Field, Value>>;
    }
  /** The second client's create landed (its fields as the server made them). */
  | {
      type: 'writer-create';
      key: string;
      kind: EntityKind;
      org: number;
      id: number;
      task: string | null;
      at: number;
      fields: Partial<Record<Field, Value>>;
    }
  /**
   * The second client's delete landed; `children`: the items, timers and files of a task that
   * the server had then (they went with it; those still queued here hang on the task).
   */
  | { type: 'writer-delete'; key: string; at: number; children: string[] }
  /** The user resolved a conflict over it by making it again (a new local id). */
  | { type: 'recreate'; key: string; id: number; at: number }
  /** The user let go of its create, refused (what it hung on was deleted by the second client). */
  | { type: 'let-go'; key: string; at: number };

export interface Entity {
  key: string;
  kind: EntityKind;
  org: number;
  /** The id the user knows it by: the server's (seeded) or the local one the edit answered. */
  id: number;
  /** The task it hangs on (items, attachments, timers). */
  task: string | null;
  deletedAt: number | null;
  fields: Map<Field, FieldHistory>;
  /** Times of the user's edits of this entity's fields. */
  userEdits: number[];
  /** The writer's changes of this entity (any field). */
  writerChanges: { at: number; field: Field }[];
  /** Deleted by the second client (and not made again), at. */
  goneAt: number | null;
  /** Made again by the user after the second client deleted it. */
  recreatedAt: number | null;
  /** The second client's updates that may have carried older values (rule 3). */
  carries: { at: number; values: Partial<Record<Field, Value>> }[];
}

export interface Timer {
  key: string;
  org: number;
  id: number;
  task: string;
  startAt: number;
  state: TimerState;
  accumulatedMs: number;
  runningSince: number | null;
  stopAt: number | null;
  fields: Record<TimerField, FieldHistory>;
  userEdits: number[];
  /** Gone with its task, deleted by the second client. */
  goneAt: number | null;
}

export interface Upload {
  key: string;
  org: number;
  id: number;
  task: string;
  /** The name uploaded (its history holds the renames). */
  name: string;
  names: FieldHistory;
  size: number;
  bytes: string;
  goneAt: number | null;
}

export interface EntityExpectation {
  key: string;
  kind: 'task' | 'checklist';
  org: number;
  id: number;
  task: string | null;
  alive: boolean;
  fields: Partial<Record<Field, FieldExpectation>>;
}

export interface TimerExpectation {
  key: string;
  org: number;
  id: number;
  task: string;
  alive: boolean;
  state: TimerState;
  durationSeconds: number;
  /** In server time (the user's `at` plus the offset). */
  startTime: number;
  endTime: number | null;
  fields: Record<TimerField, FieldExpectation>;
}

export interface UploadExpectation extends Omit<Upload, 'names' | 'goneAt'> {
  alive: boolean;
  nameExpect: FieldExpectation;
}

export interface Expectations {
  entities: EntityExpectation[];
  timers: TimerExpectation[];
  uploads: UploadExpectation[];
}

/** What the user and the second client did, replayed; queries for choosing the next action. */
export class Model {
  readonly entities = new Map<string, Entity>();
  readonly timers = new Map<string, Timer>();
  readonly uploads = new Map<string, Upload>();
  /**
   * When the user changed each task's checklist or files: those reach the server as changes
   * of the task too (they move its modification time), at a moment after the edit.
   */
  private readonly childEdits = new Map<string, number[]>();
  private readonly pulls: { from: number; at: number }[] = [];
  private readonly quiets: number[] = [];
  readonly log: ModelEvent[] = [];

  private childEdit(task: string, at: number) {
    this.childEdits.set(task, [...(this.childEdits.get(task) ?? []), at]);
  }

  apply(e: ModelEvent): void {
    this.log.push(e);
    switch (e.type) {
      case 'seed-task':
        this.add(e.key, 'task', e.org, e.id, null, e.fields);
        return;
      case 'seed-item':
        this.add(e.key, 'checklist', e.org, e.id, e.task, { ...e.fields, assignee: null });
        return;
      case 'create-task':
        this.add(e.key, 'task', e.org, e.id, null, e.fields);
        return;
      case 'create-item':
        this.childEdit(e.task, e.at);
        this.add(e.key, 'checklist', e.org, e.id, e.task, {
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
        const u = this.uploads.get(e.key);
        if (!u) throw new Error(`no upload ${e.key}`);
        u.names.sets.push({ at: e.at, value: e.value });
        this.childEdit(u.task, e.at);
        return;
      }
      case 'timer-set': {
        const t = this.timers.get(e.key);
        if (!t) throw new Error(`no timer ${e.key}`);
        t.fields[e.field].sets.push({ at: e.at, value: e.value });
        t.userEdits.push(e.at);
        return;
      }
      case 'delete': {
        const ent = this.must(e.key);
        ent.deletedAt = e.at;
        if (ent.task !== null) this.childEdit(ent.task, e.at);
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
        this.add(e.key, e.kind, e.org, e.id, e.task, e.fields);
        // Made by the other user: a change of the entity (and of its task) by the writer.
        this.must(e.key).writerChanges.push({
          at: e.at,
          field: e.kind === 'task' ? 'title' : 'name',
        });
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
        const active = this.activeTimer(e.org);
        // The engine stops the user's running or paused timer first, at the same moment.
        if (active) this.move(active, 'stop', e.at);
        this.timers.set(e.key, {
          key: e.key,
          org: e.org,
          id: e.id,
          task: e.task,
          startAt: e.at,
          state: 'RUNNING',
          accumulatedMs: 0,
          runningSince: e.at,
          stopAt: null,
          fields: {
            notes: { initial: null, sets: [], writes: [] },
            billing: { initial: 'BILLABLE', sets: [], writes: [] },
          },
          userEdits: [],
          goneAt: null,
        });
        return;
      }
      case 'timer-move': {
        const t = this.timers.get(e.key);
        if (!t) throw new Error(`no timer ${e.key}`);
        this.move(t, e.move, e.at);
        return;
      }
    }
  }

  private add(
    key: string,
    kind: EntityKind,
    org: number,
    id: number,
    task: string | null,
    fields: Partial<Record<Field, Value>>,
  ) {
    if (this.entities.has(key)) throw new Error(`entity ${key} twice`);
    const ent: Entity = {
      key,
      kind,
      org,
      id,
      task,
      deletedAt: null,
      fields: new Map(),
      userEdits: [],
      writerChanges: [],
      goneAt: null,
      recreatedAt: null,
      carries: [],
    };
    for (const [f, v] of Object.entries(fields) as [Field, Value][])
      ent.fields.set(f, { initial: v, sets: [], writes: [] });
    this.entities.set(key, ent);
  }

  private move(t: Timer, move: 'pause' | 'resume' | 'stop', at: number) {
    const ran = t.state === 'RUNNING' && t.runningSince !== null ? at - t.runningSince : 0;
    if (move === 'pause') {
      if (t.state !== 'RUNNING') throw new Error(`pause of a ${t.state} timer`);
      Object.assign(t, {
        state: 'PAUSED',
        accumulatedMs: t.accumulatedMs + ran,
        runningSince: null,
      });
    } else if (move === 'resume') {
      if (t.state !== 'PAUSED') throw new Error(`resume of a ${t.state} timer`);
      Object.assign(t, { state: 'RUNNING', runningSince: at });
    } else {
      if (t.state === 'STOPPED') throw new Error('stop of a stopped timer');
      Object.assign(t, {
        state: 'STOPPED',
        accumulatedMs: t.accumulatedMs + ran,
        runningSince: null,
        stopAt: at,
      });
    }
  }

  private must(key: string): Entity {
    const e = this.entities.get(key);
    if (!e) throw new Error(`no entity ${key}`);
    return e;
  }

  private history(e: Entity, f: Field): FieldHistory {
    const h = e.fields.get(f);
    if (!h) throw new Error(`${e.key} has no field ${f}`);
    return h;
  }

  /**
   * Not deleted (by the user, or by the second client and not made again), nor hanging on
   * something deleted: what the server must hold at the end.
   */
  isAlive(key: string): boolean {
    const e = this.entities.get(key);
    if (e)
      return e.deletedAt === null && e.goneAt === null && (e.task === null || this.isAlive(e.task));
    const t = this.timers.get(key) ?? this.uploads.get(key);
    return t ? t.goneAt === null && this.isAlive(t.task) : false;
  }

  /**
   * Not deleted by the user: what the user may still edit (the second client's delete shows
   * only after a pull; an edit of it before then is a conflict for the user to resolve).
   */
  userSees(key: string): boolean {
    const e = this.entities.get(key);
    if (!e) return false;
    return e.deletedAt === null && (e.task === null || this.userSees(e.task));
  }

  live(kind: 'task' | 'checklist', org: number): Entity[] {
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
    return t.task !== null && this.goneByWriter(t.task);
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
    return last(h.sets)?.value ?? h.initial;
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

  /**
   * Rule 1's documented limit (ARCHITECTURE.md, "What it does not promise"): the writer's
   * change of a field at `writeAt`, before the user's set at `setAt`, may be kept when the app
   * had not seen it at the set (no pull that began after the write had ended by then) and the
   * entity changed again after the set: the writer changed another of its fields, or (a task)
   * one of its checklist items, or the user's own change of its checklist or files reached the
   * server after the set. That last moment the model does not know; it bounds it: an edit made
   * after the set, or one made before it and not known to have reached the server by then
   * (no moment with nothing unsent between the two).
   */
  private keptEarlier(e: Entity, field: Field) {
    return (writeAt: number, setAt: number): boolean => {
      if (this.pulls.some((p) => p.from > writeAt && p.at < setAt)) return false;
      const later = (t: number) => t > setAt;
      if (e.writerChanges.some((c) => c.field !== field && later(c.at))) return true;
      if (e.kind !== 'task') return false;
      const items = [...this.entities.values()].filter((i) => i.task === e.key);
      if (items.some((i) => i.writerChanges.some((c) => later(c.at)))) return true;
      return (this.childEdits.get(e.key) ?? []).some(
        (c) => later(c) || !this.quiets.some((q) => q > c && q < setAt),
      );
    };
  }

  expectations(offsetMs: number): Expectations {
    const entities: EntityExpectation[] = [];
    for (const e of this.entities.values()) {
      const fields: Partial<Record<Field, FieldExpectation>> = {};
      for (const [f, h] of e.fields)
        fields[f] =
          e.recreatedAt === null
            ? expectField(
                h,
                e.userEdits,
                this.keptEarlier(e, f),
                e.carries.flatMap((c) =>
                  f in c.values ? [{ at: c.at, value: c.values[f] ?? null }] : [],
                ),
              )
            : recreatedField(h);
      entities.push({
        key: e.key,
        kind: e.kind,
        org: e.org,
        id: e.id,
        task: e.task,
        alive: this.isAlive(e.key),
        fields,
      });
    }
    // Nobody else writes timers and files: the user's last value, always.
    const never = () => false;
    const timers = [...this.timers.values()].map((t) => ({
      key: t.key,
      org: t.org,
      id: t.id,
      task: t.task,
      alive: this.isAlive(t.key),
      state: t.state,
      durationSeconds: Math.floor(t.accumulatedMs / 1000),
      startTime: t.startAt + offsetMs,
      endTime: t.stopAt === null ? null : t.stopAt + offsetMs,
      fields: {
        notes: expectField(t.fields.notes, t.userEdits, never),
        billing: expectField(t.fields.billing, t.userEdits, never),
      },
    }));
    const uploads = [...this.uploads.values()].map(({ names, goneAt: _, ...u }) => ({
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
