/**
 * Test fixture for the task filter compiler: a small store with its own table names (so the
 * shape is exercised), 20 tasks covering the edge cases, and custom fields of every type.
 * Plain data and SQL text: the test files open the database (better-sqlite3 stays out of
 * non-test files).
 */
import type { TaskSqlShape } from './sql';

// Fixed clock: Sunday 2025-06-15 12:00 UTC.
export const NOW = Date.UTC(2025, 5, 15, 12);
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** 'MM-DDTHH:mm[:ss.sss]' or 'MM-DD' in June/May 2025, UTC. */
export const at = (s: string) => Date.parse(`2025-${s.length === 5 ? `${s}T00:00` : s}Z`);

export const shape: TaskSqlShape = {
  alias: 't',
  columns: {
    id: 'id',
    title: 'title',
    status: 'status',
    priority: 'priority',
    createdBy: 'created_by',
    startDate: 'start_date',
    dueDate: 'due_date',
    createdTime: 'created_time',
    modifiedTime: 'modified_time',
    completed: 'completed',
    // A reserved word: identifiers from the shape must be quoted.
    completion: 'order',
  },
  tags: { table: 'task_tags', taskId: 'task_id', name: 'tag' },
  owners: { table: 'task_owners', taskId: 'task_id', userId: 'user_id' },
  customFields: { table: 'field_defs', id: 'id', name: 'name', type: 'type' },
  customValues: {
    table: 'field_values',
    taskId: 'task_id',
    fieldId: 'field_id',
    text: 'text_value',
    num: 'num_value',
  },
};

type Row = [
  number,
  string,
  string,
  string | null,
  number,
  number | null,
  number | null,
  number,
  number,
  0 | 1,
  number,
];
// biome-ignore format: a fixture reads best as a table, one task per line
const tasks: Row[] = [
  // id, title, status, priority, created_by, start, due, created, modified, completed, completion
  [1, 'Write spec', 'To Do', 'High', 1, at('06-10T09:00'), at('06-14T10:00'), at('06-01T08:00'), at('06-15T08:00'), 0, 0],
  [2, 'Review the SPEC', 'In Progress', 'Medium', 2, at('06-12'), at('06-16T09:00'), at('06-02T08:00'), at('06-14T23:59:59.999'), 0, 40],
  [3, 'Ship 50% off banner', 'Done', 'Low', 1, null, at('06-10'), at('06-01'), at('06-11'), 1, 100],
  [4, 'ship 50 percent', 'done', 'low', 3, null, null, at('06-03'), at('06-03'), 1, 100],
  [5, 'No due date', 'To Do', 'None', 2, null, null, at('06-04'), at('06-15'), 0, 0],
  [6, 'Due right now', 'In Review', 'Urgent', 3, at('06-15T23:59:59.999'), NOW, at('06-05'), at('06-05'), 0, 10],
  [7, 'Due in exactly 7 days', 'To Do', 'HIGH', 1, null, NOW + 7 * DAY, at('06-06'), at('06-06'), 0, 0],
  [8, 'Due just under 7 days', 'To Do', null, 2, null, NOW + 7 * DAY - 1, at('06-07'), at('06-07'), 0, 20],
  [9, 'Overdue by a millisecond', 'In Progress', 'Medium', 1, at('06-15'), NOW - 1, at('06-08'), at('06-08'), 0, 50],
  [10, 'Done but due soon', 'Done', 'High', 4, null, at('06-17'), at('06-09'), at('06-09'), 1, 100],
  [11, 'snake_case title', 'To Do', 'Low', 4, null, null, at('06-10'), at('06-10'), 0, 0],
  [12, 'snakeXcase title', 'To Do', 'Low', 4, null, null, at('06-11'), at('06-11'), 0, 0],
  [13, 'Back\\slash path', 'To Do', 'Low', 5, null, null, at('06-12'), at('06-12'), 0, 0],
  [14, 'Old overdue', 'To Do', 'Urgent', 5, at('05-01'), at('05-20'), at('05-01'), at('05-01'), 0, 0],
  [15, 'Completed long ago', 'Done', 'None', 5, at('05-01'), at('05-10'), at('05-01'), at('05-10'), 1, 100],
  [16, 'Custom fields A', 'To Do', 'Medium', 6, null, null, at('06-13'), at('06-13'), 0, 0],
  [17, 'Custom fields B', 'To Do', 'Medium', 6, null, null, at('06-13'), at('06-13'), 0, 0],
  [18, 'Custom fields C', 'To Do', 'Medium', 6, null, null, at('06-13'), at('06-13'), 0, 0],
  [19, 'Custom fields D', 'To Do', 'Medium', 6, null, null, at('06-13'), at('06-13'), 0, 0],
  [20, 'Custom fields E', 'To Do', 'Medium', 6, null, null, at('06-13'), at('06-13'), 0, 0],
];
export const ALL = tasks.map((t) => t[0]);
export const except = (...ids: number[]) => ALL.filter((id) => !ids.includes(id));

// biome-ignore format: fixture table
const tags: [number, string][] = [
  [1, 'Backend'], [1, 'urgent'], [2, 'backend'], [3, 'Frontend'], [6, 'URGENT'], [6, 'frontend'], [9, 'ops'], [10, 'Backend'],
];
// biome-ignore format: fixture table
const owners: [number, number][] = [[1, 10], [1, 11], [2, 11], [3, 12], [5, 10], [6, 13], [9, 10], [9, 12], [14, 11]];
const defs: [number, string, string | null][] = [
  [1, 'Client', 'TEXT'],
  [2, 'Stage', 'DROPDOWN'],
  [3, 'Deadline', 'DATE'],
  [4, 'Points', 'NUMBER'],
  [5, 'client', 'TEXT'], // same name in another project
  [6, 'Deadline', 'TEXT'], // same name, another type
  [7, 'Unused', null],
];
const dateValue = (task: number, field: number, ms: number): [number, number, string, number] => [
  task,
  field,
  String(ms),
  ms,
];
// biome-ignore format: fixture table
const values: [number, number, string | null, number | null][] = [
  // task, field, text, num
  [1, 1, 'Acme Corp', null], [2, 1, 'acme corp', null], [3, 1, '', null], [4, 5, 'Globex', null],
  [6, 1, '100%_sure', null], [9, 1, 'Initech', null], [16, 1, null, null], [17, 1, 'Acme', null],
  [18, 1, 'Big Acme Corp', null], [19, 5, 'ACME CORP', null],
  [1, 2, 'Design', null], [2, 2, 'Build', null], [7, 2, 'design', null], [20, 2, 'Ship', null],
  [1, 4, '5', 5], [2, 4, '8', 8], [20, 4, '13', 13],
  dateValue(1, 3, at('06-20')),
  dateValue(2, 3, at('06-15T08:00')), // today
  dateValue(3, 3, at('06-16T23:59:59.999')), // tomorrow, last ms
  dateValue(4, 3, at('06-14T23:59:59.999')), // yesterday, last ms
  dateValue(6, 3, at('06-30')),
  dateValue(7, 3, at('06-16')), // tomorrow, first ms
  dateValue(8, 3, at('06-17')),
  dateValue(9, 3, at('06-15')), // today, first ms
  [16, 3, '', null], // an empty DATE value
  // A TEXT field named Deadline whose text and (wrongly filled) number look like today:
  // date conditions must still ignore it because of its type.
  dateValue(5, 6, at('06-15T13:00')),
];

const ddl = `
  CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL, status TEXT, priority TEXT,
    created_by INTEGER, start_date INTEGER, due_date INTEGER, created_time INTEGER,
    modified_time INTEGER, completed INTEGER, "order" INTEGER);
  CREATE TABLE task_tags (task_id INTEGER, tag TEXT);
  CREATE TABLE task_owners (task_id INTEGER, user_id INTEGER);
  CREATE TABLE field_defs (id INTEGER PRIMARY KEY, name TEXT, type TEXT);
  CREATE TABLE field_values (task_id INTEGER, field_id INTEGER, text_value TEXT, num_value REAL);
`;

/** The part of a better-sqlite3 Database the fixture needs. */
export interface FixtureDb {
  exec(sql: string): unknown;
  prepare(sql: string): { run(...params: unknown[]): unknown };
}

export function seedTaskFixture(db: FixtureDb): void {
  db.exec(ddl);
  const insert = (sql: string, rows: readonly unknown[][]) => {
    const stmt = db.prepare(sql);
    for (const row of rows) stmt.run(...row);
  };
  insert('INSERT INTO tasks VALUES (?,?,?,?,?,?,?,?,?,?,?)', tasks);
  insert('INSERT INTO task_tags VALUES (?,?)', tags);
  insert('INSERT INTO task_owners VALUES (?,?)', owners);
  insert('INSERT INTO field_defs VALUES (?,?,?)', defs);
  insert('INSERT INTO field_values VALUES (?,?,?,?)', values);
}
