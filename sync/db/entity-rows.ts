/**
 * The replica's rows of each entity the edits touch, as the schema lays them out: the column
 * naming an entity and the tables of rows wholly its, what removing it removes too, and what it
 * hangs on. Raw rows as JSON (`RowSet`: table → rows) are what an edit's `base` keeps so that a
 * failed or discarded edit can put the server's rows back exactly (sync/edits/snapshot.ts).
 */
import type { EntityKind, JsonObject } from '../../shared/edits/kinds';
import { stmt } from './kysely';
import type { Sqlite } from './open';

/** Table → rows (column → value). */
export type RowSet = Record<string, JsonObject[]>;

export const IN = '(SELECT value FROM json_each(?))';

/** Adds the rows of `tables` whose `column` is one of `ids`. */
export const addRowsOf = (
  db: Sqlite,
  into: RowSet,
  column: string,
  tables: readonly string[],
  ids: readonly number[],
): void => {
  for (const table of tables) {
    const rows = stmt(db, `SELECT * FROM ${table} WHERE ${column} IN ${IN}`).all(
      JSON.stringify(ids),
    ) as JsonObject[];
    if (rows.length > 0) into[table] = [...(into[table] ?? []), ...rows];
  }
};

/** Ids of one column, as numbers. */
export const idsWhere = (db: Sqlite, sql: string, ...params: unknown[]): number[] =>
  (stmt(db, sql).all(...params) as { id: number }[]).map((r) => r.id);

export interface EntityRows {
  /** The column naming it. */
  column: string;
  /** Its own table first, then the tables of rows wholly its (a task's tags). */
  tables: readonly string[];
  /** Whether its row keeps the server's modifiedTime. */
  modifiedTime: boolean;
  /**
   * Its rows with what removing it removes too (a delete's base), when that is more than its
   * own rows.
   */
  deep?(db: Sqlite, id: number, into: RowSet): void;
  /**
   * What its row hangs on (`task`, `project`, `space` columns of one row by its id): a row whose
   * holder is gone went with it on the server.
   */
  holders?: string;
  /** Other entities hang on it: its delete takes them along on the server. */
  holds?: true;
}

const taskTables = ['tasks', 'task_tags', 'task_owners', 'custom_field_values'] as const;
/** Rows that are gone when their task is: a task delete's base keeps them. */
const taskDependents = ['checklist_items', 'attachments', 'timers'] as const;
const projectTables = ['projects', 'project_tags', 'project_members'] as const;
const spaceTables = ['spaces', 'space_members'] as const;

/** A task and, transitively, its subtasks. */
const taskTree = (db: Sqlite, ids: readonly number[]): number[] =>
  idsWhere(
    db,
    `WITH RECURSIVE tree(id) AS (SELECT value FROM json_each(?)
       UNION SELECT t.task_id FROM tasks t JOIN tree ON t.parent_task_id = tree.id)
     SELECT id FROM tree`,
    JSON.stringify(ids),
  );

/** Tasks' rows with their subtasks and what goes with them (items, files, timers). */
const deepTaskRows = (db: Sqlite, ids: readonly number[], into: RowSet) => {
  const all = taskTree(db, ids);
  addRowsOf(db, into, 'task_id', taskTables, all);
  addRowsOf(db, into, 'task_id', taskDependents, all);
};

/** Projects' rows with their tasks (deep) and files. */
const deepProjectRows = (db: Sqlite, ids: readonly number[], into: RowSet) => {
  addRowsOf(db, into, 'project_id', projectTables, ids);
  const tasks = idsWhere(
    db,
    `SELECT task_id AS id FROM tasks WHERE project_id IN ${IN} AND parent_task_id IS NULL`,
    JSON.stringify(ids),
  );
  deepTaskRows(db, tasks, into);
  addRowsOf(db, into, 'project_id', ['attachments'], ids);
};

/** The task a checklist item is on, or null when the replica has no such item. */
export const checklistTaskOf = (db: Sqlite, id: number): number | null =>
  (
    stmt(db, 'SELECT task_id FROM checklist_items WHERE checklist_id = ?').get(id) as
      | { task_id: number }
      | undefined
  )?.task_id ?? null;

export const entityRows: Readonly<Record<EntityKind, EntityRows>> = {
  task: {
    column: 'task_id',
    tables: taskTables,
    modifiedTime: true,
    deep: (db, id, into) => deepTaskRows(db, [id], into),
    holders: 'SELECT parent_task_id AS task, project_id AS project FROM tasks WHERE task_id = ?',
    holds: true,
  },
  checklist: {
    column: 'checklist_id',
    tables: ['checklist_items'],
    modifiedTime: true,
    // Removing an item moves the ones after it up: a delete keeps its siblings' places.
    deep: (db, id, into) => {
      const on = checklistTaskOf(db, id);
      if (on === null) addRowsOf(db, into, 'checklist_id', ['checklist_items'], [id]);
      else addRowsOf(db, into, 'task_id', ['checklist_items'], [on]);
    },
    holders: 'SELECT task_id AS task FROM checklist_items WHERE checklist_id = ?',
  },
  attachment: {
    column: 'attachment_id',
    tables: ['attachments'],
    modifiedTime: false,
    holders:
      'SELECT task_id AS task, project_id AS project FROM attachments WHERE attachment_id = ?',
  },
  timer: {
    column: 'track_id',
    tables: ['timers'],
    modifiedTime: true,
    holders: 'SELECT task_id AS task FROM timers WHERE track_id = ?',
  },
  project: {
    column: 'project_id',
    tables: projectTables,
    modifiedTime: true,
    deep: (db, id, into) => deepProjectRows(db, [id], into),
    holders: 'SELECT space_id AS space FROM projects WHERE project_id = ?',
    holds: true,
  },
  space: {
    column: 'space_id',
    tables: spaceTables,
    modifiedTime: true,
    deep: (db, id, into) => {
      addRowsOf(db, into, 'space_id', spaceTables, [id]);
      const projects = idsWhere(db, 'SELECT project_id AS id FROM projects WHERE space_id = ?', id);
      deepProjectRows(db, projects, into);
    },
    holds: true,
  },
  notification: { column: 'notification_id', tables: ['notifications'], modifiedTime: false },
};

/**
 * Tasks whose counts restored rows may change: those they hang on, and the restored tasks
 * themselves (their copied counts may include rows made offline since).
 */
export const countedTasks = (rows: RowSet): number[] =>
  [
    ...(rows.checklist_items ?? []).map((r) => r.task_id),
    ...(rows.attachments ?? []).map((r) => r.task_id),
    ...(rows.tasks ?? []).flatMap((r) => [r.parent_task_id, r.task_id]),
  ].filter((v): v is number => typeof v === 'number');

/** What one entity's row hangs on, by kind (null: nothing, or no such row). */
export interface Holders {
  task?: number | null;
  project?: number | null;
  space?: number | null;
}

/** The holders of an entity's row, or undefined when the replica has no such row. */
export const holdersOf = (db: Sqlite, kind: EntityKind, id: number): Holders | undefined => {
  const sql = entityRows[kind].holders;
  return sql ? (stmt(db, sql).get(id) as Holders | undefined) : undefined;
};

/**
 * The project and space a task or project is in (as its row says; a subtask's may be null):
 * their deletes take it with them on the server.
 */
export const containersOf = (
  db: Sqlite,
  kind: EntityKind,
  id: number,
): { project: number | null; space: number | null } | undefined =>
  kind === 'task'
    ? (stmt(db, 'SELECT project_id AS project, space_id AS space FROM tasks WHERE task_id = ?').get(
        id,
      ) as { project: number | null; space: number | null } | undefined)
    : kind === 'project'
      ? (stmt(
          db,
          'SELECT NULL AS project, space_id AS space FROM projects WHERE project_id = ?',
        ).get(id) as { project: null; space: number | null } | undefined)
      : undefined;

/** Whether the replica holds the entity's row (one primary-key lookup). */
export const entityExists = (db: Sqlite, kind: EntityKind, id: number): boolean => {
  const { column, tables } = entityRows[kind];
  return stmt(db, `SELECT 1 FROM ${tables[0]} WHERE ${column} = ?`).get(id) !== undefined;
};

/** The server's modifiedTime of an entity's row (epoch ms), where the replica keeps one. */
export const modifiedTimeOf = (db: Sqlite, kind: EntityKind, id: number): number | null => {
  const { column, tables, modifiedTime } = entityRows[kind];
  if (!modifiedTime) return null;
  const r = stmt(db, `SELECT modified_time AS m FROM ${tables[0]} WHERE ${column} = ?`).get(id) as
    | { m: number | null }
    | undefined;
  return r?.m ?? null;
};
