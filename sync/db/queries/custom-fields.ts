import type { CustomField } from '../../../shared/api';
import { stmt } from '../kysely';
import type { Sqlite } from '../open';

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
