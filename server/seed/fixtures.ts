import { hashPasswordForSeed } from '../auth/passwords';
import type { Db } from '../db/open';
import {
  defaultProjectHealth,
  defaultProjectPriorities,
  defaultProjectStatuses,
} from '../store/vocab';

/** Creates an org with its default project vocabularies. */
export const createOrg = (db: Db, name: string, now: number, orgId?: number): number => {
  const info = db.prepare('INSERT INTO orgs (org_id, name) VALUES (?, ?)').run(orgId ?? null, name);
  const id = Number(info.lastInsertRowid);
  const status = db.prepare(
    'INSERT INTO project_statuses (org_id, name, color, category, is_default, created_time) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const s of defaultProjectStatuses)
    status.run(id, s.name, s.color, s.category, s.isDefault ? 1 : 0, now);
  const priority = db.prepare(
    'INSERT INTO project_priorities (org_id, label, color, is_default, is_primary) VALUES (?, ?, ?, ?, ?)',
  );
  for (const p of defaultProjectPriorities)
    priority.run(id, p.label, p.color, p.isDefault ? 1 : 0, p.isDefault ? 1 : 0);
  const health = db.prepare(
    'INSERT INTO project_health (org_id, label, color, is_default, is_primary) VALUES (?, ?, ?, ?, ?)',
  );
  for (const h of defaultProjectHealth)
    health.run(id, h.label, h.color, h.isDefault ? 1 : 0, h.isDefault ? 1 : 0);
  return id;
};

export interface NewUser {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  color?: string;
}

/** `passwordHash` lets bulk seeding reuse one scrypt hash for many users. */
export const createUser = (db: Db, u: NewUser, now: number, passwordHash?: string): number =>
  Number(
    db
      .prepare(
        'INSERT INTO users (email, first_name, last_name, password_hash, color, created_time) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(
        u.email,
        u.firstName,
        u.lastName,
        passwordHash ?? hashPasswordForSeed(u.password),
        u.color ?? '#6366f1',
        now,
      ).lastInsertRowid,
  );

export const addOrgMember = (
  db: Db,
  orgId: number,
  userId: number,
  roleName: 'Owner' | 'Admin' | 'Member' = 'Member',
) => {
  const roleId = roleName === 'Owner' ? 1 : roleName === 'Admin' ? 2 : 3;
  db.prepare(
    'INSERT INTO org_members (org_id, user_id, role_id, role_name) VALUES (?, ?, ?, ?)',
  ).run(orgId, userId, roleId, roleName);
};
