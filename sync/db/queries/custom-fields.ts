import type { CustomField } from '../../../shared/api';
import { customValueColumns } from '../../../shared/filters';
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

/** Writes a task's values from the fieldValue arrays of its customFields (old ones replaced). */
export const writeTaskFieldValues = (
  db: Sqlite,
  taskId: number,
  fields: readonly CustomField[],
  existed = true,
): void => {
  if (existed) stmt(db, 'DELETE FROM custom_field_values WHERE task_id = ?').run(taskId);
  const insert = stmt(
    db,
    'INSERT OR REPLACE INTO custom_field_values (task_id, field_id, value, text, num) VALUES (?, ?, ?, ?, ?)',
  );
  for (const f of fields) {
    for (const v of f.fieldValue ?? []) {
      if (v.taskId !== taskId || v.value === null || v.value === undefined) continue;
      const cols = customValueColumns(f.fieldType, v.value, f.customFieldOption ?? []);
      insert.run(taskId, f.taskCustomFieldId, JSON.stringify(v.value), cols.text, cols.num);
    }
  }
};
