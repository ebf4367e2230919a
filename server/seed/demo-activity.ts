import { DAY, type DemoContext, MINUTE, type TaskRec } from './demo-context';
import { commentTexts, timerNotes } from './demo-texts';

/** Activity on the tasks once they exist: tracked time and comments. */

/** A comment as the notifications step needs it. */
export interface DemoComment {
  task: TaskRec;
  by: number;
  content: string;
  at: number;
}

/** Stopped timers only: the demo user starts with no running or paused timer. */
export const addTimers = (ctx: DemoContext) => {
  const demo = ctx.uid('demo');
  const mine = (orgId: number) =>
    ctx.tasks.filter(
      (t) => t.orgId === orgId && t.owners.includes(demo) && t.created < ctx.now - 15 * DAY,
    );
  const plan: [number, number][] = [
    [1, 12],
    [2, 3],
  ];
  for (const [orgId, n] of plan) {
    const candidates = mine(orgId);
    const chosen = ctx.rng.sample(candidates, n);
    chosen.forEach((t, i) => {
      // Spread over the past two weeks, one or two sessions a working day.
      const daysAgo = 1 + Math.floor((i * 13) / Math.max(1, n - 1));
      const start = ctx.dayAt(-daysAgo, ctx.rng.int(8, 15)) + ctx.rng.int(0, 3) * 15 * MINUTE;
      const duration = ctx.rng.int(1, 12) * 15 * MINUTE + ctx.rng.int(0, 59) * 1000;
      const end = Math.min(start + duration, ctx.now - MINUTE);
      const billable = t.projectId !== null ? ctx.rng.chance(0.75) : ctx.rng.chance(0.15);
      const notes = ctx.rng.chance(0.6) ? ctx.rng.pick(timerNotes) : null;
      ctx.s.timer.run(
        orgId,
        t.id,
        t.projectId,
        demo,
        start,
        end,
        end - start,
        billable ? 'BILLABLE' : 'NON_BILLABLE',
        notes,
        start,
        end,
      );
      ctx.counts.timers++;
    });
  }
  // Some colleagues' time on project tasks, so that project timesheets have more than one name.
  const colleagues = ctx.tasks.filter(
    (t) => t.orgId === 1 && t.projectId !== null && t.created < ctx.now - 15 * DAY,
  );
  for (const t of ctx.rng.sample(colleagues, 10)) {
    const user = t.owners.find((u) => u !== demo) ?? t.people.find((u) => u !== demo);
    if (user === undefined) continue;
    const start = ctx.dayAt(-ctx.rng.int(1, 14), ctx.rng.int(8, 16));
    const end = Math.min(start + ctx.rng.int(2, 10) * 15 * MINUTE, ctx.now - MINUTE);
    ctx.s.timer.run(
      1,
      t.id,
      t.projectId,
      user,
      start,
      end,
      end - start,
      'BILLABLE',
      null,
      start,
      end,
    );
    ctx.counts.timers++;
  }
};

/** Comments on ~30 tasks; returns the ones others wrote on tasks the demo user owns. */
export const addComments = (ctx: DemoContext): DemoComment[] => {
  const demo = ctx.uid('demo');
  const forDemo: DemoComment[] = [];
  const plan: [number, number][] = [
    [1, 27],
    [2, 4],
  ];
  for (const [orgId, n] of plan) {
    const candidates = ctx.tasks.filter((t) => t.orgId === orgId && t.people.length > 1);
    for (const t of ctx.rng.sample(candidates, n)) {
      let at = t.created;
      const count = ctx.rng.int(1, 3);
      for (let i = 0; i < count; i++) {
        at = ctx.between(at + MINUTE, ctx.now);
        const by = ctx.rng.pick(t.people);
        const mentionable = t.people.filter((u) => u !== by);
        const content =
          mentionable.length > 0 && ctx.rng.chance(0.25)
            ? `@${ctx.emailOf.get(ctx.rng.pick(mentionable))} ${ctx.rng.pick(commentTexts)}`
            : ctx.rng.pick(commentTexts);
        ctx.s.comment.run(orgId, t.id, content, by, at, at);
        ctx.counts.comments++;
        if (by !== demo && t.owners.includes(demo)) forDemo.push({ task: t, by, content, at });
      }
    }
  }
  return forDemo;
};
