import { DAY, type DemoContext, type FieldDef, HOUR, MINUTE, type TaskRec } from './demo-context';
import type { ProjectStatusName } from './demo-spec';
import { idOf } from './demo-statements';
import {
  checklistNames,
  descriptionSentences,
  mentionLines,
  taskPriorityWeights,
  taskStatusWeights,
} from './demo-texts';

/**
 * One task and everything it carries. The order of the PRNG draws here is part of the data set:
 * reordering them changes every row that follows.
 */

const statusFor = (
  ctx: DemoContext,
  projectStatus: ProjectStatusName | null,
  parent: TaskRec | null,
): string => {
  if (parent?.done || projectStatus === 'Completed') return 'Done';
  if (projectStatus === 'Not Started')
    return ctx.rng.weighted([
      ['To Do', 80],
      ['In Progress', 20],
    ]);
  return ctx.rng.weighted(taskStatusWeights);
};

const dueFor = (
  ctx: DemoContext,
  done: boolean,
  projectStatus: ProjectStatusName | null,
): number | null => {
  if (done || projectStatus === 'Completed')
    return ctx.rng.chance(0.25) ? null : ctx.dayAt(-ctx.rng.int(1, 25));
  const bucket = ctx.rng.weighted([
    ['overdue', 15],
    ['today', 9],
    ['week', 26],
    ['later', 27],
    ['none', 23],
  ] as const);
  switch (bucket) {
    case 'overdue':
      return ctx.dayAt(-ctx.rng.int(1, 12), ctx.rng.int(9, 18));
    case 'today': {
      // Later today (never already past: that would be overdue, not due today).
      const endOfDay = ctx.dayStart + DAY - 1;
      return Math.min(endOfDay, Math.max(ctx.now + 30 * MINUTE, ctx.dayAt(0, 17)));
    }
    case 'week':
      return ctx.dayAt(ctx.rng.int(1, 6), ctx.rng.int(9, 18));
    case 'later':
      return ctx.dayAt(ctx.rng.int(8, 45));
    case 'none':
      return null;
  }
};

const taskDescription = (ctx: DemoContext, people: readonly number[], creator: number): string => {
  if (ctx.rng.chance(0.2)) return '';
  const parts: string[] = ctx.rng.sample<string>(descriptionSentences, ctx.rng.int(1, 2));
  const others = people.filter((u) => u !== creator);
  if (others.length > 0 && ctx.rng.chance(0.3)) {
    parts.push(ctx.rng.pick(mentionLines)(ctx.emailOf.get(ctx.rng.pick(others))!));
  }
  return parts.join(' ');
};

/** What a new task needs to know: where it goes, who may act on it, what it can carry. */
export interface NewTask {
  orgId: number;
  spaceId: number | null;
  projectId: number | null;
  parent: TaskRec | null;
  title: string;
  people: readonly number[];
  tags: readonly string[];
  fields: readonly FieldDef[];
  projectStatus: ProjectStatusName | null;
  earliest: number;
}

/** Writes one task with its tags, owners, custom values and checklist; returns its record. */
export const addTask = (ctx: DemoContext, o: NewTask): TaskRec => {
  const rng = ctx.rng;
  const demo = ctx.uid('demo');
  const status = statusFor(ctx, o.projectStatus, o.parent);
  const done = status === 'Done';
  const due = dueFor(ctx, done, o.projectStatus);
  // Created before a past due date, after the project (or parent), within the last 60 days.
  const latest =
    due !== null && due < ctx.now ? Math.min(due - DAY, ctx.now - HOUR) : ctx.now - HOUR;
  const created = ctx.between(o.earliest + MINUTE, Math.max(o.earliest + MINUTE, latest));
  const modified = ctx.between(created, ctx.now);
  // A start date on about half the dated tasks: a few days before the due date, not before creation.
  let start: number | null = null;
  if (due !== null && rng.chance(0.5)) {
    const planned = due - rng.int(2, 10) * DAY;
    start = planned >= created ? planned : created <= due ? created : null;
  }
  const completion = done
    ? 100
    : status === 'In Progress'
      ? rng.int(1, 7) * 10
      : status === 'In Review'
        ? rng.pick([80, 90])
        : 0;
  const priority = rng.weighted(taskPriorityWeights);

  // Owners: one or two of the people; the demo user owns a good share of what it can see.
  let owners: number[];
  if (o.people.length === 1) owners = [...o.people];
  else {
    owners = rng.sample(o.people, rng.chance(0.3) ? 2 : 1);
    if (o.people.includes(demo) && !owners.includes(demo) && rng.chance(0.3)) owners[0] = demo;
  }
  const createdBy = o.parent
    ? rng.pick([o.parent.createdBy, ...o.people])
    : o.people.length === 1
      ? o.people[0]!
      : rng.pick(o.people);
  const modifiedBy = rng.pick([createdBy, ...owners]);
  const description = o.parent && rng.chance(0.5) ? '' : taskDescription(ctx, o.people, createdBy);

  const id = idOf(
    ctx.s.task.run(
      o.orgId,
      o.spaceId,
      o.projectId,
      o.parent?.id ?? null,
      o.title,
      description,
      status,
      priority,
      start,
      due,
      completion,
      done ? 1 : 0,
      done ? modified : null,
      createdBy,
      modifiedBy,
      created,
      modified,
    ),
  );
  ctx.counts.tasks++;
  if (o.parent) ctx.counts.subtasks++;

  const tags = rng.sample(
    o.tags,
    rng.weighted([
      [0, 25],
      [1, 50],
      [2, 25],
    ]),
  );
  for (const tag of tags) ctx.s.taskTag.run(id, tag);
  for (const u of owners) ctx.s.taskOwner.run(id, u);

  for (const f of o.fields) {
    if (!rng.chance(0.6)) continue;
    const v = fieldValue(ctx, f);
    ctx.s.value.run(id, f.id, v.value, v.text, v.num);
    ctx.counts.customValues++;
  }

  if (rng.chance(0.4)) {
    const items = rng.sample(checklistNames, rng.int(2, 5));
    items.forEach((name, position) => {
      const itemDone = done || (status !== 'To Do' && rng.chance(0.5));
      const assignee = rng.chance(0.4) ? rng.pick(o.people) : null;
      const itemCreated = ctx.between(created, modified);
      ctx.s.checklist.run(
        id,
        name,
        itemDone ? 1 : 0,
        assignee,
        position,
        itemCreated,
        ctx.between(itemCreated, modified),
      );
      ctx.counts.checklistItems++;
    });
  }

  const rec: TaskRec = {
    id,
    orgId: o.orgId,
    spaceId: o.spaceId,
    projectId: o.projectId,
    parentId: o.parent?.id ?? null,
    title: o.title,
    status,
    done,
    due,
    owners,
    people: [...o.people],
    createdBy,
    created,
    modified,
    description,
    tags: o.tags,
    fields: o.fields,
    projectStatus: o.projectStatus,
  };
  ctx.tasks.push(rec);
  return rec;
};

const fieldValue = (
  ctx: DemoContext,
  f: FieldDef,
): { value: string; text: string; num: number | null } => {
  const spec = f.spec;
  switch (spec.type) {
    case 'TEXT': {
      const v = ctx.rng.pick(spec.texts);
      return { value: JSON.stringify(v), text: v, num: null };
    }
    case 'NUMBER': {
      const v = ctx.rng.int(spec.min, spec.max);
      return { value: JSON.stringify(v), text: String(v), num: v };
    }
    case 'DATE': {
      const v = ctx.dayStart + ctx.rng.int(spec.fromDays, spec.toDays) * DAY;
      return { value: JSON.stringify(v), text: String(v), num: v };
    }
    case 'DROPDOWN': {
      const i = ctx.rng.int(0, f.optionIds.length - 1);
      return { value: JSON.stringify(f.optionIds[i]!), text: spec.options[i]![0], num: null };
    }
    case 'CHECKBOX': {
      const v = ctx.rng.chance(0.5);
      return { value: JSON.stringify(v), text: String(v), num: null };
    }
  }
};
