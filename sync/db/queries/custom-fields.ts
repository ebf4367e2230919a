import type { CustomField } from '../../../shared/api';
import { stmt } from '../kysely';
import type { Sqlite } from '../open';
import type { CustomFieldsTable } from '../types';
import { IN_JSON, idsJson } from './id-list';

/** Upserts definitions (without their values) met in a task, project or space. */
export const upsertFieldDefinitions = (db: Sqlite, fields: Iterable<CustomField>): void => {
  const upsert = stmt(
    db,
    `INSERT INTO custom_fields (field_id, space_id, project_id, name, field_type, sort_order, definition)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(field_id) DO UPDATE SET space_id = excluded.space_id, project_id = excluded.project_id,
       name = excluded.name, field_type = excluded.field_type, sort_order = excluded.sort_order,
       definition = excluded.definition
     WHERE custom_fields.definition <> excluded.definition`,
  );
  const seen = new Set<number>();
  for (const f of fields) {
    if (seen.has(f.taskCustomFieldId)) continue;
    seen.add(f.taskCustomFieldId);
    const { fieldValue: _values, ...definition } = f;
    upsert.run(
      f.taskCustomFieldId,
      f.spaceId ?? null,
      f.projectId ?? null,
      f.fieldName,
      f.fieldType,
      f.order ?? null,
      JSON.stringify(definition),
    );
  }
};

export interface FieldDefinition {
  fieldId: number;
  spaceId: number | null;
  projectId: number | null;
  /** The definition as the server sent it, without fieldValue. */
  definition: Record<string, unknown>;
}

/**
 * Definitions of the given spaces (space-level: project_id NULL) and projects, in the
 * server's order: space-level first, then by `order`, then by id.
 */
export const loadFieldDefinitions = (
  db: Sqlite,
  spaceIds: Iterable<number | null>,
  projectIds: Iterable<number | null>,
): FieldDefinition[] => {
  const rows = stmt(
    db,
    `SELECT field_id, space_id, project_id, definition FROM custom_fields
     WHERE (project_id IS NULL AND space_id IN ${IN_JSON}) OR project_id IN ${IN_JSON}
     ORDER BY project_id IS NOT NULL, sort_order, field_id`,
  ).all(idsJson(spaceIds), idsJson(projectIds)) as Pick<
    CustomFieldsTable,
    'field_id' | 'space_id' | 'project_id' | 'definition'
  >[];
  return rows.map((r) => ({
    fieldId: r.field_id,
    spaceId: r.space_id,
    projectId: r.project_id,
    definition: JSON.parse(r.definition) as Record<string, unknown>,
  }));
};

/** The definitions that apply to an item in a space / project (the server's `forScope`). */
export const fieldsForScope = (
  defs: readonly FieldDefinition[],
  spaceId: number | null,
  projectId: number | null,
): FieldDefinition[] =>
  defs.filter((d) =>
    d.projectId === null ? spaceId !== null && d.spaceId === spaceId : d.projectId === projectId,
  );

export const fieldDto = (
  d: FieldDefinition,
  fieldValue: { taskId: number; value: unknown }[],
): CustomField => ({ ...d.definition, fieldValue }) as CustomField;

/** The definitions a project's tasks carry (its space's, then its own), or every one. */
export const fieldDefinitionsFor = (db: Sqlite, projectId: number | undefined): CustomField[] => {
  if (projectId === undefined) {
    const ids = (sql: string) => (stmt(db, sql).all() as { id: number }[]).map((r) => r.id);
    const defs = loadFieldDefinitions(
      db,
      ids('SELECT space_id AS id FROM spaces'),
      ids('SELECT project_id AS id FROM projects'),
    );
    return defs.map((d) => fieldDto(d, []));
  }
  const place = stmt(db, 'SELECT space_id FROM projects WHERE project_id = ?').get(projectId) as
    | { space_id: number }
    | undefined;
  const spaceId = place?.space_id ?? null;
  const defs = loadFieldDefinitions(db, [spaceId], [projectId]);
  return fieldsForScope(defs, spaceId, projectId).map((d) => fieldDto(d, []));
};

/**
 * The ids of the fields a task made at `place` can hold: its project's and that project's
 * space's (a subtask: its parent's project's); every known one for a task in no project.
 */
export const fieldIdsAt = (
  db: Sqlite,
  place: { projectId?: number; parentTaskId?: number },
): Set<number> => {
  const parent =
    place.parentTaskId === undefined
      ? undefined
      : (stmt(db, 'SELECT project_id FROM tasks WHERE task_id = ?').get(place.parentTaskId) as
          | { project_id: number | null }
          | undefined);
  const projectId = place.projectId ?? parent?.project_id ?? undefined;
  return new Set(fieldDefinitionsFor(db, projectId).map((f) => f.taskCustomFieldId));
};
