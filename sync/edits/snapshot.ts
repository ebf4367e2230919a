/**
 * Raw replica rows of one entity, as JSON: what an edit's `base` keeps so that a failed or
 * discarded edit can put the server's rows back exactly (columns the DTOs do not model, the
 * search index through the triggers on `tasks`, children a delete took with it).
 */
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { type EntityKey, type EntityKind, entityKey, type Json, type JsonObject } from '../outbox';

/** Table → rows (column → value). */
export type RowSet = Record<string, JsonObject[]>;

/** The tables an entity's rows live in, and the column that ties each to it. */
const taskChildren = [
  ['task_tags', 'task_id'],
  ['task_owners', 'task_id'],
  ['custom_field_values', 'task_id'],
] as const;
const taskDependents = [
  ['checklist_items', 'task_id'],
  ['attachments', 'task_id'],
  ['timers', 'task_id'],
] as const;
const projectChildren = [
  ['project_tags', 'project_id'],
  ['project_members', 'project_id'],
] as const;

const IN = '(SELECT value FROM json_each(?))';

const rowsWhere = (db: Sqlite, table: string, column: string, ids: readonly number[]) =>
  stmt(db, `SELECT * FROM ${table} WHERE ${column} IN ${IN}`).all(
    JSON.stringify(ids),
  ) as JsonObject[];

const add = (into: RowSet, table: string, rows: JsonObject[]) => {
  if (rows.length === 0) return;
  into[table] = [...(into[table] ?? []), ...rows];
};

/** A task and, transitively, its subtasks. */
export const taskTree = (db: Sqlite, ids: readonly number[]): number[] =>
  (
    stmt(
      db,
      `WITH RECURSIVE tree(id) AS (SELECT value FROM json_each(?)
         UNION SELECT t.task_id FROM tasks t JOIN tree ON t.parent_task_id = tree.id)
       SELECT id FROM tree`,
    ).all(JSON.stringify(ids)) as { id: number }[]
  ).map((r) => r.id);

const taskRows = (db: Sqlite, ids: readonly number[], deep: boolean, into: RowSet) => {
  const all = deep ? taskTree(db, ids) : [...ids];
  add(into, 'tasks', rowsWhere(db, 'tasks', 'task_id', all));
  for (const [table, col] of taskChildren) add(into, table, rowsWhere(db, table, col, all));
  if (deep)
    for (const [table, col] of taskDependents) add(into, table, rowsWhere(db, table, col, all));
};

const projectRows = (db: Sqlite, ids: readonly number[], deep: boolean, into: RowSet) => {
  add(into, 'projects', rowsWhere(db, 'projects', 'project_id', ids));
  for (const [table, col] of projectChildren) add(into, table, rowsWhere(db, table, col, ids));
  if (!deep) return;
  const tasks = (
    stmt(db, `SELECT task_id FROM tasks WHERE project_id IN ${IN} AND parent_task_id IS NULL`).all(
      JSON.stringify(ids),
    ) as { task_id: number }[]
  ).map((r) => r.task_id);
  taskRows(db, tasks, true, into);
  add(into, 'attachments', rowsWhere(db, 'attachments', 'project_id', ids));
};

/**
 * The rows of an entity. `deep` adds what removing it removes too (a task's subtasks,
 * checklist, files and timers; a project's tasks; a space's projects): a delete's base.
 */
export const snapshotRows = (db: Sqlite, kind: EntityKind, id: number, deep: boolean): RowSet => {
  const out: RowSet = {};
  switch (kind) {
    case 'task':
      taskRows(db, [id], deep, out);
      break;
    case 'checklist': {
      // Removing an item moves the ones after it up: a delete keeps its siblings' places.
      const on = deep
        ? (stmt(db, 'SELECT task_id FROM checklist_items WHERE checklist_id = ?').get(id) as
            | { task_id: number }
            | undefined)
        : undefined;
      add(
        out,
        'checklist_items',
        on
          ? rowsWhere(db, 'checklist_items', 'task_id', [on.task_id])
          : rowsWhere(db, 'checklist_items', 'checklist_id', [id]),
      );
      break;
    }
    case 'attachment':
      add(out, 'attachments', rowsWhere(db, 'attachments', 'attachment_id', [id]));
      break;
    case 'timer':
      add(out, 'timers', rowsWhere(db, 'timers', 'track_id', [id]));
      break;
    case 'notification':
      add(out, 'notifications', rowsWhere(db, 'notifications', 'notification_id', [id]));
      break;
    case 'project':
      projectRows(db, [id], deep, out);
      break;
    case 'space': {
      add(out, 'spaces', rowsWhere(db, 'spaces', 'space_id', [id]));
      add(out, 'space_members', rowsWhere(db, 'space_members', 'space_id', [id]));
      if (deep) {
        const projects = (
          stmt(db, 'SELECT project_id FROM projects WHERE space_id = ?').all(id) as {
            project_id: number;
          }[]
        ).map((r) => r.project_id);
        projectRows(db, projects, true, out);
      }
      break;
    }
  }
  // Rows made offline are not the server's: their own create rows bring them back.
  return deep && id > 0 ? withoutLocalRows(out) : out;
};

const idColumns = [
  'task_id',
  'checklist_id',
  'attachment_id',
  'track_id',
  'project_id',
  'space_id',
];

const withoutLocalRows = (rows: RowSet): RowSet => {
  const out: RowSet = {};
  for (const [table, list] of Object.entries(rows)) {
    const kept = list.filter((r) =>
      idColumns.every((c) => typeof r[c] !== 'number' || (r[c] as number) > 0),
    );
    if (kept.length) out[table] = kept;
  }
  return out;
};

/** Per entity kind, its own table first, then the tables of rows that belong wholly to it. */
const ownedTables: Record<EntityKind, { column: string; tables: readonly string[] }> = {
  task: { column: 'task_id', tables: ['tasks', 'task_tags', 'task_owners', 'custom_field_values'] },
  checklist: { column: 'checklist_id', tables: ['checklist_items'] },
  attachment: { column: 'attachment_id', tables: ['attachments'] },
  timer: { column: 'track_id', tables: ['timers'] },
  project: { column: 'project_id', tables: ['projects', 'project_tags', 'project_members'] },
  space: { column: 'space_id', tables: ['spaces', 'space_members'] },
  notification: { column: 'notification_id', tables: ['notifications'] },
};

/** The entities whose rows a snapshot holds (for re-applying their queued edits). */
export const entitiesOf = (rows: RowSet): EntityKey[] =>
  (Object.entries(ownedTables) as [EntityKind, (typeof ownedTables)[EntityKind]][]).flatMap(
    ([kind, { column, tables }]) =>
      (rows[tables[0] as string] ?? []).flatMap((r) =>
        typeof r[column] === 'number' ? [entityKey(kind, r[column] as number)] : [],
      ),
  );

/** `rows` with the rows of one entity (its own and wholly its) taken from `from` instead. */
export const withEntityRows = (
  rows: RowSet,
  kind: EntityKind,
  id: number,
  from: RowSet,
): RowSet => {
  const { column, tables } = ownedTables[kind];
  const out: RowSet = { ...rows };
  for (const table of tables) {
    const kept = (rows[table] ?? []).filter((r) => r[column] !== id);
    const taken = (from[table] ?? []).filter((r) => r[column] === id);
    if (kept.length + taken.length > 0) out[table] = [...kept, ...taken];
    else delete out[table];
  }
  return out;
};

/** Tables a snapshot may name, with the columns that identify a row for replacing it. */
const keys: Record<string, readonly string[]> = {
  tasks: ['task_id'],
  task_tags: ['task_id'],
  task_owners: ['task_id'],
  custom_field_values: ['task_id'],
  checklist_items: ['checklist_id'],
  attachments: ['attachment_id'],
  timers: ['track_id'],
  notifications: ['notification_id'],
  projects: ['project_id'],
  project_tags: ['project_id'],
  project_members: ['project_id'],
  spaces: ['space_id'],
  space_members: ['space_id'],
};

/** Tables whose rows belong wholly to a row of another (a task's tags, a project's members). */
const childTables: [string, string, string[]][] = [
  ['tasks', 'task_id', ['task_tags', 'task_owners', 'custom_field_values']],
  ['projects', 'project_id', ['project_tags', 'project_members']],
  ['spaces', 'space_id', ['space_members']],
];

const isRowSet = (v: Json): v is RowSet =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  Object.entries(v).every(([t, rows]) => Object.hasOwn(keys, t) && Array.isArray(rows));

/**
 * Writes the snapshot back. The rows of the same owners are removed first (a task's tags as
 * the server had them, not merged with local ones), then the snapshot's rows inserted; the
 * triggers on `tasks` keep the search index in step.
 */
export const restoreRows = (db: Sqlite, rows: Json): void => {
  if (!isRowSet(rows)) throw new TypeError('not a row snapshot');
  const owners = new Map<string, Set<unknown>>();
  const own = (table: string, ids: unknown[]) => {
    const set = owners.get(table) ?? new Set();
    for (const v of ids) set.add(v);
    owners.set(table, set);
  };
  for (const [table, list] of Object.entries(rows)) {
    const [col] = keys[table] ?? [];
    if (col)
      own(
        table,
        list.map((r) => r[col]),
      );
  }
  // A task without tags had none: its tags now go even when the snapshot lists none.
  for (const [parent, col, children] of childTables)
    for (const child of children)
      own(
        child,
        (rows[parent] ?? []).map((r) => r[col]),
      );
  for (const [table, ids] of owners) {
    const [col] = keys[table] ?? [];
    if (col) stmt(db, `DELETE FROM ${table} WHERE ${col} IN ${IN}`).run(JSON.stringify([...ids]));
  }
  for (const [table, list] of Object.entries(rows)) {
    for (const row of list) {
      const cols = Object.keys(row);
      if (!cols.every((c) => /^[a-z_]+$/.test(c))) throw new TypeError(`bad column in ${table}`);
      stmt(
        db,
        `INSERT OR REPLACE INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
      ).run(...cols.map((c) => row[c] ?? null));
    }
  }
};
