import type { Space, SpaceCreateRequest, SpaceUpdateRequest, UserRef } from '../../shared/api';
import type { Db } from '../db/open';
import { notFound } from '../http/errors';
import type { Ctx } from '../http/route';
import { customFieldDto, loadFieldCatalog } from './custom-fields';
import { softDeleteProjects } from './projects';
import { IN_IDS, idsParam, NEXT_MODIFIED, stmt } from './statements';
import { softDeleteTasks } from './tasks';
import { iso } from './time';
import { userRefs } from './users';

/**
 * Spaces. Every member of the org sees every space of the org (visibility is org-wide); the
 * space's member list records who joined it, starting with its creator as Admin.
 */
interface SpaceRow {
  space_id: number;
  org_id: number;
  space_name: string;
  description: string;
  color: string;
  space_type: string;
  archived: number;
  created_by: number;
  modified_by: number;
  created_time: number;
  modified_time: number;
  deleted: number;
  deleted_time: number | null;
  deleted_by: number | null;
}
const SPACE_COLUMNS =
  'space_id, org_id, space_name, description, color, space_type, archived, created_by, modified_by, created_time, modified_time, deleted, deleted_time, deleted_by';

interface MemberRow {
  space_member_id: number;
  space_id: number;
  user_id: number;
  invited_by: number | null;
  role_id: number;
  role_name: string;
  joined: number;
  hidden: number;
}

const spaceDtos = (db: Db, rows: readonly SpaceRow[]): Space[] => {
  const first = rows[0];
  if (!first) return [];
  const ids = rows.map((r) => r.space_id);
  const members = stmt(
    db,
    `SELECT space_member_id, space_id, user_id, invited_by, role_id, role_name, joined, hidden
     FROM space_members WHERE space_id IN ${IN_IDS} ORDER BY space_member_id`,
  ).all(idsParam(ids)) as MemberRow[];
  const catalog = loadFieldCatalog(db, first.org_id, ids, []);
  const userIds = [...catalog.userIds()];
  for (const r of rows) {
    userIds.push(r.created_by, r.modified_by);
    if (r.deleted_by !== null) userIds.push(r.deleted_by);
  }
  for (const m of members) {
    userIds.push(m.user_id);
    if (m.invited_by !== null) userIds.push(m.invited_by);
  }
  const users = userRefs(db, userIds);
  const ref = (id: number): UserRef => users.get(id) ?? { userId: id };
  return rows.map((r) => ({
    tenantId: r.org_id,
    spaceId: r.space_id,
    spaceName: r.space_name,
    description: r.description,
    color: r.color,
    spaceType: r.space_type,
    createdBy: ref(r.created_by),
    modifiedBy: ref(r.modified_by),
    deletedBy: r.deleted_by === null ? null : ref(r.deleted_by),
    createdTime: iso(r.created_time),
    modifiedTime: iso(r.modified_time),
    deletedTime: iso(r.deleted_time),
    deleted: r.deleted === 1,
    archived: r.archived === 1,
    projectAdminMatch: false,
    spaceMembers: members
      .filter((m) => m.space_id === r.space_id)
      .map((m) => ({
        spaceMemberId: m.space_member_id,
        spaceId: m.space_id,
        user: ref(m.user_id),
        invitedBy: m.invited_by === null ? null : ref(m.invited_by),
        spaceRole: { spaceRoleId: m.role_id, spaceRoleName: m.role_name },
        joined: m.joined === 1,
        hidden: m.hidden === 1,
      })),
    // Space-level definitions; a space has no task, so no values.
    customFields: catalog
      .forSpace(r.space_id)
      .map((def) => customFieldDto(def, catalog, users, [])),
  }));
};

const spaceRow = (db: Db, orgId: number, spaceId: number): SpaceRow => {
  const row = stmt(
    db,
    `SELECT ${SPACE_COLUMNS} FROM spaces WHERE space_id = ? AND org_id = ? AND deleted = 0`,
  ).get(spaceId, orgId) as SpaceRow | undefined;
  if (!row) throw notFound(`space ${spaceId}`);
  return row;
};

export const listSpaces = (db: Db, orgId: number): Space[] =>
  spaceDtos(
    db,
    stmt(
      db,
      `SELECT ${SPACE_COLUMNS} FROM spaces WHERE org_id = ? AND deleted = 0 ORDER BY space_id`,
    ).all(orgId) as SpaceRow[],
  );

export const getSpace = (db: Db, orgId: number, spaceId: number): Space => {
  const [dto] = spaceDtos(db, [spaceRow(db, orgId, spaceId)]);
  return dto!;
};

export const createSpace = (db: Db, ctx: Ctx, body: SpaceCreateRequest): number => {
  const info = stmt(
    db,
    `INSERT INTO spaces (org_id, space_name, description, color, space_type, created_by, modified_by, created_time, modified_time)
     VALUES (?, ?, ?, COALESCE(?, '#0ea5e9'), COALESCE(?, 'PUBLIC'), ?, ?, ?, ?)`,
  ).run(
    ctx.orgId,
    body.spaceName,
    body.description ?? '',
    body.color ?? null,
    body.spaceType ?? null,
    ctx.userId,
    ctx.userId,
    ctx.now,
    ctx.now,
  );
  const spaceId = Number(info.lastInsertRowid);
  stmt(
    db,
    `INSERT INTO space_members (space_id, user_id, invited_by, role_id, role_name) VALUES (?, ?, NULL, 1, 'Admin')`,
  ).run(spaceId, ctx.userId);
  return spaceId;
};

/** The full editable state (name, description, type): an omitted one returns to its default. */
export const updateSpace = (db: Db, ctx: Ctx, spaceId: number, body: SpaceUpdateRequest): void => {
  spaceRow(db, ctx.orgId, spaceId);
  stmt(
    db,
    `UPDATE spaces SET space_name = ?, description = ?, space_type = COALESCE(?, 'PUBLIC'), modified_by = ?,
       modified_time = ${NEXT_MODIFIED} WHERE space_id = ?`,
  ).run(
    body.spaceName,
    body.description ?? '',
    body.spaceType ?? null,
    ctx.userId,
    ctx.now,
    spaceId,
  );
};

/** Soft-deletes the space, its projects and their tasks (with everything hanging off them). */
export const deleteSpace = (db: Db, filesDir: string, ctx: Ctx, spaceId: number): void => {
  spaceRow(db, ctx.orgId, spaceId);
  const projects = (
    stmt(db, 'SELECT project_id FROM projects WHERE space_id = ? AND deleted = 0').all(spaceId) as {
      project_id: number;
    }[]
  ).map((p) => p.project_id);
  softDeleteProjects(db, filesDir, projects, ctx);
  // Tasks placed in the space outside any project, should any exist.
  const loose = (
    stmt(db, 'SELECT task_id FROM tasks WHERE space_id = ? AND deleted = 0').all(spaceId) as {
      task_id: number;
    }[]
  ).map((t) => t.task_id);
  softDeleteTasks(db, filesDir, loose, ctx);
  stmt(
    db,
    `UPDATE spaces SET deleted = 1, deleted_time = ?, deleted_by = ?, modified_by = ?, modified_time = ${NEXT_MODIFIED}
     WHERE space_id = ?`,
  ).run(ctx.now, ctx.userId, ctx.userId, ctx.now, spaceId);
};
