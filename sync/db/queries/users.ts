import { type UserRef, userRef } from '../../../shared/api/common';
import { stmt } from '../kysely';
import type { Sqlite } from '../open';

/** Every user reference seen in server data, newest copy wins. */
export const upsertUsers = (db: Sqlite, refs: Iterable<UserRef | null | undefined>): void => {
  const seen = new Set<number>();
  const upsert = stmt(
    db,
    `INSERT INTO users (user_id, first_name, last_name, email, color, ref) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(user_id) DO UPDATE SET first_name = excluded.first_name, last_name = excluded.last_name,
       email = excluded.email, color = excluded.color, ref = excluded.ref
     WHERE users.ref <> excluded.ref`,
  );
  for (const ref of refs) {
    if (!ref || seen.has(ref.userId)) continue;
    seen.add(ref.userId);
    // A bare {userId} carries no news: do not overwrite a fuller copy with it.
    if (ref.firstName == null && ref.email == null) {
      stmt(db, 'INSERT OR IGNORE INTO users (user_id, ref) VALUES (?, ?)').run(
        ref.userId,
        JSON.stringify(ref),
      );
      continue;
    }
    upsert.run(
      ref.userId,
      ref.firstName ?? null,
      ref.lastName ?? null,
      ref.email ?? null,
      ref.profilePicColor ?? null,
      JSON.stringify(ref),
    );
  }
};

/** Users seen in server data, by name; a stored reference that no longer parses is skipped. */
export const usersByName = (db: Sqlite): UserRef[] => {
  const rows = stmt(
    db,
    'SELECT ref FROM users ORDER BY first_name IS NULL, first_name, last_name, user_id',
  ).all() as { ref: string }[];
  const users: UserRef[] = [];
  for (const r of rows) {
    const parsed = userRef.safeParse(JSON.parse(r.ref));
    if (parsed.success) users.push(parsed.data);
  }
  return users;
};
