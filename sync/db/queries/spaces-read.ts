/**
 * Spaces read back from the replica as the server's space DTO, with members and the
 * space-level custom field definitions (empty fieldValue: a space has no task values).
 *
 * Only what 0001 and projects-write.ts keep can come back: a member's role is its name
 * (`spaceRole: {spaceRoleName}`), and fields the writer neither stores nor leaves in `extra`
 * (see the round-trip test's list) are absent rather than invented. Live rows only, so
 * `deleted: false` and no deletion stamps.
 */
import type { Space, SpaceMember } from '../../../shared/api';
import { stmt } from '../kysely';
import type { Sqlite } from '../open';
import type { SpaceMembersTable, SpacesTable } from '../types';
import { parseExtra, toIso } from './convert';
import { fieldDto, fieldsForScope, loadFieldDefinitions } from './custom-fields';
import { IN_JSON, idsJson } from './id-list';
import { loadUserRefs, refOf } from './tasks-read';

type SpaceRow = SpacesTable;

const SPACE_COLUMNS =
  'space_id, space_name, description, color, space_type, archived, created_by, created_time, modified_time, extra';

/**
 * Spaces with these ids in the order of `ids` (unknown ids skipped), or every space of the
 * replica ordered by id (the server's GET /v1/spaces order) when `ids` is omitted.
 */
export const readSpaces = (db: Sqlite, ids?: readonly number[]): Space[] => {
  let rows: SpaceRow[];
  if (ids === undefined) {
    rows = stmt(db, `SELECT ${SPACE_COLUMNS} FROM spaces ORDER BY space_id`).all() as SpaceRow[];
  } else {
    const found = stmt(db, `SELECT ${SPACE_COLUMNS} FROM spaces WHERE space_id IN ${IN_JSON}`).all(
      idsJson(ids),
    ) as SpaceRow[];
    const byId = new Map(found.map((r) => [r.space_id, r]));
    rows = [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
  }
  if (rows.length === 0) return [];
  const spaceIds = idsJson(rows.map((r) => r.space_id));
  const members = stmt(
    db,
    `SELECT space_member_id, space_id, user_id, role_name, joined, hidden, extra FROM space_members
     WHERE space_id IN ${IN_JSON} ORDER BY space_member_id`,
  ).all(spaceIds) as SpaceMembersTable[];
  const defs = loadFieldDefinitions(
    db,
    rows.map((r) => r.space_id),
    [],
  );
  const users = loadUserRefs(db, [
    ...rows.map((r) => r.created_by),
    ...members.map((m) => m.user_id),
  ]);

  return rows.map(
    (r): Space => ({
      ...parseExtra(r.extra),
      spaceId: r.space_id,
      spaceName: r.space_name,
      description: r.description,
      color: r.color,
      spaceType: r.space_type,
      createdBy: refOf(users, r.created_by),
      createdTime: toIso(r.created_time),
      modifiedTime: toIso(r.modified_time),
      deleted: false,
      deletedTime: null,
      deletedBy: null,
      archived: r.archived === 1,
      spaceMembers: members
        .filter((m) => m.space_id === r.space_id)
        .map(
          (m): SpaceMember => ({
            spaceRole: m.role_name === null ? null : { spaceRoleName: m.role_name },
            ...parseExtra(m.extra),
            spaceMemberId: m.space_member_id,
            spaceId: m.space_id,
            user: refOf(users, m.user_id),
            joined: m.joined === 1,
            hidden: m.hidden === 1,
          }),
        ),
      customFields: fieldsForScope(defs, r.space_id, null).map((d) => fieldDto(d, [])),
    }),
  );
};

export const readSpace = (db: Sqlite, spaceId: number): Space | null =>
  readSpaces(db, [spaceId])[0] ?? null;

/**
 * Names and ids only, by id: the sidebar's and the palette's tree. On the 100k bench org the
 * full tree is ~9 MB of JSON and 80-120 ms to build; this is ~170 KB and ~4 ms.
 */
export const navigationRows = (db: Sqlite) => ({
  spaces: stmt(
    db,
    'SELECT space_id AS spaceId, space_name AS spaceName FROM spaces ORDER BY space_id',
  ).all() as {
    spaceId: number;
    spaceName: string;
  }[],
  projects: stmt(
    db,
    'SELECT project_id AS projectId, space_id AS spaceId, project_name AS projectName FROM projects ORDER BY project_id',
  ).all() as { projectId: number; spaceId: number; projectName: string }[],
});
