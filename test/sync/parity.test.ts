/**
 * Offline parity: a list read from the replica is the list the server answers, id for id, in
 * the same order, with the same totals. The demo server is bootstrapped into one replica per
 * org; then a battery of queries built from the data's own values (every filter alone, every
 * customFields condition on the demo's fields, sorts, paging) and a fast-check property of
 * random combinations are asked of both sides with the same `now`.
 *
 * The server's clock is pinned to `nowMs` with `setOffset` right before each request (its
 * clock is real time plus an offset); `nowMs` is chosen at least a minute away from every due
 * date and its 7-day horizon, and from a UTC midnight, so the few ms a request takes can never
 * move a task across the overdue / upcoming / TODAY boundaries.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import {
  type CustomFieldCondition,
  type Page,
  type ProjectFilter,
  projectFilterToQuery,
  projectSortProperties,
  type SortKey,
  type TaskFilter,
  taskFilterToQuery,
  taskSortProperties,
} from '../../shared/filters';
import type { ApiClient } from '../../sync/api';
import { listProjects } from '../../sync/db/queries/projects-read';
import { listTasks, type TaskScope, taskScopeSql } from '../../sync/db/queries/tasks-read';
import { Replica } from '../../sync/db/replica';
import { pullAll } from '../../sync/engine/pull';
import { demoClient, startDemoServer, tempDir } from './support';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const dayStart = (ms: number) => Math.floor(ms / DAY) * DAY;

type RawQuery = Record<string, string | string[] | number>;

interface Paging {
  page: number;
  size: number;
  sort: SortKey[];
}
const WHOLE: Paging = { page: 0, size: 100, sort: [] };

interface Shown {
  ids: number[];
  totalElements: number;
  totalPages: number;
}
const shown = <T>(page: Page<T>, id: (item: T) => number): Shown => ({
  ids: page.content.map(id),
  totalElements: page.totalElements,
  totalPages: page.totalPages,
});

interface TaskTarget {
  label: string;
  scope: TaskScope;
  fetch: (query: RawQuery) => Promise<Page<{ taskId: number }>>;
}

interface Org {
  orgId: number;
  client: ApiClient;
  replica: Replica;
  userId: number;
  taskTargets: TaskTarget[];
  spaceIds: number[];
  statuses: string[];
  priorities: string[];
  conditions: CustomFieldCondition[][];
}

let server: RunningServer;
let nowMs = 0;
const orgs: Org[] = [];
const dir = tempDir('wt-parity-');

/** Pins the server's clock to `nowMs` (real time + offset) for the request about to go. */
const pin = () => server.deps.clock.setOffset(nowMs - Date.now());

const rows = <T>(org: Org, sql: string, ...params: unknown[]): T[] =>
  org.replica.db.prepare(sql).all(...params) as T[];

const sortParam = (sort: readonly SortKey[]): Record<string, string[]> =>
  sort.length ? { sort: sort.map((k) => `${k.property},${k.direction}`) } : {};

const taskQuery = (filter: TaskFilter, p: Paging): RawQuery => ({
  ...taskFilterToQuery(filter),
  page: p.page,
  size: p.size,
  ...sortParam(p.sort),
});

const projectQuery = (filter: ProjectFilter, p: Paging): RawQuery => ({
  ...projectFilterToQuery(filter),
  page: p.page,
  size: p.size,
  ...sortParam(p.sort),
});

interface Outcome {
  label: string;
  server: Shown;
  replica: Shown;
}
const same = (o: Outcome) => JSON.stringify(o.server) === JSON.stringify(o.replica);

const compareTasks = async (
  org: Org,
  target: TaskTarget,
  filter: TaskFilter,
  p: Paging = WHOLE,
): Promise<Outcome> => {
  const query = taskQuery(filter, p);
  pin();
  const remote = await target.fetch(query);
  const local = listTasks(org.replica.db, target.scope, { ...filter, ...p }, nowMs);
  return {
    label: `org ${org.orgId} ${target.label} ${JSON.stringify(query)}`,
    server: shown(remote, (t) => t.taskId),
    replica: shown(local, (t) => t.taskId),
  };
};

const compareProjects = async (
  org: Org,
  spaceId: number,
  filter: ProjectFilter,
  p: Paging = WHOLE,
): Promise<Outcome> => {
  const query = projectQuery(filter, p);
  pin();
  const remote = await org.client.ops.getAll_2({ path: { spaceId }, query });
  const local = listProjects(org.replica.db, spaceId, { ...filter, ...p }, nowMs);
  return {
    label: `org ${org.orgId} space ${spaceId} ${JSON.stringify(query)}`,
    server: shown(remote, (x) => x.projectId),
    replica: shown(local, (x) => x.projectId),
  };
};

/** Runs comparisons a few at a time; answers every mismatch (at most 10 shown in full). */
const runAll = async (jobs: (() => Promise<Outcome>)[]) => {
  const outcomes: Outcome[] = [];
  for (let i = 0; i < jobs.length; i += 8)
    outcomes.push(...(await Promise.all(jobs.slice(i, i + 8).map((job) => job()))));
  const bad = outcomes.filter((o) => !same(o));
  return { outcomes, bad: bad.slice(0, 10), badCount: bad.length };
};

const expectParity = (result: Awaited<ReturnType<typeof runAll>>) => {
  expect(result.badCount, JSON.stringify(result.bad, null, 1)).toBe(0);
};

// ---- values taken from the data ------------------------------------------------------------

const distinct = <T>(xs: readonly T[]) => [...new Set(xs)];
const firstN = <T>(xs: readonly T[], n: number) => xs.slice(0, n);

/** Scope rows of a target, as plain SQL over the replica (only to pick values). */
const scopeRows = (org: Org, scope: TaskScope) => {
  const w = taskScopeSql(scope);
  return rows<{
    task_id: number;
    title: string;
    created_by: number;
    start_date: number | null;
    due_date: number | null;
    created_time: number;
    modified_time: number;
  }>(
    org,
    `SELECT t.task_id, t.title, t.created_by, t.start_date, t.due_date, t.created_time, t.modified_time
     FROM tasks t WHERE ${w.sql} ORDER BY t.task_id`,
    ...w.params,
  );
};

/** A word of a title, a middle piece in upper case, text matching nothing, LIKE wildcards. */
const titleProbes = (titles: readonly string[]): string[] => {
  const out = ['zzqx-nothing', '%', '_', 'a_b'];
  const [a, b] = titles;
  if (a) out.push(a.split(' ')[0] ?? a);
  if (b && b.length > 4) out.push(b.slice(1, Math.min(b.length, 6)).toUpperCase());
  return out;
};

/** Two instants on the UTC day of `ms`: itself and just before the next midnight. */
const sameDays = (ms: number | null | undefined): number[] =>
  ms === null || ms === undefined ? [] : [ms, dayStart(ms) + DAY - 1];

const singleTaskFilters = (org: Org, scope: TaskScope): TaskFilter[] => {
  const r = scopeRows(org, scope);
  const ids = JSON.stringify(r.map((x) => x.task_id));
  const tags = rows<{ name: string }>(
    org,
    'SELECT DISTINCT name FROM task_tags WHERE task_id IN (SELECT value FROM json_each(?)) ORDER BY name',
    ids,
  ).map((x) => x.name);
  const owners = rows<{ user_id: number }>(
    org,
    'SELECT DISTINCT user_id FROM task_owners WHERE task_id IN (SELECT value FROM json_each(?)) ORDER BY user_id',
    ids,
  ).map((x) => x.user_id);
  const creators = distinct(r.map((x) => x.created_by)).sort((a, b) => a - b);
  const pick = (k: 'start_date' | 'due_date' | 'created_time' | 'modified_time') =>
    r.find((x) => x[k] !== null)?.[k];
  const filters: TaskFilter[] = [{}];
  for (const title of titleProbes(r.map((x) => x.title))) filters.push({ title });
  for (const s of org.statuses) filters.push({ status: [s] });
  filters.push({ status: org.statuses.slice(0, 2).map((s) => s.toUpperCase()) });
  for (const s of org.priorities) filters.push({ priority: [s] });
  filters.push({ priority: org.priorities.slice(1, 3).map((s) => s.toLowerCase()) });
  for (const t of firstN(tags, 4)) filters.push({ tags: [t] });
  if (tags.length > 1) filters.push({ tags: [tags[0]!.toUpperCase(), tags.at(-1)!] });
  for (const c of firstN(creators, 3)) filters.push({ creators: [c] });
  filters.push({ creators: [...creators.slice(0, 2), 9999] });
  for (const o of firstN(owners, 3)) filters.push({ owners: [o] });
  filters.push({ owners: [...owners.slice(-2), 9999] });
  for (const ms of sameDays(pick('start_date'))) filters.push({ startDate: ms });
  for (const ms of sameDays(pick('due_date'))) filters.push({ dueDate: ms });
  for (const ms of sameDays(pick('created_time'))) filters.push({ createdTime: ms });
  for (const ms of sameDays(pick('modified_time'))) filters.push({ modifiedTime: ms });
  for (const v of [true, false]) {
    filters.push({ overdue: v }, { dueDateSet: v }, { pending: v }, { upcoming: v });
  }
  // A few combinations: filters AND together.
  filters.push(
    { status: org.statuses.slice(0, 2), pending: true },
    { overdue: false, dueDateSet: true, owners: owners.slice(0, 1) },
    { priority: org.priorities.slice(0, 3), upcoming: false, tags: tags.slice(0, 3) },
  );
  return filters;
};

/** Every condition on every custom field name of the org, with values from its data. */
const customFieldConditions = (org: Org): CustomFieldCondition[][] => {
  const fields = rows<{ field_id: number; name: string; field_type: string; definition: string }>(
    org,
    'SELECT field_id, name, field_type, definition FROM custom_fields ORDER BY field_id',
  );
  const out: CustomFieldCondition[][] = [];
  const one = (c: CustomFieldCondition) => out.push([c]);
  for (const f of fields) {
    const field = f.name;
    const values = rows<{ text: string | null; num: number | null }>(
      org,
      'SELECT text, num FROM custom_field_values WHERE field_id = ? ORDER BY task_id',
      f.field_id,
    );
    one({ field, condition: 'ISEMPTY', value: [] });
    one({ field, condition: 'ISNOTEMPTY', value: [] });
    one({ field: field.toUpperCase(), condition: 'ISNOTEMPTY', value: [] });
    const text = values.find((v) => v.text)?.text ?? 'x';
    const mid = text.length > 2 ? text.slice(1, -1) : text;
    one({ field, condition: 'IS', value: [text] });
    one({ field, condition: 'IS', value: [text.toUpperCase()] });
    one({ field, condition: 'ISNOT', value: [text] });
    one({ field, condition: 'CONTAINS', value: [mid.toLowerCase()] });
    one({ field, condition: 'NOTCONTAINS', value: [mid] });
    one({ field, condition: 'STARTSWITH', value: [text.slice(0, 2)] });
    one({ field, condition: 'ENDSWITH', value: [text.slice(-2)] });
    const type = f.field_type.toUpperCase();
    if (type === 'DROPDOWN') {
      const def = JSON.parse(f.definition) as { customFieldOption?: { optionName: string }[] };
      for (const o of def.customFieldOption ?? []) {
        one({ field, condition: 'IS', value: [o.optionName] });
        one({ field, condition: 'ISNOT', value: [o.optionName.toLowerCase()] });
      }
    }
    if (type === 'CHECKBOX') {
      for (const v of ['true', 'false']) {
        one({ field, condition: 'IS', value: [v] });
        one({ field, condition: 'ISNOT', value: [v] });
      }
    }
    const nums = values.flatMap((v) => (v.num === null ? [] : [v.num]));
    const n = nums[0] ?? nowMs;
    // Date conditions on every type: a non-DATE field matches nothing, on both sides.
    one({ field, condition: 'BEFORE', value: [n] });
    one({ field, condition: 'AFTER', value: [n] });
    one({ field, condition: 'TODAY', value: [] });
    one({ field, condition: 'TOMORROW', value: [] });
    if (type === 'DATE') {
      const sorted = [...nums].sort((a, b) => a - b);
      const lo = sorted[Math.floor(sorted.length / 4)] ?? n;
      const hi = sorted[Math.floor((3 * sorted.length) / 4)] ?? n;
      one({ field, condition: 'IS', value: [String(n + 5 * HOUR)] });
      one({ field, condition: 'ISNOT', value: [String(n)] });
      one({ field, condition: 'IS', value: ['not-a-date'] });
      one({ field, condition: 'BEFORE', value: [nowMs] });
      one({ field, condition: 'AFTER', value: [nowMs] });
      one({ field, condition: 'BETWEEN', value: [lo, hi] });
      one({ field, condition: 'BETWEEN', value: [hi, lo] });
      one({ field, condition: 'BETWEEN', value: [n, n] });
      one({ field, condition: 'NOTBETWEEN', value: [lo, hi] });
      one({ field, condition: 'NOTBETWEEN', value: [hi, lo] });
      for (const d of [-1, 0, 1, 2]) {
        const day = dayStart(nowMs) + d * DAY;
        one({ field, condition: 'BETWEEN', value: [day, day + DAY - 1] });
      }
    }
  }
  out.push([{ field: 'No Such Field', condition: 'IS', value: ['x'] }]);
  out.push([{ field: 'No Such Field', condition: 'ISEMPTY', value: [] }]);
  out.push([{ field: 'No Such Field', condition: 'ISNOT', value: ['x'] }]);
  // Two conditions AND together.
  const [a, b] = fields;
  if (a && b) {
    out.push([
      { field: a.name, condition: 'ISNOTEMPTY', value: [] },
      { field: b.name, condition: 'ISEMPTY', value: [] },
    ]);
  }
  return out;
};

const sortBattery = <P extends string>(props: readonly P[]): SortKey[][] => {
  const out: SortKey[][] = [];
  for (const property of props)
    for (const direction of ['asc', 'desc'] as const) out.push([{ property, direction }]);
  const n = props.length;
  props.forEach((p, i) => {
    out.push([
      { property: p, direction: i % 2 ? 'desc' : 'asc' },
      { property: props[(i + 3) % n]!, direction: 'desc' },
      { property: props[(i + 5) % n]!, direction: 'asc' },
    ]);
  });
  return out;
};

const pagings = (sort: SortKey[]): Paging[] =>
  [0, 1, 2].flatMap((page) => [1, 7, 20, 100].map((size) => ({ page, size, sort })));

// ---- setup -----------------------------------------------------------------------------------

/** `now` clear of every boundary a request's few ms could cross. */
const chooseNow = (start: number): number => {
  const dues = (
    server.deps.db
      .prepare(
        'SELECT due_date AS d FROM tasks WHERE due_date IS NOT NULL UNION SELECT due_date FROM projects WHERE due_date IS NOT NULL',
      )
      .all() as { d: number }[]
  ).map((r) => r.d);
  const clear = (n: number) =>
    n - dayStart(n) > MINUTE &&
    dayStart(n) + DAY - n > MINUTE &&
    dues.every((d) => Math.abs(d - n) > MINUTE && Math.abs(d - (n + 7 * DAY)) > MINUTE);
  let n = start;
  while (!clear(n)) n += MINUTE;
  return n;
};

const setUpOrg = async (orgId: number): Promise<Org> => {
  const client = await demoClient(server, orgId);
  const replica = Replica.openFile(join(dir, `org${orgId}.sqlite`));
  await pullAll(replica, client);
  const userId = client.session.user?.userId;
  if (userId === undefined) throw new Error('signed in without a user');
  const org: Org = {
    orgId,
    client,
    replica,
    userId,
    taskTargets: [],
    spaceIds: [],
    statuses: [],
    priorities: [],
    conditions: [],
  };
  org.statuses = rows<{ s: string }>(org, 'SELECT DISTINCT status AS s FROM tasks ORDER BY s').map(
    (x) => x.s,
  );
  org.priorities = rows<{ p: string }>(
    org,
    'SELECT DISTINCT priority AS p FROM tasks ORDER BY p',
  ).map((x) => x.p);
  org.spaceIds = rows<{ space_id: number }>(
    org,
    'SELECT space_id FROM spaces ORDER BY space_id',
  ).map((x) => x.space_id);

  const targets: TaskTarget[] = [
    {
      label: 'personal',
      scope: { kind: 'personal', userId },
      fetch: (query) => client.ops.getAll({ query }),
    },
  ];
  for (const p of rows<{ project_id: number; space_id: number }>(
    org,
    'SELECT project_id, space_id FROM projects ORDER BY project_id',
  )) {
    targets.push({
      label: `project ${p.project_id}`,
      scope: { kind: 'project', projectId: p.project_id },
      fetch: (query) =>
        client.ops.getAllTasksInProject_1({
          path: { spaceId: p.space_id, projectId: p.project_id },
          query,
        }),
    });
  }
  // Parents with the most subtasks: three personal, three in projects.
  const parents = (personal: boolean) =>
    rows<{ task_id: number; space_id: number | null; project_id: number | null }>(
      org,
      `SELECT p.task_id, p.space_id, p.project_id FROM tasks p
       WHERE p.parent_task_id IS NULL AND (p.project_id IS NULL) = ?
         AND EXISTS (SELECT 1 FROM tasks c WHERE c.parent_task_id = p.task_id)
       ORDER BY (SELECT COUNT(*) FROM tasks c WHERE c.parent_task_id = p.task_id) DESC, p.task_id LIMIT 3`,
      personal ? 1 : 0,
    );
  for (const p of parents(true)) {
    targets.push({
      label: `personal subtasks of ${p.task_id}`,
      scope: { kind: 'subtasks', parentTaskId: p.task_id },
      fetch: (query) =>
        client.ops.getPersonalSubtasks({ path: { parentTaskId: p.task_id }, query }),
    });
  }
  for (const p of parents(false)) {
    targets.push({
      label: `project subtasks of ${p.task_id}`,
      scope: { kind: 'subtasks', parentTaskId: p.task_id },
      fetch: (query) =>
        client.ops.getProjectSubtasks({
          path: { spaceId: p.space_id ?? 0, projectId: p.project_id ?? 0, taskId: p.task_id },
          query,
        }),
    });
  }
  org.taskTargets = targets;
  return org;
};

beforeAll(async () => {
  server = await startDemoServer();
  for (const orgId of [1, 2]) orgs.push(await setUpOrg(orgId));
  nowMs = chooseNow(server.deps.clock.now());
  for (const org of orgs) org.conditions = customFieldConditions(org);
}, 30_000);

afterAll(async () => {
  for (const org of orgs) {
    org.replica.close();
    await org.client.close();
  }
  await server?.close();
});

// ---- the battery -------------------------------------------------------------------------

// Thousands of HTTP round trips per test: generous on a loaded machine.
describe('replica lists = server lists', { timeout: 120_000 }, () => {
  it('covers every list the battery names', () => {
    const [org1, org2] = orgs;
    expect(org1?.taskTargets.filter((t) => t.scope.kind === 'project').length).toBeGreaterThan(5);
    expect(org1?.taskTargets.filter((t) => t.label.startsWith('personal subtasks')).length).toBe(3);
    expect(org1?.taskTargets.filter((t) => t.label.startsWith('project subtasks')).length).toBe(3);
    expect(org2?.taskTargets.length).toBeGreaterThan(1);
    expect(org1?.conditions.length).toBeGreaterThan(150);
  });

  it('task lists: no filter, and every single filter with values from the data', async () => {
    const jobs = orgs.flatMap((org) =>
      org.taskTargets.flatMap((target) =>
        singleTaskFilters(org, target.scope).map((f) => () => compareTasks(org, target, f)),
      ),
    );
    const result = await runAll(jobs);
    expectParity(result);
    // Not vacuous: most single filters select something somewhere, and not everything.
    const nonEmpty = result.outcomes.filter((o) => o.server.totalElements > 0).length;
    expect(nonEmpty).toBeGreaterThan(result.outcomes.length / 3);
  });

  it('task lists: every customFields condition on the demo fields', async () => {
    const jobs = orgs.flatMap((org) =>
      org.taskTargets.flatMap((target) =>
        org.conditions.map((customFields) => () => compareTasks(org, target, { customFields })),
      ),
    );
    const result = await runAll(jobs);
    expectParity(result);
    const selective = result.outcomes.filter(
      (o) => o.server.totalElements > 0 && o.server.ids.length < 100,
    );
    expect(selective.length).toBeGreaterThan(100);
  });

  it('task lists: every sort property both ways, multi-key sorts, paging', async () => {
    const sorts = sortBattery(taskSortProperties);
    const jobs = orgs.flatMap((org) =>
      org.taskTargets.flatMap((target) => [
        ...sorts.map((sort) => () => compareTasks(org, target, {}, { ...WHOLE, sort })),
        ...pagings([]).map((p) => () => compareTasks(org, target, {}, p)),
        ...pagings([
          { property: 'dueDate', direction: 'desc' },
          { property: 'priority', direction: 'asc' },
        ]).map((p) => () => compareTasks(org, target, { pending: true }, p)),
      ]),
    );
    expectParity(await runAll(jobs));
  });

  it('project lists of every space: filters, sorts, paging', async () => {
    const jobs: (() => Promise<Outcome>)[] = [];
    for (const org of orgs) {
      const projects = rows<{
        project_id: number;
        project_name: string;
        status: string | null;
        priority: string | null;
        health: string | null;
        created_by: number;
        start_date: number | null;
        due_date: number | null;
        created_time: number;
        modified_time: number;
      }>(org, 'SELECT * FROM projects ORDER BY project_id');
      const col = <K extends keyof (typeof projects)[number]>(k: K) =>
        distinct(projects.map((p) => p[k]).filter((v) => v !== null)) as NonNullable<
          (typeof projects)[number][K]
        >[];
      const tags = rows<{ name: string }>(
        org,
        'SELECT DISTINCT name FROM project_tags ORDER BY name',
      ).map((x) => x.name);
      const members = rows<{ user_id: number }>(
        org,
        'SELECT DISTINCT user_id FROM project_members ORDER BY user_id',
      ).map((x) => x.user_id);
      const filters: ProjectFilter[] = [{}];
      for (const title of titleProbes(col('project_name'))) filters.push({ title });
      for (const s of col('status')) filters.push({ status: [s] });
      for (const s of col('priority')) filters.push({ priority: [s.toUpperCase()] });
      for (const s of col('health')) filters.push({ health: [s] });
      for (const t of tags) filters.push({ tags: [t] });
      for (const c of col('created_by')) filters.push({ creators: [c] });
      for (const m of members) filters.push({ members: [m] });
      for (const ms of sameDays(col('start_date')[0])) filters.push({ startDate: ms });
      for (const ms of sameDays(col('due_date')[0])) filters.push({ dueDate: ms });
      for (const ms of sameDays(col('created_time')[0])) filters.push({ createdTime: ms });
      for (const ms of sameDays(col('modified_time')[0])) filters.push({ modifiedTime: ms });
      for (const v of [true, false]) {
        filters.push(
          { overdue: v },
          { isPublic: v },
          { dueDateSet: v },
          { pending: v },
          { upcoming: v },
        );
      }
      for (const spaceId of org.spaceIds) {
        for (const f of filters) jobs.push(() => compareProjects(org, spaceId, f));
        for (const sort of sortBattery(projectSortProperties))
          jobs.push(() => compareProjects(org, spaceId, {}, { ...WHOLE, sort }));
        for (const p of pagings([{ property: 'projectName', direction: 'desc' }]))
          jobs.push(() => compareProjects(org, spaceId, {}, p));
      }
    }
    const result = await runAll(jobs);
    expectParity(result);
    expect(result.outcomes.filter((o) => o.server.totalElements > 0).length).toBeGreaterThan(
      result.outcomes.length / 3,
    );
  });
});

// ---- random combinations --------------------------------------------------------------------

const sortArb = <P extends string>(props: readonly P[]) =>
  fc.array(
    fc.record({
      property: fc.constantFrom(...props),
      direction: fc.constantFrom('asc' as const, 'desc' as const),
    }),
    { maxLength: 3 },
  );

const pagingArb = <P extends string>(props: readonly P[]) =>
  fc.record({
    page: fc.oneof(
      { arbitrary: fc.constant(0), weight: 3 },
      { arbitrary: fc.integer({ min: 1, max: 3 }), weight: 1 },
    ),
    size: fc.constantFrom(1, 5, 7, 20, 100),
    sort: sortArb(props),
  });

/** Up to `max` of the filters at once: all of them together would select nothing. */
const fewOf = <F extends object>(
  arbs: { [K in keyof F]-?: fc.Arbitrary<NonNullable<F[K]>> },
  max = 2,
): fc.Arbitrary<F> =>
  fc
    .tuple(
      fc.record(arbs as Record<string, fc.Arbitrary<unknown>>),
      fc.subarray(Object.keys(arbs), { maxLength: max }),
    )
    .map(([all, keys]) => Object.fromEntries(keys.map((k) => [k, all[k]])) as F);

const someOf = <T>(xs: readonly T[]): fc.Arbitrary<T[]> =>
  xs.length
    ? fc.subarray([...xs], { minLength: 1, maxLength: Math.min(3, xs.length) })
    : fc.constant([]);

const taskCaseArb = (org: Org) => {
  const all = scopeRows(org, { kind: 'all' });
  const tags = rows<{ name: string }>(org, 'SELECT DISTINCT name FROM task_tags').map(
    (x) => x.name,
  );
  const users = rows<{ user_id: number }>(
    org,
    'SELECT DISTINCT user_id FROM task_owners UNION SELECT created_by FROM tasks',
  ).map((x) => x.user_id);
  const days = (k: 'start_date' | 'due_date' | 'created_time' | 'modified_time') =>
    fc.constantFrom(...all.flatMap((r) => sameDays(r[k])), nowMs);
  const filter = fewOf<TaskFilter>({
    title: fc.constantFrom(...titleProbes(all.map((r) => r.title)), 'e', 'an', 'O'),
    status: someOf(org.statuses),
    priority: someOf(org.priorities),
    tags: someOf(tags),
    creators: someOf(users),
    owners: someOf(users),
    startDate: days('start_date'),
    dueDate: days('due_date'),
    createdTime: days('created_time'),
    modifiedTime: days('modified_time'),
    overdue: fc.boolean(),
    dueDateSet: fc.boolean(),
    pending: fc.boolean(),
    upcoming: fc.boolean(),
    customFields: fc
      .array(fc.constantFrom(...org.conditions), { minLength: 1, maxLength: 2 })
      .map((cs) => cs.flat()),
  });
  return fc.record({
    org: fc.constant(org),
    target: fc.constantFrom(...org.taskTargets),
    filter,
    paging: pagingArb(taskSortProperties),
  });
};

const projectCaseArb = (org: Org) => {
  const projects = rows<{
    project_name: string;
    status: string | null;
    priority: string | null;
    health: string | null;
    created_by: number;
    start_date: number | null;
    due_date: number | null;
    created_time: number;
    modified_time: number;
  }>(org, 'SELECT * FROM projects');
  const of = (sql: string) => rows<{ v: string | number }>(org, sql).map((x) => x.v);
  const strings = (k: 'status' | 'priority' | 'health') =>
    someOf(distinct(projects.flatMap((p) => (p[k] === null ? [] : [p[k]]))));
  const days = (k: 'start_date' | 'due_date' | 'created_time' | 'modified_time') =>
    fc.constantFrom(...projects.flatMap((p) => sameDays(p[k])), nowMs);
  const users = of(
    'SELECT user_id AS v FROM project_members UNION SELECT created_by FROM projects',
  );
  const filter = fewOf<ProjectFilter>({
    title: fc.constantFrom(...titleProbes(projects.map((p) => p.project_name)), 'a', 'ro'),
    status: strings('status'),
    priority: strings('priority'),
    health: strings('health'),
    tags: someOf(of('SELECT DISTINCT name AS v FROM project_tags') as string[]),
    creators: someOf(users as number[]),
    members: someOf(users as number[]),
    startDate: days('start_date'),
    dueDate: days('due_date'),
    createdTime: days('created_time'),
    modifiedTime: days('modified_time'),
    overdue: fc.boolean(),
    isPublic: fc.boolean(),
    dueDateSet: fc.boolean(),
    pending: fc.boolean(),
    upcoming: fc.boolean(),
  });
  return fc.record({
    org: fc.constant(org),
    spaceId: fc.constantFrom(...org.spaceIds),
    filter,
    paging: pagingArb(projectSortProperties),
  });
};

describe('random filter / sort / page combinations (fast-check)', () => {
  it('task lists', async () => {
    let selected = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(...orgs.map(taskCaseArb)), async (c) => {
        const o = await compareTasks(c.org, c.target, c.filter, c.paging);
        expect(o.replica, o.label).toEqual(o.server);
        if (o.server.totalElements > 0) selected++;
      }),
      { numRuns: 100 },
    );
    expect(selected).toBeGreaterThan(20);
  });

  it('project lists', async () => {
    let selected = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(...orgs.map(projectCaseArb)), async (c) => {
        const o = await compareProjects(c.org, c.spaceId, c.filter, c.paging);
        expect(o.replica, o.label).toEqual(o.server);
        if (o.server.totalElements > 0) selected++;
      }),
      { numRuns: 100 },
    );
    expect(selected).toBeGreaterThan(20);
  });
});
