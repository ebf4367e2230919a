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

export type { Value } from './field-rules';

/** Entities with fields; files and timers are kept apart (uploads, timers). */
export type EntityKind = 'task' | 'checklist';
export type TaskField = 'title' | 'priority' | 'status';
export type ItemField = 'name' | 'completed';
export type Field = TaskField | ItemField;
export type TimerState = 'RUNNING' | 'PAUSED' | 'STOPPED';

export const userPriorities = ['Low', 'High'] as const;
export const userStatuses = ['To Do', 'In Progress'] as const;

export type ModelEvent =
  | {
      type: 'seed-task';
      key: string;
      org: number;
      id: number;
      fields: Record<TaskField, string>;
    }
  | {
      type: 'seed-item';
      key: string;
      org: number;
      id: number;
      task: string;
      fields: { name: string; completed: boolean };
    }
  | { type: 'create-task'; key: string; org: number; id: number; at: number; title: string }
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
  | { type: 'delete'; key: string; at: number }
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
    };

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
}

export interface Upload {
  key: string;
  org: number;
  id: number;
  task: string;
  name: string;
  size: number;
  bytes: string;
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
}

export interface UploadExpectation extends Upload {
  alive: boolean;
}

export interface Expectations {
  entities: EntityExpectation[];
  timers: TimerExpectation[];
  uploads: UploadExpectation[];
}

/** What the user and the second writer did, replayed; queries for choosing the next action. */
export class Model {
  readonly entities = new Map<string, Entity>();
  readonly timers = new Map<string, Timer>();
  readonly uploads = new Map<string, Upload>();
  /** Tasks whose checklist or files the user changed (their commits move the task's time). */
  private readonly childEdited = new Set<string>();
  readonly log: ModelEvent[] = [];

  apply(e: ModelEvent): void {
    this.log.push(e);
    switch (e.type) {
      case 'seed-task':
        this.add(e.key, 'task', e.org, e.id, null, e.fields);
        return;
      case 'seed-item':
        this.add(e.key, 'checklist', e.org, e.id, e.task, e.fields);
        return;
      case 'create-task':
        this.add(e.key, 'task', e.org, e.id, null, {
          title: e.title,
          priority: 'None',
          status: 'To Do',
        });
        return;
      case 'create-item':
        this.childEdited.add(e.task);
        this.add(e.key, 'checklist', e.org, e.id, e.task, {
          name: e.name,
          completed: false,
        });
        return;
      case 'upload':
        this.childEdited.add(e.task);
        this.uploads.set(e.key, {
          key: e.key,
          org: e.org,
          id: e.id,
          task: e.task,
          name: e.name,
          size: e.size,
          bytes: e.bytes,
        });
        return;
      case 'set': {
        const ent = this.must(e.key);
        this.history(ent, e.field).sets.push({ at: e.at, value: e.value });
        ent.userEdits.push(e.at);
        if (ent.task !== null) this.childEdited.add(ent.task);
        return;
      }
      case 'delete': {
        const ent = this.must(e.key);
        ent.deletedAt = e.at;
        if (ent.task !== null) this.childEdited.add(ent.task);
        return;
      }
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

  /** Deleted by the user, or hanging on a task the user deleted. */
  isAlive(key: string): boolean {
    const e = this.entities.get(key);
    if (e) return e.deletedAt === null && (e.task === null || this.isAlive(e.task));
    const t = this.timers.get(key) ?? this.uploads.get(key);
    return t ? this.isAlive(t.task) : false;
  }

  live(kind: 'task' | 'checklist', org: number): Entity[] {
    return [...this.entities.values()].filter(
      (e) => e.kind === kind && e.org === org && this.isAlive(e.key),
    );
  }

  /** The org's running or paused timer (the server deletes a deleted task's timers). */
  activeTimer(org: number): Timer | undefined {
    return [...this.timers.values()].find(
      (t) => t.org === org && t.state !== 'STOPPED' && this.isAlive(t.task),
    );
  }

  /** A user value for a field that differs from what the user last gave it (or its initial). */
  nextUserValue(key: string, field: 'priority' | 'status' | 'completed'): Value {
    const h = this.history(this.must(key), field);
    const current = last(h.sets)?.value ?? h.initial;
    if (field === 'completed') return !current;
    const options: readonly string[] = field === 'priority' ? userPriorities : userStatuses;
    return options.find((o) => o !== current) ?? options[0] ?? '';
  }

  /**
   * The writer's changes of a task's items count as changes of the task (touchTask), and so do
   * the user's own changes of its checklist and files: they move its modification time when
   * they reach the server, a moment the model cannot know (at any time after the set).
   */
  private otherChanges(e: Entity, field: Field): number[] {
    const own = e.writerChanges.filter((c) => c.field !== field).map((c) => c.at);
    if (e.kind !== 'task') return own;
    const items = [...this.entities.values()].filter((i) => i.task === e.key);
    const mine = this.childEdited.has(e.key) ? [Number.POSITIVE_INFINITY] : [];
    return [...own, ...items.flatMap((i) => i.writerChanges.map((c) => c.at)), ...mine];
  }

  expectations(offsetMs: number): Expectations {
    const entities: EntityExpectation[] = [];
    for (const e of this.entities.values()) {
      const fields: Partial<Record<Field, FieldExpectation>> = {};
      for (const [f, h] of e.fields)
        fields[f] = expectField(h, e.userEdits, this.otherChanges(e, f));
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
    const timers = [...this.timers.values()].map((t) => ({
      key: t.key,
      org: t.org,
      id: t.id,
      task: t.task,
      alive: this.isAlive(t.task),
      state: t.state,
      durationSeconds: Math.floor(t.accumulatedMs / 1000),
      startTime: t.startAt + offsetMs,
      endTime: t.stopAt === null ? null : t.stopAt + offsetMs,
    }));
    const uploads = [...this.uploads.values()].map((u) => ({ ...u, alive: this.isAlive(u.task) }));
    return { entities, timers, uploads };
  }
}
