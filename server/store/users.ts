import type { UserRef } from '../../shared/api';
import type { Db } from '../db/open';

interface UserRow {
  user_id: number;
  email: string;
  first_name: string;
  last_name: string;
  color: string;
  created_time: number;
}

const toRef = (u: UserRow, roleName?: string, roleId?: number): UserRef => ({
  userId: u.user_id,
  firstName: u.first_name,
  lastName: u.last_name,
  email: u.email,
  profilePicColor: u.color,
  provider: 'local',
  newUser: false,
  isTourCompleted: true,
  status: 'ACTIVE',
  ...(roleName ? { role: { orgRoleId: roleId ?? 2, roleName } } : {}),
});

/**
 * User references for many ids at once (list answers need dozens). Unknown ids give a
 * minimal reference rather than a hole, since a user may have been removed since.
 */
export const userRefs = (db: Db, ids: Iterable<number>): Map<number, UserRef> => {
  const unique = [...new Set(ids)];
  const out = new Map<number, UserRef>();
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    const rows = db
      .prepare(
        `SELECT user_id, email, first_name, last_name, color, created_time FROM users WHERE user_id IN (${chunk.map(() => '?').join(',')})`,
      )
      .all(...chunk) as UserRow[];
    for (const r of rows) out.set(r.user_id, toRef(r));
  }
  for (const id of unique) if (!out.has(id)) out.set(id, { userId: id });
  return out;
};

/** Whether a user belongs to the org (owners, assignees and members must). */
export const isOrgMember = (db: Db, orgId: number, userId: number): boolean =>
  db.prepare('SELECT 1 FROM org_members WHERE org_id = ? AND user_id = ?').get(orgId, userId) !==
  undefined;

/** The user's reference with its org role, for sign-in answers. */
export const userWithRole = (db: Db, userId: number, orgId?: number): UserRef => {
  const u = db
    .prepare(
      'SELECT user_id, email, first_name, last_name, color, created_time FROM users WHERE user_id = ?',
    )
    .get(userId) as UserRow | undefined;
  if (!u) return { userId };
  if (orgId === undefined) return toRef(u);
  const role = db
    .prepare('SELECT role_id, role_name FROM org_members WHERE org_id = ? AND user_id = ?')
    .get(orgId, userId) as { role_id: number; role_name: string } | undefined;
  return toRef(u, role?.role_name, role?.role_id);
};
