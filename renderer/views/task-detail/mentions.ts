import type { UserRef } from '../../../shared/api/common';

/**
 * Mentions in comment text: `@` followed by the person's email (`@bob@example.com`), as the
 * service writes and reads them (server/store/notify.ts; the spec shows no comment fields).
 * The email's own `@` belongs to it; a dot that ends the sentence does not.
 */
const MENTION = /(^|[^A-Za-z0-9._%+-])@([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)/g;

export type TextPart = { text: string } | { mention: UserRef; written: string };

/**
 * The text cut into plain runs and mentions of people the replica knows (matched by email,
 * in any case); a mention of someone unknown stays as written.
 */
export function mentionParts(text: string, people: readonly UserRef[]): TextPart[] {
  const byEmail = new Map(
    people.flatMap((u) => (u.email ? [[u.email.toLowerCase(), u] as const] : [])),
  );
  const parts: TextPart[] = [];
  let plain = '';
  let at = 0;
  for (const m of text.matchAll(MENTION)) {
    const lead = m[1] ?? '';
    const email = (m[2] ?? '').replace(/\.+$/, '');
    const start = (m.index ?? 0) + lead.length;
    const person = byEmail.get(email.toLowerCase());
    if (!person) continue;
    plain += text.slice(at, start);
    if (plain) parts.push({ text: plain });
    plain = '';
    parts.push({ mention: person, written: `@${email}` });
    at = start + 1 + email.length;
  }
  plain += text.slice(at);
  if (plain) parts.push({ text: plain });
  return parts;
}
