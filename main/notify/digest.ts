/**
 * Which newly arrived notifications deserve a native notification, and its words: mentions and
 * assignments only (comments, due dates and status changes stay in the app's inbox), unread
 * ones, and one native notification per pull however many arrived.
 */

export interface NotificationItem {
  notificationId: number;
  type: string;
  title: string;
  body?: string | null;
  taskId?: number | null;
  read: boolean;
}

export interface NativeNotice {
  title: string;
  body: string;
  /** The task a click opens: the newest one that names a task (null: just show the app). */
  taskId: number | null;
  /** What a click marks read. */
  notificationIds: number[];
}

const NOTIFY_TYPES = new Set(['MENTION', 'ASSIGNED']);
/** Lines of a batched notice's body before "and N more". */
const BODY_LINES = 3;
const MAX_LINE = 120;

const line = (text: string) => (text.length > MAX_LINE ? `${text.slice(0, MAX_LINE - 1)}…` : text);

const countWords = (mentions: number, assignments: number): string => {
  const parts: string[] = [];
  if (mentions > 0) parts.push(`${mentions} new mention${mentions === 1 ? '' : 's'}`);
  if (assignments > 0) {
    parts.push(`${assignments} new assignment${assignments === 1 ? '' : 's'}`);
  }
  return parts.join(' and ');
};

/**
 * The native notice for the notifications of one pull, or null when none qualifies. `items` are
 * the arrived notifications as the replica holds them, in any order; the newest (highest id)
 * comes first in the text.
 */
export const digestNotifications = (items: readonly NotificationItem[]): NativeNotice | null => {
  const chosen = items
    .filter((n) => !n.read && NOTIFY_TYPES.has(n.type.toUpperCase()))
    .sort((a, b) => b.notificationId - a.notificationId);
  const newest = chosen[0];
  if (!newest) return null;
  const ids = chosen.map((n) => n.notificationId);
  if (chosen.length === 1) {
    return {
      title: line(newest.title),
      body: line(newest.body ?? ''),
      taskId: newest.taskId ?? null,
      notificationIds: ids,
    };
  }
  const mentions = chosen.filter((n) => n.type.toUpperCase() === 'MENTION').length;
  const lines = chosen
    .slice(0, BODY_LINES)
    .map((n) => line(n.body ? `${n.title}: ${n.body}` : n.title));
  const more = chosen.length - lines.length;
  if (more > 0) lines.push(`and ${more} more`);
  return {
    title: countWords(mentions, chosen.length - mentions),
    body: lines.join('\n'),
    taskId: chosen.find((n) => n.taskId != null)?.taskId ?? null,
    notificationIds: ids,
  };
};
