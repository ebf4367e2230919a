import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Task, task } from '../../../shared/api';
import type { PagingRequest, SortKey, TaskFilter } from '../../../shared/filters';
import {
  at,
  CLIENT,
  DAY,
  LOST_ON_WRITE,
  NOW,
  openTestReplica,
  seedReplica,
  type TestReplica,
  taskDto,
  taskSpecs,
  without,
} from './read.fixture';
import { listTasks, readTask, readTasks, type TaskScope } from './tasks-read';
import { writeTask } from './tasks-write';

let t: TestReplica;
beforeAll(() => {
  t = openTestReplica();
  seedReplica(t.replica);
});
afterAll(() => t.close());

const expected = (id: number): Task => {
  const spec = taskSpecs.find((s) => s.taskId === id);
  if (!spec) throw new Error(`no spec ${id}`);
  return task.parse(taskDto(spec));
};

describe('readTasks: the TaskDto the server sent', () => {
  it('gives back every task as written, custom fields and unknown fields included', () => {
    for (const spec of taskSpecs) {
      const sent = expected(spec.taskId);
      const [read] = readTasks(t.replica.db, [spec.taskId], NOW);
      expect(read, `task ${spec.taskId}`).toEqual(without(sent, LOST_ON_WRITE.task));
      // A field the writer drops is absent, never wrong.
      for (const key of LOST_ON_WRITE.task)
        if (read && key in read) expect(read[key]).toEqual(sent[key]);
    }
  });

  it('custom fields: the space-level then the project fields, values or an empty list', () => {
    const [one] = readTasks(t.replica.db, [1], NOW);
    expect(one?.customFields?.map((f) => [f.fieldName, f.fieldValue])).toEqual([
      ['Client', [{ taskId: 1, value: 'Acme Corp' }]],
      ['Deadline', [{ taskId: 1, value: at('06-20') }]],
      ['Stage', [{ taskId: 1, value: 'Design' }]],
    ]);
    const [seven] = readTasks(t.replica.db, [7], NOW);
    expect(seven?.customFields?.map((f) => [f.fieldName, f.fieldValue])).toEqual([
      ['Client', []],
      ['Deadline', []],
      ['Points', [{ taskId: 7, value: 8 }]],
    ]);
    expect(readTask(t.replica.db, 9, NOW)?.customFields).toEqual([]);
  });

  it('keeps fields this version does not model', () => {
    expect(readTask(t.replica.db, 8, NOW)).toMatchObject({ sprint: { name: 'S24', goal: 42 } });
  });

  it('computes overdue against the given clock, never for a complete task', () => {
    expect(readTask(t.replica.db, 2, NOW)?.overdue).toBe(false);
    expect(readTask(t.replica.db, 2, at('06-16T09:00') + 1)?.overdue).toBe(true);
    expect(readTask(t.replica.db, 3, at('07-01'))?.overdue).toBe(false);
  });

  it('answers in the order asked, skipping unknown ids and repeats', () => {
    expect(readTasks(t.replica.db, [8, 999, 1, 8], NOW).map((x) => x.taskId)).toEqual([8, 1]);
    expect(readTasks(t.replica.db, [], NOW)).toEqual([]);
    expect(readTask(t.replica.db, 999, NOW)).toBeNull();
  });

  it('reads a later server answer over the earlier one (no stale extra, values replaced)', () => {
    const { replica, close } = openTestReplica();
    try {
      seedReplica(replica);
      const changed = task.parse({ ...expected(1), taskTitle: 'Write the spec', tags: ['urgent'] });
      changed.customFields = changed.customFields?.map((f) =>
        f.taskCustomFieldId === CLIENT ? { ...f, fieldValue: [] } : f,
      );
      writeTask(replica.db, changed);
      expect(readTask(replica.db, 1, NOW)).toEqual(without(changed, LOST_ON_WRITE.task));
    } finally {
      close();
    }
  });
});

const page = (query: Partial<PagingRequest> & TaskFilter = {}): PagingRequest & TaskFilter => ({
  page: 0,
  size: 100,
  sort: [],
  ...query,
});
const ids = (scope: TaskScope, query: Partial<PagingRequest> & TaskFilter = {}, now = NOW) =>
  listTasks(t.replica.db, scope, page(query), now).content.map((x) => x.taskId);
const alpha: TaskScope = { kind: 'project', projectId: 100 };
const sort = (property: string, direction: SortKey['direction'] = 'asc'): SortKey => ({
  property,
  direction,
});

describe('listTasks: scopes (the server list operations)', () => {
  it('project: its top-level tasks', () => {
    expect(ids(alpha)).toEqual([1, 2, 3, 4]);
    expect(ids({ kind: 'project', projectId: 101 })).toEqual([7, 8]);
    expect(ids({ kind: 'project', projectId: 110 })).toEqual([]);
  });

  it('subtasks: the tasks under a parent', () => {
    expect(ids({ kind: 'subtasks', parentTaskId: 1 })).toEqual([5, 6]);
    expect(ids({ kind: 'subtasks', parentTaskId: 9 })).toEqual([13]);
    expect(ids({ kind: 'subtasks', parentTaskId: 2 })).toEqual([]);
  });

  it('personal: top-level tasks in no project the user created or owns', () => {
    expect(ids({ kind: 'personal', userId: 1 })).toEqual([9, 10, 12, 14, 15]);
    expect(ids({ kind: 'personal', userId: 2 })).toEqual([10, 11]);
    expect(ids({ kind: 'personal', userId: 3 })).toEqual([]);
  });

  it('all: every task of the replica', () => {
    expect(ids({ kind: 'all' })).toEqual(taskSpecs.map((s) => s.taskId));
  });
});

describe('listTasks: every filter, with the shared semantics', () => {
  it.each<[string, TaskFilter, number[]]>([
    ['title, case-insensitive substring', { title: 'SPEC' }, [1, 2]],
    ['title, LIKE wildcards literal', { title: '50%' }, [3]],
    ['title, non-ASCII as typed', { title: 'café' }, [4]],
    ['status, any name, any case', { status: ['to do', 'IN PROGRESS'] }, [1, 2, 4]],
    ['status done', { status: ['done'] }, [3]],
    ['priority', { priority: ['urgent', 'low'] }, [3, 4]],
    ['tags, any case', { tags: ['BACKEND'] }, [1, 2]],
    ['tags, unknown ignored', { tags: ['frontend', 'nope'] }, [3]],
    ['creators', { creators: [3] }, [3, 4]],
    ['owners, any owner', { owners: [2] }, [1, 2]],
    ['startDate, same UTC day', { startDate: at('06-10T23:00') }, [1]],
    ['dueDate, same UTC day', { dueDate: at('06-16') }, [2]],
    ['createdTime, same UTC day', { createdTime: at('06-02T23:59') }, [2]],
    ['modifiedTime, same UTC day', { modifiedTime: at('06-14') }, [2]],
    ['overdue', { overdue: true }, [1]],
    ['not overdue', { overdue: false }, [2, 3, 4]],
    ['upcoming', { upcoming: true }, [2]],
    ['not upcoming', { upcoming: false }, [1, 3, 4]],
    ['pending', { pending: true }, [1, 2, 4]],
    ['not pending', { pending: false }, [3]],
    ['dueDateSet', { dueDateSet: true }, [1, 2, 3]],
    ['no due date', { dueDateSet: false }, [4]],
    ['filters are ANDed', { status: ['To Do'], owners: [3] }, [4]],
  ])('%s', (_name, filter, expectedIds) => {
    expect(ids(alpha, filter)).toEqual(expectedIds);
  });

  it.each<[string, TaskFilter['customFields'], number[]]>([
    ['IS, text, any case', [{ field: 'client', condition: 'IS', value: ['ACME CORP'] }], [1, 2]],
    ['CONTAINS', [{ field: 'Client', condition: 'CONTAINS', value: ['corp'] }], [1, 2]],
    [
      'ISEMPTY: empty text or no value',
      [{ field: 'Client', condition: 'ISEMPTY', value: [] }],
      [3, 4],
    ],
    ['ISNOTEMPTY', [{ field: 'Client', condition: 'ISNOTEMPTY', value: [] }], [1, 2]],
    [
      'IS on a dropdown: the option name',
      [{ field: 'Stage', condition: 'IS', value: ['build'] }],
      [2],
    ],
    [
      'ISNOT: no value counts',
      [{ field: 'Stage', condition: 'ISNOT', value: ['design'] }],
      [2, 3, 4],
    ],
    ['TODAY on a DATE field', [{ field: 'Deadline', condition: 'TODAY', value: [] }], [2]],
    [
      'AFTER on a DATE field',
      [{ field: 'Deadline', condition: 'AFTER', value: [at('06-16')] }],
      [1],
    ],
    [
      'BETWEEN, both ends inclusive',
      [{ field: 'Deadline', condition: 'BETWEEN', value: [at('06-20'), at('06-15T08:00')] }],
      [1, 2],
    ],
  ])('customFields %s', (_name, customFields, expectedIds) => {
    expect(ids(alpha, { customFields })).toEqual(expectedIds);
  });

  it('customFields on a project field and a NUMBER value, over every task', () => {
    expect(
      ids({ kind: 'all' }, { customFields: [{ field: 'Points', condition: 'IS', value: ['8'] }] }),
    ).toEqual([7]);
  });

  it('the clock anchors overdue and upcoming', () => {
    expect(ids(alpha, { overdue: true }, at('06-17'))).toEqual([1, 2]);
    expect(ids({ kind: 'project', projectId: 101 }, { upcoming: true })).toEqual([8]);
    expect(ids({ kind: 'project', projectId: 101 }, { upcoming: true }, NOW + DAY)).toEqual([7, 8]);
  });
});

describe('listTasks: sorting and paging', () => {
  it.each<[string, SortKey[], number[]]>([
    ['no sort: by id', [], [1, 2, 3, 4]],
    ['taskId desc', [sort('taskId', 'desc')], [4, 3, 2, 1]],
    ['dueDate asc, nulls last', [sort('dueDate')], [3, 1, 2, 4]],
    ['dueDate desc, nulls last', [sort('dueDate', 'desc')], [2, 1, 3, 4]],
    ['taskTitle, case-insensitive', [sort('taskTitle')], [4, 2, 3, 1]],
    ['status by name, id breaks ties', [sort('status')], [3, 2, 1, 4]],
    ['priority desc by name', [sort('priority', 'desc')], [4, 2, 3, 1]],
    ['completion desc', [sort('completion', 'desc')], [3, 2, 4, 1]],
    ['startDate asc, nulls last', [sort('startDate')], [1, 2, 3, 4]],
    ['startDate desc, nulls last', [sort('startDate', 'desc')], [2, 1, 3, 4]],
    ['createdTime desc', [sort('createdTime', 'desc')], [4, 3, 2, 1]],
    ['modifiedTime asc', [sort('modifiedTime')], [3, 4, 2, 1]],
    ['several keys', [sort('status'), sort('taskId', 'desc')], [3, 2, 4, 1]],
  ])('%s', (_name, keys, expectedIds) => {
    expect(ids(alpha, { sort: keys })).toEqual(expectedIds);
  });

  it('pages like Spring, also past the end', () => {
    const all: TaskScope = { kind: 'all' };
    const first = listTasks(t.replica.db, all, page({ size: 4 }), NOW);
    expect(first).toMatchObject({
      totalElements: 15,
      totalPages: 4,
      size: 4,
      number: 0,
      first: true,
      last: false,
      numberOfElements: 4,
      empty: false,
    });
    expect(first.content.map((x) => x.taskId)).toEqual([1, 2, 3, 4]);
    const last = listTasks(t.replica.db, all, page({ size: 4, page: 3 }), NOW);
    expect(last.content.map((x) => x.taskId)).toEqual([13, 14, 15]);
    expect(last).toMatchObject({ first: false, last: true, numberOfElements: 3 });
    const past = listTasks(t.replica.db, all, page({ size: 4, page: 5 }), NOW);
    expect(past).toMatchObject({
      content: [],
      totalElements: 15,
      number: 5,
      empty: true,
      last: true,
    });
  });

  it('pages of a sorted, filtered list neither overlap nor skip', () => {
    const seen: number[] = [];
    const query = { size: 2, sort: [sort('status')], pending: true };
    for (let p = 0; p < 7; p++) seen.push(...ids({ kind: 'all' }, { ...query, page: p }));
    expect(seen).toEqual(ids({ kind: 'all' }, { ...query, size: 100 }));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(12);
  });

  it('page items are full DTOs', () => {
    const [first] = listTasks(t.replica.db, alpha, page({ size: 1 }), NOW).content;
    expect(first).toEqual(without(expected(1), LOST_ON_WRITE.task));
  });
});
