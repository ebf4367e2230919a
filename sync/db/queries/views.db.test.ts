import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { attachment, checklistItem, timerRecord } from '../../../shared/api';
import type { Sqlite } from '../open';
import { activeTimer, unreadCount, unreadNotifications } from './activity-read';
import { replaceNotifications, writeTimer } from './activity-write';
import { listProjects } from './projects-read';
import {
  ATTACHMENTS_1,
  ATTACHMENTS_5,
  at,
  attachmentOf,
  CHECKLIST_1,
  CHECKLIST_5,
  DAY,
  LOST_ON_WRITE,
  NOW,
  openTestReplica,
  seedReplica,
  type TestReplica,
  without,
} from './read.fixture';
import { searchTasks } from './search';
import { dueGroupCounts, taskPaths } from './task-context';
import { listTasks, readTask, readTasks, type TaskScope, taskWhere } from './tasks-read';
import { writeAttachment } from './tasks-write';
import { myTasks, projectBoard, readProjectAttachments, statusCounts, taskDetail } from './views';

let t: TestReplica;
const timer = (
  trackId: number,
  taskId: number,
  state: 'RUNNING' | 'PAUSED' | 'STOPPED',
  startTime: number,
) =>
  timerRecord.parse({
    trackId,
    taskId,
    projectId: 100,
    userId: 1,
    state,
    startTime,
    endTime: state === 'STOPPED' ? startTime + HOUR_MS : null,
    durationSeconds: 600,
    billingStatus: 'BILLABLE',
    notes: null,
    createdTime: startTime,
    modifiedTime: startTime,
  });
const HOUR_MS = 3_600_000;

beforeAll(() => {
  t = openTestReplica();
  seedReplica(t.replica);
  t.replica.transaction(() => {
    writeTimer(t.replica.db, timer(302, 1, 'RUNNING', NOW - HOUR_MS), NOW - 60_000);
    writeTimer(t.replica.db, timer(301, 1, 'STOPPED', NOW - DAY), NOW - DAY);
    writeAttachment(
      t.replica.db,
      { taskId: null, projectId: 100 },
      attachment.parse({
        ...attachmentOf(95, 0, null, 'brief.docx'),
        taskId: null,
        projectId: 100,
        downloadUrl: '/v1/spaces/10/projects/100/attachments/95/content',
      }),
    );
  });
});
afterAll(() => t.close());

const lostAttachment = (a: ReturnType<typeof attachmentOf>) =>
  without(attachment.parse(a), LOST_ON_WRITE.attachment);

describe('taskDetail', () => {
  it('a task with its subtasks, checklist by position, attachments and timers', () => {
    const d = taskDetail(t.replica.db, 1, NOW);
    expect(d?.task).toEqual(readTask(t.replica.db, 1, NOW));
    expect(d?.subtasks.map((s) => s.taskId)).toEqual([5, 6]);
    expect(d?.checklist).toEqual(CHECKLIST_1.map((c) => checklistItem.parse(c)));
    expect(d?.checklist.map((c) => c.checklistId)).toEqual([71, 73, 72]);
    expect(d?.attachments).toEqual(ATTACHMENTS_1.map(lostAttachment));
    expect(d?.timers.map((x) => [x.trackId, x.state])).toEqual([
      [301, 'STOPPED'],
      [302, 'RUNNING'],
    ]);
  });

  it('on a subtask, items report the parent as taskId and the subtask as subtaskId', () => {
    const d = taskDetail(t.replica.db, 5, NOW);
    expect(d?.checklist).toEqual(CHECKLIST_5.map((c) => checklistItem.parse(c)));
    expect(d?.checklist.map((c) => [c.taskId, c.subtaskId])).toEqual([
      [1, 5],
      [1, 5],
    ]);
    expect(d?.attachments).toEqual(ATTACHMENTS_5.map(lostAttachment));
    expect(d?.subtasks).toEqual([]);
  });

  it('an unknown task has no detail; project attachments are the project’s own', () => {
    expect(taskDetail(t.replica.db, 999, NOW)).toBeNull();
    expect(
      readProjectAttachments(t.replica.db, 100).map((a) => [a.attachmentId, a.taskId, a.projectId]),
    ).toEqual([[95, null, 100]]);
  });
});

describe('statusCounts and projectBoard', () => {
  it('counts per status: open statuses by name, then the complete ones', () => {
    expect(statusCounts(t.replica.db, { kind: 'all' })).toEqual([
      { status: 'In Progress', count: 1, completed: 0 },
      { status: 'In Review', count: 1, completed: 0 },
      { status: 'To Do', count: 10, completed: 0 },
      { status: 'Done', count: 3, completed: 3 },
    ]);
    expect(statusCounts(t.replica.db, { kind: 'personal', userId: 1 })).toEqual([
      { status: 'To Do', count: 4, completed: 0 },
      { status: 'Done', count: 1, completed: 1 },
    ]);
    expect(
      statusCounts(t.replica.db, { kind: 'subtasks', parentTaskId: 1 }).map((c) => c.status),
    ).toEqual(['To Do', 'Done']);
  });

  it('a caller’s status order comes first', () => {
    const order = ['To Do', 'in progress', 'In Review', 'Done'];
    expect(
      statusCounts(t.replica.db, { kind: 'all' }, { statusOrder: order }).map((c) => c.status),
    ).toEqual(['To Do', 'In Progress', 'In Review', 'Done']);
  });

  it('the board: top-level tasks per status, in creation order, with full counts', () => {
    const board = projectBoard(t.replica.db, 100, NOW);
    expect(board.total).toBe(4);
    expect(board.columns.map((c) => [c.status, c.count, c.tasks.map((x) => x.taskId)])).toEqual([
      ['In Progress', 1, [2]],
      ['To Do', 2, [1, 4]],
      ['Done', 1, [3]],
    ]);
    expect(board.columns[1]?.tasks[0]).toEqual(readTask(t.replica.db, 1, NOW));
    const capped = projectBoard(t.replica.db, 100, NOW, { perStatus: 1, statusOrder: ['to do'] });
    expect(capped.columns.map((c) => [c.status, c.count, c.tasks.map((x) => x.taskId)])).toEqual([
      ['To Do', 2, [1]],
      ['In Progress', 1, [2]],
      ['Done', 1, [3]],
    ]);
    expect(projectBoard(t.replica.db, 999, NOW)).toEqual({ projectId: 999, total: 0, columns: [] });
  });

  it('a task without a status has its own column', () => {
    const { replica, close } = openTestReplica();
    try {
      seedReplica(replica);
      replica.db.prepare('UPDATE tasks SET status = NULL WHERE task_id = 4').run();
      const board = projectBoard(replica.db, 100, NOW);
      expect(board.columns.map((c) => [c.status, c.tasks.map((x) => x.taskId)])).toEqual([
        ['In Progress', [2]],
        ['To Do', [1]],
        [null, [4]],
        ['Done', [3]],
      ]);
    } finally {
      close();
    }
  });
});

describe('myTasks', () => {
  const idsOf = (m: ReturnType<typeof myTasks>) => ({
    overdue: m.overdue.map((x) => x.taskId),
    today: m.today.map((x) => x.taskId),
    upcoming: m.upcoming.map((x) => x.taskId),
    counts: m.counts,
  });

  it('open owned tasks: overdue (before now), today (rest of the UTC day), the next 7 days', () => {
    expect(idsOf(myTasks(t.replica.db, 1, NOW))).toEqual({
      overdue: [1, 13, 5],
      today: [10, 9],
      upcoming: [8, 14],
      counts: { overdue: 3, today: 2, upcoming: 2 },
    });
    expect(idsOf(myTasks(t.replica.db, 2, NOW))).toEqual({
      overdue: [1],
      today: [],
      upcoming: [2, 8, 7],
      counts: { overdue: 1, today: 0, upcoming: 3 },
    });
  });

  it('buckets agree with each task’s overdue flag and move with the clock', () => {
    const m = myTasks(t.replica.db, 1, NOW);
    expect(m.overdue.every((x) => x.overdue)).toBe(true);
    expect([...m.today, ...m.upcoming].some((x) => x.overdue)).toBe(false);
    const later = myTasks(t.replica.db, 1, at('06-15T19:00'));
    expect(idsOf(later)).toMatchObject({ overdue: [1, 13, 5, 10, 9], today: [] });
  });

  it('limit caps each bucket, counts stay whole', () => {
    expect(idsOf(myTasks(t.replica.db, 1, NOW, { limit: 1 }))).toEqual({
      overdue: [1],
      today: [10],
      upcoming: [8],
      counts: { overdue: 3, today: 2, upcoming: 2 },
    });
  });
});

/** Every statement `fn` prepares on a fresh connection, with its query plan. */
const plansOf = (fn: (db: Sqlite) => unknown): { sql: string; plan: string[] }[] => {
  const { replica, close } = openTestReplica();
  try {
    seedReplica(replica);
    const db = replica.db;
    const seen: string[] = [];
    const real = db.prepare.bind(db);
    const spy = vi.spyOn(db, 'prepare').mockImplementation(((sql: string) => {
      seen.push(sql);
      return real(sql);
    }) as typeof db.prepare);
    fn(db);
    spy.mockRestore();
    return seen.map((sql) => ({
      sql,
      // Plans do not depend on values here: every parameter bound as NULL.
      plan: (
        db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all(...Array.from({ length: sql.split('?').length - 1 }, () => null)) as {
          detail: string;
        }[]
      ).map((r) => r.detail),
    }));
  } finally {
    close();
  }
};

/** A scan of a whole table (with or without an index) among the plans. */
const fullScans = (plans: { sql: string; plan: string[] }[]) =>
  plans.flatMap((p) =>
    p.plan
      .filter((line) =>
        /^SCAN (t|p|o|tasks|projects|task_owners|timers|notifications|checklist_items|attachments)\b/.test(
          line,
        ),
      )
      .map((line) => `${line}  <=  ${p.sql.replace(/\s+/g, ' ').slice(0, 120)}`),
  );

describe('query plans: no view reads a whole table (100k tasks must stay fast)', () => {
  const scopes: TaskScope[] = [
    { kind: 'project', projectId: 100 },
    { kind: 'personal', userId: 1 },
    { kind: 'subtasks', parentTaskId: 1 },
  ];
  const q = { page: 0, size: 20, sort: [] };

  it.each(scopes)('task list and counts of scope %o', (scope) => {
    expect(
      fullScans(
        plansOf((db) => {
          listTasks(db, scope, q, NOW);
          listTasks(db, scope, { ...q, status: ['To Do'], tags: ['backend'], owners: [1] }, NOW);
          statusCounts(db, scope);
        }),
      ),
    ).toEqual([]);
  });

  it('a page sorted by id reads the index in order: no sort, for project and personal lists', () => {
    for (const scope of scopes.slice(0, 2)) {
      const plans = plansOf((db) => listTasks(db, scope, q, NOW));
      const page = plans.find((p) => p.sql.includes('LIMIT ? OFFSET ?'));
      expect(page?.plan.join('\n')).toContain('USING INDEX tasks_top');
      expect(page?.plan.join('\n')).not.toContain('TEMP B-TREE');
    }
  });

  it('views, DTOs, projects, notifications, timers, search', () => {
    const plans = plansOf((db) => {
      readTasks(db, [1, 2, 5], NOW);
      taskDetail(db, 1, NOW);
      taskPaths(db, [1, 5, 13]);
      dueGroupCounts(db, taskWhere({ kind: 'owned', userId: 1 }, { pending: true }, NOW), NOW);
      projectBoard(db, 100, NOW);
      myTasks(db, 1, NOW);
      listProjects(db, 10, q, NOW);
      unreadNotifications(db);
      unreadCount(db);
      activeTimer(db, 1, NOW);
      searchTasks(db, 'spec', { scope: { kind: 'project', projectId: 100 } });
      searchTasks(db, 'spec', { scope: { kind: 'personal', userId: 1 } });
    });
    expect(fullScans(plans)).toEqual([]);
    const my = plans.filter((p) => p.sql.includes('INDEXED BY task_owners_due'));
    expect(my.length).toBeGreaterThan(0);
    for (const p of my) expect(p.plan.join('\n')).toContain('COVERING INDEX task_owners_due');
  });

  it('statusCounts over every task scans the narrow covering index, not the rows', () => {
    const [counts] = plansOf((db) => statusCounts(db, { kind: 'all' }));
    expect(counts?.plan).toEqual(['SCAN t USING COVERING INDEX tasks_status']);
  });
});

describe('unread notifications and the active timer (see activity-read.db.test.ts)', () => {
  it('smoke', () => {
    replaceNotifications(t.replica.db, []);
    expect(unreadCount(t.replica.db)).toBe(0);
    expect(activeTimer(t.replica.db, 1, NOW)?.trackId).toBe(302);
  });
});
