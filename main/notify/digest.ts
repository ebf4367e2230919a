/**
 * Which newly arrived notifications deserve a native notification, and its words: unread ones
 * of the kinds the user chose (mentions and assignments unless told otherwise; the rest stay in
 * the app's inbox), and one native notification per pull however many arrived.
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

const DEFAULT_KINDS = ['MENTION', 'ASSIGNED'] as const;
/** Lines of a batched notice's body before "and N more". */
const BODY_LINES = 3;
const MAX_LINE = 120;

const line = (text: string) => (text.length > MAX_LINE ? `${text.slice(0, MAX_LINE - 1)}…` : text);

/** Each kind's words, one and many, in the order a batched title counts them. */
const KIND_WORDS: Record<string, readonly [string, string]> = {
  MENTION: ['new mention', 'new mentions'],
  ASSIGNED: ['new assignment', 'new assignments'],
  COMMENT: ['new comment', 'new comments'],
  DUE: ['due date reminder', 'due date reminders'],
  STATUS: ['status change', 'status changes'],
};
const OTHER_WORDS = ['other notification', 'other notifications'] as const;

/** "2 new mentions and 3 new assignments"; three kinds or more: "a, b and c". */
const countWords = (items: readonly NotificationItem[]): string => {
  const counts = new Map<string, number>();
  for (const n of items) {
    const kind = n.type.toUpperCase();
    const key = kind in KIND_WORDS ? kind : 'OTHER';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const parts = [...Object.keys(KIND_WORDS), 'OTHER'].flatMap((key) => {
    const count = counts.get(key);
    if (!count) return [];
    const [one, many] = KIND_WORDS[key] ?? OTHER_WORDS;
    return [`${count} ${count === 1 ? one : many}`];
  });
  const last = parts.pop() ?? '';
  return parts.length === 0 ? last : `${parts.join(', ')} and ${last}`;
};

/**
 * The native notice for the notifications of one pull, or null when none qualifies. `items` are
 * the arrived notifications as the replica holds them, in any order; the newest (highest id)
 * comes first in the text.
 */
export const digestNotifications = (
  items: readonly NotificationItem[],
  kinds: readonly string[] = DEFAULT_KINDS,
): NativeNotice | null => {
  const wanted = new Set(kinds);
  const chosen = items
    .filter((n) => !n.read && wanted.has(n.type.toUpperCase()))
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
  const lines = chosen
    .slice(0, BODY_LINES)
    .map((n) => line(n.body ? `${n.title}: ${n.body}` : n.title));
  const more = chosen.length - lines.length;
  if (more > 0) lines.push(`and ${more} more`);
  return {
    title: countWords(chosen),
    body: lines.join('\n'),
    taskId: chosen.find((n) => n.taskId != null)?.taskId ?? null,
    notificationIds: ids,
  };
};
