import type { DemoComment } from './demo-activity';
import { DAY, type DemoContext, MINUTE, type TaskRec } from './demo-context';

/** The demo user's inbox: a mix of every notification type, the most recent eight unread. */
export const addNotifications = (ctx: DemoContext, comments: DemoComment[]) => {
  const demo = ctx.uid('demo');
  const demoEmail = ctx.emailOf.get(demo)!;
  interface Note {
    orgId: number;
    type: 'ASSIGNED' | 'MENTION' | 'DUE' | 'COMMENT' | 'STATUS';
    title: string;
    body: string;
    task: TaskRec;
    at: number;
  }
  const notes: Note[] = [];
  const recent = (t: TaskRec) => Math.max(t.created, ctx.now - 14 * DAY);
  const name = (u: number) => ctx.nameOf.get(u) ?? 'Someone';
  const owned = ctx.tasks.filter((t) => t.owners.includes(demo) && t.projectId !== null);

  for (const t of ctx.rng.sample(
    owned.filter((t) => t.createdBy !== demo),
    6,
  )) {
    notes.push({
      orgId: t.orgId,
      type: 'ASSIGNED',
      title: `${name(t.createdBy)} assigned you a task`,
      body: t.title,
      task: t,
      at: ctx.between(recent(t)),
    });
  }
  for (const t of ctx.rng.sample(
    ctx.tasks.filter((x) => x.description.includes(`@${demoEmail}`)),
    4,
  )) {
    notes.push({
      orgId: t.orgId,
      type: 'MENTION',
      title: `${name(t.createdBy)} mentioned you`,
      body: `in "${t.title}"`,
      task: t,
      at: ctx.between(recent(t)),
    });
  }
  for (const c of ctx.rng.sample(comments, 4)) {
    notes.push({
      orgId: c.task.orgId,
      type: 'COMMENT',
      title: `${name(c.by)} commented on "${c.task.title}"`,
      body: c.content,
      task: c.task,
      at: c.at,
    });
  }
  const dueSoon = owned.filter((t) => !t.done && t.due !== null && t.due < ctx.dayStart + 3 * DAY);
  for (const t of ctx.rng.sample(dueSoon, 4)) {
    const due = t.due!;
    const title =
      due < ctx.now
        ? `Overdue: ${t.title}`
        : due < ctx.dayStart + DAY
          ? `Due today: ${t.title}`
          : `Due soon: ${t.title}`;
    notes.push({
      orgId: t.orgId,
      type: 'DUE',
      title,
      body: `Due ${new Date(due).toISOString().slice(0, 10)}`,
      task: t,
      at: Math.max(t.created, Math.min(ctx.now - 10 * MINUTE, due - DAY)),
    });
  }
  const moved = owned.filter((t) => t.status === 'In Review' || t.status === 'Done');
  for (const t of ctx.rng.sample(moved, 4)) {
    const by = ctx.rng.pick(t.people.filter((u) => u !== demo).concat(t.createdBy));
    notes.push({
      orgId: t.orgId,
      type: 'STATUS',
      title: `${name(by)} moved a task to ${t.status}`,
      body: t.title,
      task: t,
      at: Math.min(t.modified, ctx.now),
    });
  }
  notes.sort((a, b) => a.at - b.at || a.task.id - b.task.id);
  notes.forEach((n, i) => {
    const unread = i >= notes.length - 8;
    ctx.s.notification.run(
      n.orgId,
      demo,
      n.type,
      n.title,
      n.body,
      n.task.id,
      n.task.projectId,
      unread ? 0 : 1,
      n.at,
    );
    ctx.counts.notifications++;
  });
};
