import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makePagingQuerySchema } from './paging';
import {
  type ProjectFilter,
  projectFilterQuerySchema,
  projectFilterToQuery,
} from './project-filter';
import { projectSortProperties } from './sql';

describe('projectFilterQuerySchema', () => {
  it('parses every parameter and ignores unknown keys (customFields is not a project filter)', () => {
    expect(
      projectFilterQuerySchema.parse({
        title: 'web',
        status: 'Active,On Hold',
        priority: ['High'],
        health: ['On Track', 'At Risk'],
        tags: 'web',
        creators: '1,2',
        members: ['10', '11'],
        startDate: '2025-06-01',
        dueDate: '2025-06-14T00:00:00Z',
        createdTime: '2025-06-01T10:00:00Z',
        modifiedTime: '2025-06-15',
        overdue: 'true',
        isPublic: 'false',
        dueDateSet: 'true',
        pending: 'false',
        upcoming: 'TRUE',
        customFields: 'not even json',
        sort: 'nonsense',
      }),
    ).toEqual({
      title: 'web',
      status: ['Active', 'On Hold'],
      priority: ['High'],
      health: ['On Track', 'At Risk'],
      tags: ['web'],
      creators: [1, 2],
      members: [10, 11],
      startDate: Date.UTC(2025, 5, 1),
      dueDate: Date.UTC(2025, 5, 14),
      createdTime: Date.UTC(2025, 5, 1, 10),
      modifiedTime: Date.UTC(2025, 5, 15),
      overdue: true,
      isPublic: false,
      dueDateSet: true,
      pending: false,
      upcoming: true,
    });
  });

  it.each([
    ['members', '1,x', '"x" is not an integer'],
    ['creators', '3.0', '"3.0" is not an integer'],
    ['isPublic', 'public', 'expected true or false'],
    ['modifiedTime', '2025-6-1', 'is not an ISO 8601 date-time'],
  ])('%s=%j is an issue at its path', (key, value, message) => {
    const result = projectFilterQuerySchema.safeParse({ [key]: value });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toHaveLength(1);
    expect(result.error?.issues[0]?.path).toEqual([key]);
    expect(result.error?.issues[0]?.message).toContain(message);
  });

  it('project sort properties are the DTO names', () => {
    const paging = makePagingQuerySchema(projectSortProperties);
    expect(paging.parse({ sort: ['projectName,desc'] }).sort).toEqual([
      { property: 'projectName', direction: 'desc' },
    ]);
    const bad = paging.safeParse({ sort: 'taskTitle' });
    expect(bad.error?.issues[0]?.path).toEqual(['sort']);
    expect(bad.error?.issues[0]?.message).toContain('allowed: projectId, projectName,');
  });
});

describe('projectFilterToQuery', () => {
  it('round-trips a full filter', () => {
    const full: ProjectFilter = {
      title: 'Web',
      status: ['Active'],
      priority: ['High', 'Low'],
      health: ['On Track'],
      tags: ['web', 'client'],
      creators: [1],
      members: [10, 11],
      startDate: Date.UTC(2025, 5, 1),
      dueDate: Date.UTC(2025, 5, 14, 1, 2, 3, 4),
      createdTime: Date.UTC(2024, 1, 29),
      modifiedTime: Date.UTC(2025, 11, 31, 23, 59, 59, 999),
      overdue: true,
      isPublic: false,
      dueDateSet: true,
      pending: false,
      upcoming: true,
    };
    const query = projectFilterToQuery(full);
    expect(query.members).toEqual(['10', '11']);
    expect(query.isPublic).toBe('false');
    expect(query.startDate).toBe('2025-06-01T00:00:00.000Z');
    expect(projectFilterQuerySchema.parse(query)).toEqual(full);
  });

  it('round-trips any filter (property)', () => {
    const item = fc.string({ minLength: 1 }).filter((s) => s.trim() === s && !s.includes(','));
    const names = fc.uniqueArray(item, { minLength: 1, maxLength: 3 });
    const ids = fc.uniqueArray(fc.integer(), { minLength: 1, maxLength: 3 });
    const date = fc.integer({ min: -62167219200000, max: 253402300799999 });
    const filter: fc.Arbitrary<ProjectFilter> = fc.record(
      {
        title: item,
        status: names,
        priority: names,
        health: names,
        tags: names,
        creators: ids,
        members: ids,
        startDate: date,
        dueDate: date,
        createdTime: date,
        modifiedTime: date,
        overdue: fc.boolean(),
        isPublic: fc.boolean(),
        dueDateSet: fc.boolean(),
        pending: fc.boolean(),
        upcoming: fc.boolean(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(filter, (f) => {
        expect(projectFilterQuerySchema.parse(projectFilterToQuery(f))).toEqual(f);
      }),
      { numRuns: 200 },
    );
  });
});
