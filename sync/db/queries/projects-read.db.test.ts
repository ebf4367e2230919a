import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ListProjectFilter,
  PagingRequest,
  ProjectFilter,
  SortKey,
} from '../../../shared/filters';
import { listProjects, readProject, readProjects } from './projects-read';
import { writeProject } from './projects-write';
import {
  at,
  DAY,
  NOW,
  openTestReplica,
  projectDto,
  projectSpecs,
  seedReplica,
  type TestReplica,
} from './read.fixture';

let t: TestReplica;
beforeAll(() => {
  t = openTestReplica();
  seedReplica(t.replica);
});
afterAll(() => t.close());

const spec = (id: number) => {
  const s = projectSpecs.find((p) => p.projectId === id);
  if (!s) throw new Error(`no project ${id}`);
  return s;
};

describe('readProjects: the project DTO the server sent', () => {
  it('gives back every project as written', () => {
    for (const s of projectSpecs) {
      expect(readProject(t.replica.db, s.projectId, NOW), `project ${s.projectId}`).toEqual(
        projectDto(s),
      );
    }
  });

  it('tags and members in the order of their ids, custom field definitions without values', () => {
    const p = readProject(t.replica.db, 100, NOW);
    expect(p?.projectTags?.map((x) => x.projectTagId)).toEqual([1001, 1002]);
    expect(p?.projectMembers?.map((m) => m.user?.userId)).toEqual([1, 2]);
    expect(p?.customFields?.map((f) => [f.fieldName, f.fieldValue])).toEqual([
      ['Client', []],
      ['Deadline', []],
      ['Stage', []],
    ]);
    expect(readProject(t.replica.db, 110, NOW)?.customFields).toEqual([]);
  });

  it('overdue against the given clock; a completed project never is', () => {
    expect(readProject(t.replica.db, 101, NOW)?.overdue).toBe(false);
    expect(readProject(t.replica.db, 101, NOW + 4 * DAY)?.overdue).toBe(true);
    expect(readProject(t.replica.db, 102, NOW)?.overdue).toBe(false);
  });

  it('spaceName follows the space the replica holds now', () => {
    const { replica, close } = openTestReplica();
    try {
      seedReplica(replica);
      replica.db.prepare("UPDATE spaces SET space_name = 'Renamed' WHERE space_id = 10").run();
      expect(readProject(replica.db, 100, NOW)?.spaceName).toBe('Renamed');
      writeProject(replica.db, { ...projectDto(spec(100)), projectName: 'Alpha 2' });
      expect(readProject(replica.db, 100, NOW)?.projectName).toBe('Alpha 2');
    } finally {
      close();
    }
  });

  it('answers in the order asked, skipping unknown ids', () => {
    expect(readProjects(t.replica.db, [110, 7, 100], NOW).map((p) => p.projectId)).toEqual([
      110, 100,
    ]);
    expect(readProject(t.replica.db, 7, NOW)).toBeNull();
  });
});

const query = (q: Partial<PagingRequest> & ProjectFilter = {}): PagingRequest & ProjectFilter => ({
  page: 0,
  size: 100,
  sort: [],
  ...q,
});
const ids = (q: Partial<PagingRequest> & ProjectFilter = {}, spaceId = 10) =>
  listProjects(t.replica.db, spaceId, query(q), NOW).content.map((p) => p.projectId);
const sort = (property: string, direction: SortKey['direction'] = 'asc'): SortKey => ({
  property,
  direction,
});

describe('listProjects: a space, every filter and sort', () => {
  it('lists the projects of one space', () => {
    expect(ids()).toEqual([100, 101, 102, 103]);
    expect(ids({}, 11)).toEqual([110]);
    expect(ids({}, 99)).toEqual([]);
  });

  it.each<[string, ProjectFilter, number[]]>([
    ['title, any case', { title: 'BETA' }, [101]],
    ['title, % literal', { title: '100%' }, [103]],
    ['title, _ literal', { title: '_' }, [102]],
    ['status name', { status: ['active'] }, [100, 101, 103]],
    ['status closed', { status: ['Closed'] }, [102]],
    ['priority label, any case', { priority: ['HIGH'] }, [100, 103]],
    ['health label', { health: ['at risk'] }, [101]],
    ['tags', { tags: ['WEB'] }, [100]],
    ['tags, any of', { tags: ['finance', 'q3'] }, [100, 101]],
    ['creators', { creators: [2] }, [101]],
    ['members', { members: [2] }, [100, 101]],
    ['members, another', { members: [3] }, [102]],
    ['startDate, same UTC day', { startDate: at('06-05T20:00') }, [101]],
    ['dueDate, same UTC day', { dueDate: at('06-14') }, [100]],
    ['createdTime, same UTC day', { createdTime: at('05-03T12:00') }, [102, 103]],
    ['modifiedTime, same UTC day', { modifiedTime: at('06-14') }, [101, 102, 103]],
    ['overdue', { overdue: true }, [100]],
    ['not overdue', { overdue: false }, [101, 102, 103]],
    ['isPublic', { isPublic: true }, [101]],
    ['not public', { isPublic: false }, [100, 102, 103]],
    ['dueDateSet', { dueDateSet: true }, [100, 101, 102]],
    ['no due date', { dueDateSet: false }, [103]],
    ['pending', { pending: true }, [100, 101, 103]],
    ['complete', { pending: false }, [102]],
    ['upcoming', { upcoming: true }, [101]],
    ['ANDed', { priority: ['high'], dueDateSet: true }, [100]],
  ])('%s', (_name, filter, expected) => {
    expect(ids(filter)).toEqual(expected);
  });

  it.each<[string, SortKey[], number[]]>([
    ['no sort: by id', [], [100, 101, 102, 103]],
    ['projectId desc', [sort('projectId', 'desc')], [103, 102, 101, 100]],
    ['projectName, case-insensitive', [sort('projectName')], [100, 101, 103, 102]],
    ['dueDate asc, nulls last', [sort('dueDate')], [102, 100, 101, 103]],
    ['dueDate desc, nulls last', [sort('dueDate', 'desc')], [101, 100, 102, 103]],
    ['startDate asc, nulls last', [sort('startDate')], [100, 101, 102, 103]],
    ['createdTime desc, id breaks ties', [sort('createdTime', 'desc')], [102, 103, 101, 100]],
    ['modifiedTime asc', [sort('modifiedTime')], [101, 102, 103, 100]],
    ['completion desc', [sort('completion', 'desc')], [102, 101, 100, 103]],
  ])('sort %s', (_name, keys, expected) => {
    expect(ids({ sort: keys })).toEqual(expected);
  });

  it('pages like Spring', () => {
    const second = listProjects(t.replica.db, 10, query({ size: 3, page: 1 }), NOW);
    expect(second.content.map((p) => p.projectId)).toEqual([103]);
    expect(second).toMatchObject({
      totalElements: 4,
      totalPages: 2,
      number: 1,
      last: true,
      first: false,
    });
    expect(listProjects(t.replica.db, 10, query({ size: 3 }), NOW).content[0]).toEqual(
      projectDto(spec(100)),
    );
  });
});

describe('listProjects: date ranges and Done %', () => {
  const ranged = (filter: ListProjectFilter, now = NOW) =>
    listProjects(t.replica.db, 10, { ...query(), ...filter }, now).content.map((p) => p.projectId);
  const zone = { timeZone: 'America/Los_Angeles', weekStartsOn: 1 };

  it('due this week and next week in the user zone, overdue, no date', () => {
    expect(ranged({ ...zone, dates: [{ column: 'dueDate', op: 'thisWeek' }] })).toEqual([100]);
    expect(ranged({ ...zone, dates: [{ column: 'dueDate', op: 'nextWeek' }] })).toEqual([101]);
    expect(ranged({ ...zone, dates: [{ column: 'dueDate', op: 'overdue' }] })).toEqual([100, 102]);
    expect(ranged({ dates: [{ column: 'dueDate', op: 'none' }] })).toEqual([103]);
    // Monday 03:00 UTC is Sunday evening in Los Angeles: June 14 is still this week there.
    const monday = Date.parse('2025-06-16T03:00:00Z');
    expect(ranged({ ...zone, dates: [{ column: 'dueDate', op: 'thisWeek' }] }, monday)).toEqual([
      100,
    ]);
    expect(
      ranged({ timeZone: 'UTC', dates: [{ column: 'dueDate', op: 'thisWeek' }] }, monday),
    ).toEqual([101]);
  });

  it('start date between two days; Done % compared', () => {
    const between = { column: 'startDate', op: 'between', from: '2025-06-02', to: '2025-06-09' };
    expect(ranged({ dates: [between as NonNullable<ListProjectFilter['dates']>[number]] })).toEqual(
      [101],
    );
    expect(ranged({ numbers: [{ column: 'completion', op: 'ge', value: 60 }] })).toEqual([
      101, 102,
    ]);
    expect(ranged({ numbers: [{ column: 'completion', op: 'lt', value: 30 }] })).toEqual([103]);
  });
});
