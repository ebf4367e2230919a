import type { CustomField, CustomFieldValueInput, FieldError, UserRef } from '../../shared/api';
import type { Db } from '../db/open';
import { IN_IDS, idsParam, stmt } from './statements';
import { iso } from './time';

/**
 * Custom field definitions (no API creates them: seeds and tests insert rows) and task values.
 * A definition lives on a space (project_id NULL) or on a project; it applies to the tasks
 * of that space / project. Personal tasks (no space, no project) have none.
 */
export interface FieldDefRow {
  field_id: number;
  org_id: number;
  space_id: number | null;
  project_id: number | null;
  name: string;
  description: string;
  field_type: string;
  icon: string;
  sort_order: number;
  created_by: number;
  created_time: number;
  modified_time: number;
}
interface OptionRow {
  option_id: number;
  field_id: number;
  name: string;
  color: string;
}

const DEF_COLUMNS =
  'field_id, org_id, space_id, project_id, name, description, field_type, icon, sort_order, created_by, created_time, modified_time';

export interface Scope {
  spaceId: number | null;
  projectId: number | null;
}

/** The definitions of many scopes with their options, loaded in two queries. */
export class FieldCatalog {
  private readonly scopes = new Map<string, FieldDefRow[]>();
  constructor(
    readonly defs: readonly FieldDefRow[],
    private readonly options: ReadonlyMap<number, OptionRow[]>,
  ) {}

  /** Definitions that apply to a task (or project) in `scope`: its space's, then its project's. */
  forScope(scope: Scope): FieldDefRow[] {
    const key = `${scope.spaceId}:${scope.projectId}`;
    let defs = this.scopes.get(key);
    if (!defs) {
      defs = this.defs.filter((d) =>
        d.project_id === null
          ? scope.spaceId !== null && d.space_id === scope.spaceId
          : d.project_id === scope.projectId,
      );
      this.scopes.set(key, defs);
    }
    return defs;
  }

  /** Space-level definitions only (the space DTO). */
  forSpace(spaceId: number): FieldDefRow[] {
    return this.defs.filter((d) => d.project_id === null && d.space_id === spaceId);
  }

  optionsOf(fieldId: number): OptionRow[] {
    return this.options.get(fieldId) ?? [];
  }

  userIds(): number[] {
    return this.defs.map((d) => d.created_by);
  }
}

export const loadFieldCatalog = (
  db: Db,
  orgId: number,
  spaceIds: Iterable<number | null>,
  projectIds: Iterable<number | null>,
): FieldCatalog => {
  const spaces = [...new Set(spaceIds)].filter((v): v is number => v !== null);
  const projects = [...new Set(projectIds)].filter((v): v is number => v !== null);
  if (spaces.length === 0 && projects.length === 0) return new FieldCatalog([], new Map());
  // Ordered by space-level first, then `order`: a stable, meaningful order for the UI.
  const defs = stmt(
    db,
    `SELECT ${DEF_COLUMNS} FROM custom_fields WHERE org_id = ?
       AND ((project_id IS NULL AND space_id IN ${IN_IDS}) OR project_id IN ${IN_IDS})
     ORDER BY project_id IS NOT NULL, sort_order, field_id`,
  ).all(orgId, idsParam(spaces), idsParam(projects)) as FieldDefRow[];
  const options = new Map<number, OptionRow[]>();
  if (defs.length > 0) {
    const rows = stmt(
      db,
      `SELECT option_id, field_id, name, color FROM custom_field_options WHERE field_id IN ${IN_IDS} ORDER BY option_id`,
    ).all(idsParam(defs.map((d) => d.field_id))) as OptionRow[];
    for (const r of rows) {
      const list = options.get(r.field_id);
      if (list) list.push(r);
      else options.set(r.field_id, [r]);
    }
  }
  return new FieldCatalog(defs, options);
};

/** Values of many tasks: task id -> field id -> the JSON value the API shows. */
export const loadFieldValues = (
  db: Db,
  taskIds: readonly number[],
): Map<number, Map<number, unknown>> => {
  const out = new Map<number, Map<number, unknown>>();
  if (taskIds.length === 0) return out;
  const rows = stmt(
    db,
    `SELECT task_id, field_id, value FROM custom_field_values WHERE task_id IN ${IN_IDS}`,
  ).all(idsParam(taskIds)) as { task_id: number; field_id: number; value: string }[];
  for (const r of rows) {
    let m = out.get(r.task_id);
    if (!m) {
      m = new Map();
      out.set(r.task_id, m);
    }
    m.set(r.field_id, JSON.parse(r.value) as unknown);
  }
  return out;
};

/**
 * The custom field object of the spec; `values` are this task's (empty for spaces and
 * projects). The part that does not depend on the task is built once per definition and
 * shared by every task of a page (a bulk page has thousands of tasks, a handful of fields).
 */
const baseDtos = new WeakMap<FieldCatalog, Map<number, CustomField>>();

export const customFieldDto = (
  def: FieldDefRow,
  catalog: FieldCatalog,
  users: ReadonlyMap<number, UserRef>,
  values: { taskId: number; value: unknown }[],
): CustomField => {
  let cache = baseDtos.get(catalog);
  if (!cache) {
    cache = new Map();
    baseDtos.set(catalog, cache);
  }
  let base = cache.get(def.field_id);
  if (!base) {
    const author = users.get(def.created_by) ?? { userId: def.created_by };
    base = {
      tenantId: def.org_id,
      taskCustomFieldId: def.field_id,
      fieldName: def.name,
      description: def.description,
      fieldType: def.field_type,
      fieldValue: [],
      fieldIcon: def.icon,
      spaceId: def.space_id,
      projectId: def.project_id,
      associatedId: def.project_id ?? def.space_id,
      order: def.sort_order,
      createdBy: author,
      modifiedBy: author,
      createdTime: iso(def.created_time),
      modifiedTime: iso(def.modified_time),
      customFieldOption: catalog.optionsOf(def.field_id).map((o) => ({
        optionId: o.option_id,
        optionName: o.name,
        color: o.color,
        spaceId: def.space_id,
        projectId: def.project_id,
        taskCustomFieldId: def.field_id,
      })),
    };
    cache.set(def.field_id, base);
  }
  return { ...base, fieldValue: values };
};

/** A value ready to store: `value` the JSON shown, `text` searchable, `num` for number/date filters. */
export interface StoredValue {
  fieldId: number;
  value: string;
  text: string;
  num: number | null;
}

type Checked = { ok: true; stored: Omit<StoredValue, 'fieldId'> } | { ok: false; message: string };

const checkValue = (
  def: FieldDefRow,
  options: OptionRow[],
  v: string | number | boolean,
): Checked => {
  const type = def.field_type.toUpperCase();
  switch (type) {
    case 'DATE':
      // Epoch ms, as the filters' date conditions read them.
      return typeof v === 'number' && Number.isSafeInteger(v)
        ? { ok: true, stored: { value: JSON.stringify(v), text: String(v), num: v } }
        : { ok: false, message: 'a DATE value must be epoch milliseconds (an integer)' };
    case 'NUMBER':
      return typeof v === 'number' && Number.isFinite(v)
        ? { ok: true, stored: { value: JSON.stringify(v), text: String(v), num: v } }
        : { ok: false, message: 'a NUMBER value must be a number' };
    case 'CHECKBOX':
      return typeof v === 'boolean'
        ? { ok: true, stored: { value: JSON.stringify(v), text: String(v), num: null } }
        : { ok: false, message: 'a CHECKBOX value must be true or false' };
    case 'DROPDOWN': {
      // An option id, or an option's name (case-insensitive); stored as the id, searched by name.
      const option =
        typeof v === 'number'
          ? options.find((o) => o.option_id === v)
          : typeof v === 'string'
            ? options.find((o) => o.name.toLowerCase() === v.trim().toLowerCase())
            : undefined;
      return option
        ? {
            ok: true,
            stored: { value: JSON.stringify(option.option_id), text: option.name, num: null },
          }
        : {
            ok: false,
            message: `not an option of field ${def.field_id} (give an optionId or an option name)`,
          };
    }
    default:
      // TEXT and any type this server does not know: free text.
      return typeof v === 'string'
        ? { ok: true, stored: { value: JSON.stringify(v), text: v, num: null } }
        : { ok: false, message: `a ${type} value must be a string` };
  }
};

/**
 * Checks `customFieldValues` of a create/update body against the fields that apply to the
 * task's scope. Problems are pushed to `errors` (the caller throws one 400 with every field
 * error, before anything is written). `null` clears a value: it is simply not stored, as an
 * update replaces the whole set.
 */
export const resolveFieldValues = (
  db: Db,
  orgId: number,
  scope: Scope,
  inputs: readonly CustomFieldValueInput[] | undefined,
  errors: FieldError[],
): StoredValue[] => {
  if (!inputs || inputs.length === 0) return [];
  const catalog = loadFieldCatalog(db, orgId, [scope.spaceId], [scope.projectId]);
  const applicable = new Map(catalog.forScope(scope).map((d) => [d.field_id, d]));
  const out: StoredValue[] = [];
  const seen = new Set<number>();
  inputs.forEach((input, i) => {
    const def = applicable.get(input.taskCustomFieldId);
    if (!def) {
      errors.push({
        field: `customFieldValues.${i}.taskCustomFieldId`,
        message: 'no such custom field applies to this task (its space and project)',
        rejectedValue: input.taskCustomFieldId,
      });
      return;
    }
    if (seen.has(def.field_id)) {
      errors.push({
        field: `customFieldValues.${i}.taskCustomFieldId`,
        message: 'the field is given twice',
        rejectedValue: input.taskCustomFieldId,
      });
      return;
    }
    seen.add(def.field_id);
    if (input.value === null) return;
    const checked = checkValue(def, catalog.optionsOf(def.field_id), input.value);
    if (checked.ok) out.push({ fieldId: def.field_id, ...checked.stored });
    else
      errors.push({
        field: `customFieldValues.${i}.value`,
        message: checked.message,
        rejectedValue: input.value,
      });
  });
  return out;
};

/** Replaces the task's whole set of values (an update sends the full editable state). */
export const replaceFieldValues = (
  db: Db,
  taskId: number,
  values: readonly StoredValue[],
): void => {
  stmt(db, 'DELETE FROM custom_field_values WHERE task_id = ?').run(taskId);
  const insert = stmt(
    db,
    'INSERT INTO custom_field_values (task_id, field_id, value, text, num) VALUES (?, ?, ?, ?, ?)',
  );
  for (const v of values) insert.run(taskId, v.fieldId, v.value, v.text, v.num);
};
