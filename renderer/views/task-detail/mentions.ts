import type { UserRef } from '../../../shared/api/common';
import { mentionsIn } from '../../../shared/mentions';

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
  for (const { email, at: start } of mentionsIn(text)) {
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
