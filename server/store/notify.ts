import { mentionsIn } from '../../shared/mentions';
import type { Db } from '../db/open';
import { stmt } from './statements';

/**
 * Notifications a task change causes (the notification routes, another module, read them):
 * - ASSIGNED to each owner the change ADDED (re-saving a task with the same owners is silent);
 * - MENTION to each org member NEWLY @mentioned in the description. A mention is `@` followed
 *   by the member's email (`@bob@example.com`), matched case-insensitively; a mention already
 *   present before the change is not news.
 * The acting user is never notified of their own doing.
 */
export interface TaskChange {
  orgId: number;
  actorId: number;
  taskId: number;
  projectId: number | null;
  title: string;
  previousOwners: readonly number[];
  owners: readonly number[];
  previousDescription: string;
  description: string;
  now: number;
}

/** The emails mentioned in the text, in lower case. */
const mentionedEmails = (text: string): Set<string> =>
  new Set(mentionsIn(text).map((m) => m.email.toLowerCase()));

const displayName = (db: Db, userId: number): string => {
  const u = stmt(db, 'SELECT first_name, last_name, email FROM users WHERE user_id = ?').get(
    userId,
  ) as { first_name: string; last_name: string; email: string } | undefined;
  if (!u) return 'Someone';
  const name = `${u.first_name} ${u.last_name}`.trim();
  return name || u.email;
};

const excerpt = (text: string, max = 200): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export const notifyTaskChange = (db: Db, c: TaskChange): void => {
  const before = new Set(c.previousOwners);
  const assigned = [...new Set(c.owners)].filter((u) => !before.has(u) && u !== c.actorId);

  const previously = mentionedEmails(c.previousDescription);
  const fresh = [...mentionedEmails(c.description)].filter((e) => !previously.has(e));
  const mentioned: number[] = [];
  for (const email of fresh) {
    const row = stmt(
      db,
      'SELECT u.user_id FROM users u JOIN org_members m ON m.user_id = u.user_id AND m.org_id = ? WHERE u.email = ?',
    ).get(c.orgId, email) as { user_id: number } | undefined;
    if (row && row.user_id !== c.actorId && !mentioned.includes(row.user_id))
      mentioned.push(row.user_id);
  }
  if (assigned.length === 0 && mentioned.length === 0) return;

  const actor = displayName(db, c.actorId);
  const insert = stmt(
    db,
    'INSERT INTO notifications (org_id, user_id, type, title, body, task_id, project_id, read, created_time) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)',
  );
  for (const userId of assigned) {
    insert.run(
      c.orgId,
      userId,
      'ASSIGNED',
      `${actor} assigned you to "${c.title}"`,
      `You are now an owner of the task "${c.title}".`,
      c.taskId,
      c.projectId,
      c.now,
    );
  }
  for (const userId of mentioned) {
    insert.run(
      c.orgId,
      userId,
      'MENTION',
      `${actor} mentioned you in "${c.title}"`,
      excerpt(c.description),
      c.taskId,
      c.projectId,
      c.now,
    );
  }
};
