/**
 * Mentions in a task's description or a comment: `@` followed by the person's email
 * (`@bob@example.com`), matched case-insensitively by whoever reads them (the service notifies
 * the people newly mentioned, the UI shows their names). The email's own `@` belongs to it; a
 * dot that ends the sentence does not.
 */
const MENTION = /(^|[^A-Za-z0-9._%+-])@([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)/g;

export interface Mention {
  /** The email as written (trailing dots cut). */
  email: string;
  /** Where the mention's `@` stands in the text. */
  at: number;
}

/** Every mention in the text, in order. */
export const mentionsIn = (text: string): Mention[] =>
  [...text.matchAll(MENTION)].map((m) => ({
    email: (m[2] ?? '').replace(/\.+$/, ''),
    at: m.index + (m[1] ?? '').length,
  }));
