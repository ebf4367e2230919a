import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePagingQuerySchema } from './paging';
import type { ProjectFilter } from './project-filter';
import {
  compileOrderBy,
  compileProjectFilter,
  type ProjectSqlShape,
  projectSortColumns,
  projectSortProperties,
} from './sql';

const NOW = Date.UTC(2025, 5, 15, 12);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (s: string) => Date.parse(`2025-${s.length === 5 ? `${s}T00:00` : s}Z`);

// This store has no "completed" column: the shape derives it with an expression.
const shape: ProjectSqlShape = {
  alias: 'p',
  columns: {
    id: 'project_id',
    name: 'project_name',
    statusName: 'status_name',
    priorityLabel: 'priority_label',
    healthLabel: 'health_label',
    isPublic: 'is_public',
    createdBy: 'created_by',
    startDate: 'start_date',
    dueDate: 'due_date',
    createdTime: 'created_time',
    modifiedTime: 'modified_time',
    completed: `("p"."status_category" = 'COMPLETED')`,
    completion: 'completion',
  },
  tags: { table: 'project_tags', projectId: 'project_id', name: 'tag_name' },
  members: { table: 'project_members', projectId: 'project_id', userId: 'user_id' },
};

// biome-ignore format: a fixture reads best as a table, one project per line
const projects: unknown[][] = [
  // id, name, status, category, priority, health, public, creator, start, due, created, modified, completion
  [1, 'Website Redesign', 'Active', 'ACTIVE', 'High', 'On Track', 1, 1, at('06-01'), at('06-14'), at('06-01T10:00'), at('06-15T01:00'), 30],
  [2, 'mobile app', 'active', 'ACTIVE', 'Low', 'At Risk', 0, 2, null, at('06-20'), at('06-02'), at('06-02'), 10],
  [3, 'Archive 2024', 'Completed', 'COMPLETED', 'Low', 'On Track', 1, 1, at('05-01'), at('06-01'), at('05-01'), at('06-01'), 100],
  [4, '100% Done_ish', 'Planning', null, null, null, null, 3, null, null, at('06-03'), at('06-03'), 0],
  [5, 'Backend migration', 'On Hold', 'ACTIVE', 'Medium', 'Off Track', 0, 2, at('06-15T05:00'), NOW + 7 * DAY, at('06-15'), at('06-15'), 60],
  [6, 'Marketing', 'Active', 'ACTIVE', 'high', 'on track', 1, 3, null, NOW + HOUR, at('06-04'), at('06-04'), 0],
  [7, 'Done early', 'Completed', 'COMPLETED', 'Medium', 'On Track', 0, 4, null, at('06-18'), at('06-05'), at('06-05'), 100],
  [8, 'Ops', 'Active', 'ACTIVE', 'Urgent', 'At Risk', 1, 4, null, at('05-01'), at('06-06'), at('06-06'), 5],
];
// biome-ignore format: fixture table
const tags = [[1, 'Web'], [1, 'Client'], [2, 'mobile'], [5, 'backend'], [5, 'web'], [8, 'ops']];
// biome-ignore format: fixture table
const members = [[1, 10], [1, 11], [2, 11], [3, 12], [5, 10], [6, 13], [8, 10], [8, 12]];
const ALL = [1, 2, 3, 4, 5, 6, 7, 8];
const except = (...ids: number[]) => ALL.filter((id) => !ids.includes(id));

let db: Database.Database;

beforeAll(() => {
  db = new Database(':memory:');
  db.exec(`
    CREATE TABLE projects (project_id INTEGER PRIMARY KEY, project_name TEXT, status_name TEXT,
      status_category TEXT, priority_label TEXT, health_label TEXT, is_public INTEGER,
      created_by INTEGER, start_date INTEGER, due_date INTEGER, created_time INTEGER,
      modified_time INTEGER, completion INTEGER);
    CREATE TABLE project_tags (project_id INTEGER, tag_name TEXT);
    CREATE TABLE project_members (project_id INTEGER, user_id INTEGER);
  `);
  const insert = (sql: string, rows: unknown[][]) => {
    const stmt = db.prepare(sql);
    for (const row of rows) stmt.run(...row);
  };
  insert('INSERT INTO projects VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)', projects);
  insert('INSERT INTO project_tags VALUES (?,?)', tags);
  insert('INSERT INTO project_members VALUES (?,?)', members);
});
afterAll(() => db.close());

function ids(filter: ProjectFilter): number[] {
  const where = compileProjectFilter(filter, shape, NOW);
  expect(where.sql.split('?').length - 1).toBe(where.params.length);
  return db
    .prepare(`SELECT p.project_id FROM projects p WHERE ${where.sql} ORDER BY p.project_id`)
    .pluck()
    .all(...where.params) as number[];
}

describe('compileProjectFilter', () => {
  it('no filter matches everything', () => {
    expect(compileProjectFilter({}, shape, NOW).sql).toBe('1');
    expect(ids({})).toEqual(ALL);
  });

  it('title: case-insensitive substring of the name, wildcards literal', () => {
    expect(ids({ title: 'BACK' })).toEqual([5]);
    expect(ids({ title: '100%' })).toEqual([4]);
    expect(ids({ title: '_' })).toEqual([4]);
    expect(ids({ title: 'E' })).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('status, priority, health: any of the names, case-insensitive', () => {
    expect(ids({ status: ['ACTIVE'] })).toEqual([1, 2, 6, 8]);
    expect(ids({ status: ['on hold', 'planning'] })).toEqual([4, 5]);
    expect(ids({ priority: ['HIGH'] })).toEqual([1, 6]);
    expect(ids({ priority: ['low'] })).toEqual([2, 3]);
    expect(ids({ health: ['on track'] })).toEqual([1, 3, 6, 7]);
    expect(ids({ health: ['At Risk', 'off track'] })).toEqual([2, 5, 8]);
  });

  it('tags, creators, members', () => {
    expect(ids({ tags: ['WEB'] })).toEqual([1, 5]);
    expect(ids({ tags: ['client', 'ops'] })).toEqual([1, 8]);
    expect(ids({ creators: [2] })).toEqual([2, 5]);
    expect(ids({ creators: [1, 4] })).toEqual([1, 3, 7, 8]);
    expect(ids({ members: [10] })).toEqual([1, 5, 8]);
    expect(ids({ members: [11, 13] })).toEqual([1, 2, 6]);
    expect(ids({ members: [42] })).toEqual([]);
  });

  it('isPublic: equality, NULL counts as false', () => {
    expect(ids({ isPublic: true })).toEqual([1, 3, 6, 8]);
    expect(ids({ isPublic: false })).toEqual([2, 4, 5, 7]);
  });

  it('overdue, upcoming, pending, dueDateSet (completed from an expression, NULL = not complete)', () => {
    expect(ids({ overdue: true })).toEqual([1, 8]);
    expect(ids({ overdue: false })).toEqual(except(1, 8));
    expect(ids({ upcoming: true })).toEqual([2, 6]);
    expect(ids({ upcoming: false })).toEqual(except(2, 6));
    expect(ids({ pending: true })).toEqual([1, 2, 4, 5, 6, 8]);
    expect(ids({ pending: false })).toEqual([3, 7]);
    expect(ids({ dueDateSet: true })).toEqual(except(4));
    expect(ids({ dueDateSet: false })).toEqual([4]);
  });

  it('date-time filters match the same UTC day', () => {
    expect(ids({ startDate: at('06-15T23:00') })).toEqual([5]);
    expect(ids({ dueDate: at('06-14T12:00') })).toEqual([1]);
    expect(ids({ createdTime: at('06-15') })).toEqual([5]);
    expect(ids({ modifiedTime: at('06-15T20:00') })).toEqual([1, 5]);
    expect(ids({ modifiedTime: at('06-16') })).toEqual([]);
  });

  it('combined filters are ANDed', () => {
    expect(ids({ status: ['active'], isPublic: true, members: [10] })).toEqual([1, 8]);
    expect(ids({ status: ['active'], isPublic: true, members: [10], health: ['at risk'] })).toEqual(
      [8],
    );
    expect(ids({ pending: true, dueDateSet: true, overdue: false, tags: ['web'] })).toEqual([5]);
  });
});

describe('project sort', () => {
  const columns = projectSortColumns(shape);
  const paging = makePagingQuerySchema(projectSortProperties);
  const sorted = (...sort: string[]) =>
    db
      .prepare(
        `SELECT p.project_id FROM projects p ${compileOrderBy(paging.parse({ sort }).sort, columns, columns.projectId)}`,
      )
      .pluck()
      .all() as number[];

  it('names case-insensitively', () => {
    expect(sorted('projectName')).toEqual([4, 3, 5, 7, 6, 2, 8, 1]);
    expect(sorted('projectName,desc')).toEqual([1, 8, 2, 6, 7, 5, 3, 4]);
  });

  it('dates with nulls last', () => {
    expect(sorted('dueDate,desc')).toEqual([5, 2, 7, 6, 1, 3, 8, 4]);
    expect(sorted('startDate')).toEqual([3, 1, 5, 2, 4, 6, 7, 8]);
  });

  it('multiple keys, then id', () => {
    expect(sorted('completion', 'startDate,desc')).toEqual([4, 6, 8, 2, 1, 5, 3, 7]);
    expect(sorted('completion,desc', 'startDate,desc')).toEqual([3, 7, 5, 1, 2, 8, 4, 6]);
  });
});
