import type { Db } from '../db/open';
import type { UserKey } from './demo-people';
import type { FieldSpec, ProjectStatusName } from './demo-spec';
import { type Statements, statements } from './demo-statements';
import type { Rng } from './rng';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** What the seeder remembers of a task it wrote, so later steps (subtasks, timers...) can use it. */
export interface TaskRec {
  id: number;
  orgId: number;
  spaceId: number | null;
  projectId: number | null;
  parentId: number | null;
  title: string;
  status: string;
  done: boolean;
  due: number | null;
  owners: number[];
  /** Who may act on it (project members, or the owner of a personal task). */
  people: number[];
  createdBy: number;
  created: number;
  modified: number;
  description: string;
  tags: readonly string[];
  fields: readonly FieldDef[];
  projectStatus: ProjectStatusName | null;
}

/** A custom field as written: its id, its spec and (for a dropdown) the ids of its options. */
export interface FieldDef {
  id: number;
  spec: FieldSpec;
  optionIds: number[];
}

export interface ProjectRec {
  id: number;
  name: string;
  orgId: number;
  created: number;
  modified: number;
}

export interface Counts {
  orgs: number;
  users: number;
  spaces: number;
  projects: number;
  tasks: number;
  subtasks: number;
  checklistItems: number;
  attachments: number;
  comments: number;
  timers: number;
  notifications: number;
  customValues: number;
}

/**
 * The state one demo seeding run shares across its steps: the clock, the PRNG, the prepared
 * statements, the ids handed out so far and the running counts for the summary line. Every step
 * draws from the same `rng` in a fixed order, which is what makes the seed deterministic.
 */
export class DemoContext {
  readonly s: Statements;
  readonly users = new Map<UserKey, number>();
  readonly emailOf = new Map<number, string>();
  readonly nameOf = new Map<number, string>();
  readonly tasks: TaskRec[] = [];
  readonly projects: ProjectRec[] = [];
  readonly dayStart: number;
  readonly counts: Counts = {
    orgs: 0,
    users: 0,
    spaces: 0,
    projects: 0,
    tasks: 0,
    subtasks: 0,
    checklistItems: 0,
    attachments: 0,
    comments: 0,
    timers: 0,
    notifications: 0,
    customValues: 0,
  };

  constructor(
    readonly db: Db,
    readonly now: number,
    readonly rng: Rng,
  ) {
    this.s = statements(db);
    this.dayStart = now - (((now % DAY) + DAY) % DAY);
  }

  uid(key: UserKey): number {
    const id = this.users.get(key);
    if (id === undefined) throw new Error(`demo seed: unknown user ${key}`);
    return id;
  }

  /** A time `fromDays`..`toDays` days ago, on a whole minute, never after now. */
  ago(fromDays: number, toDays: number): number {
    const t = this.now - this.rng.int(Math.round(fromDays * DAY), Math.round(toDays * DAY));
    return Math.min(this.now, t - (((t % MINUTE) + MINUTE) % MINUTE));
  }

  /** A time between `from` and now, on a whole minute, at least `from`. */
  between(from: number, to = this.now): number {
    if (to <= from) return from;
    const t = from + Math.floor(this.rng.next() * (to - from));
    return Math.max(from, t - (t % MINUTE));
  }

  /** 17:00 UTC of the day `days` from today. */
  dayAt(days: number, hour = 17): number {
    return this.dayStart + days * DAY + hour * HOUR;
  }

  task(orgId: number, title: string): TaskRec {
    const t = this.tasks.find((x) => x.orgId === orgId && x.title === title && x.parentId === null);
    if (!t) throw new Error(`demo seed: no task "${title}"`);
    return t;
  }

  project(orgId: number, name: string): ProjectRec {
    const p = this.projects.find((x) => x.orgId === orgId && x.name === name);
    if (!p) throw new Error(`demo seed: no project "${name}"`);
    return p;
  }
}
