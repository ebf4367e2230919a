import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type RunningServer, startServer } from '../app';
import { createClock } from '../clock';
import { openDb } from '../db/open';
import type { Quirk, ServerDeps } from '../deps';
import { createFaults } from '../faults';
import { taskPriorities, taskStatuses } from '../store/vocab';
import { seedBench } from './bench';
import { seedDemo } from './demo';
import { parseSeed, seedDatabase } from './index';

const DAY = 86_400_000;
// A fixed "now" (a Wednesday, mid-afternoon UTC) keeps the runs comparable.
const NOW = Date.UTC(2025, 5, 18, 14, 30, 0);

const dirs: string[] = [];
const makeDeps = (now = NOW): ServerDeps => {
  const filesDir = mkdtempSync(join(tmpdir(), 'wm-seed-test-'));
  dirs.push(filesDir);
  return {
    db: openDb(null),
    clock: createClock(() => now),
    faults: createFaults(),
    filesDir: join(filesDir, 'files'),
    quirks: new Set<Quirk>(),
    accessTtlSec: 900,
    refreshTtlSec: 2_592_000,
    checkResponses: true,
  };
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Row = Record<string, unknown>;
const all = (deps: ServerDeps, sql: string, ...params: unknown[]) =>
  deps.db.prepare(sql).all(...params) as Row[];
const one = (deps: ServerDeps, sql: string, ...params: unknown[]) =>
  deps.db.prepare(sql).get(...params) as Row;
const num = (deps: ServerDeps, sql: string, ...params: unknown[]) =>
  Number(Object.values(one(deps, sql, ...params))[0]);

describe('demo seed', () => {
  let deps: ServerDeps;
  let summary: string;
  let elapsedMs: number;
  beforeAll(() => {
    deps = makeDeps();
    const t0 = performance.now();
    summary = seedDemo(deps);
    elapsedMs = performance.now() - t0;
  });

  it('is quick and says what it made', () => {
    expect(elapsedMs).toBeLessThan(2_000);
    expect(summary).toMatch(/^demo seed: 2 orgs, 8 users, .* tasks/);
    expect(summary).not.toContain('\n');
  });

  it('has the two orgs and the promised memberships', () => {
    expect(all(deps, 'SELECT org_id, name FROM orgs ORDER BY org_id')).toEqual([
      { org_id: 1, name: 'Northwind Studio' },
      { org_id: 2, name: 'Globex Labs' },
    ]);
    const orgsOf = (email: string) =>
      all(
        deps,
        'SELECT m.org_id, m.role_name FROM org_members m JOIN users u USING (user_id) WHERE u.email = ? ORDER BY m.org_id',
        email,
      );
    expect(orgsOf('demo@example.com')).toEqual([
      { org_id: 1, role_name: 'Owner' },
      { org_id: 2, role_name: 'Owner' },
    ]);
    expect(orgsOf('other@example.com').map((r) => r.org_id)).toEqual([2]);
    const colleagues = num(
      deps,
      "SELECT COUNT(*) FROM org_members m JOIN users u USING (user_id) WHERE m.org_id = 1 AND u.email <> 'demo@example.com'",
    );
    expect(colleagues).toBeGreaterThanOrEqual(5);
    expect(colleagues).toBeLessThanOrEqual(6);
    for (const r of all(deps, 'SELECT email FROM users'))
      expect(String(r.email)).toMatch(/@example\.com$/);
  });

  it('has spaces with members and projects with vocab of their own org', () => {
    const spaces = all(
      deps,
      'SELECT org_id, COUNT(*) AS n FROM spaces GROUP BY org_id ORDER BY org_id',
    );
    expect(Number(spaces[0]?.n)).toBeGreaterThanOrEqual(3);
    expect(Number(spaces[0]?.n)).toBeLessThanOrEqual(4);
    expect(Number(spaces[1]?.n)).toBe(1);
    expect(
      num(
        deps,
        'SELECT COUNT(*) FROM spaces s WHERE NOT EXISTS (SELECT 1 FROM space_members m WHERE m.space_id = s.space_id)',
      ),
    ).toBe(0);
    const perSpace = all(
      deps,
      'SELECT s.org_id, COUNT(p.project_id) AS n FROM spaces s LEFT JOIN projects p USING (space_id) GROUP BY s.space_id',
    );
    for (const r of perSpace) expect(Number(r.n)).toBeGreaterThanOrEqual(2);
    const bad = num(
      deps,
      `SELECT COUNT(*) FROM projects p
        LEFT JOIN project_statuses s ON s.status_id = p.status_id AND s.org_id = p.org_id
        LEFT JOIN project_priorities r ON r.priority_id = p.priority_id AND r.org_id = p.org_id
        LEFT JOIN project_health h ON h.health_id = p.health_id AND h.org_id = p.org_id
        WHERE s.status_id IS NULL OR r.priority_id IS NULL OR h.health_id IS NULL`,
    );
    expect(bad).toBe(0);
    expect(num(deps, 'SELECT COUNT(*) FROM projects WHERE contact_id IS NOT NULL')).toBeGreaterThan(
      0,
    );
    expect(
      num(
        deps,
        'SELECT COUNT(*) FROM projects p WHERE NOT EXISTS (SELECT 1 FROM project_members m WHERE m.project_id = p.project_id)',
      ),
    ).toBe(0);
    expect(num(deps, 'SELECT COUNT(DISTINCT project_id) FROM project_tags')).toBe(
      num(deps, 'SELECT COUNT(*) FROM projects'),
    );
    for (const r of all(deps, 'SELECT body, contact_id FROM contacts')) {
      const body = JSON.parse(String(r.body)) as { contactId: number; contactName: string };
      expect(body.contactId).toBe(r.contact_id);
      expect(body.contactName).toBeTruthy();
    }
    // Completed projects are complete.
    expect(
      num(
        deps,
        "SELECT COUNT(*) FROM projects p JOIN project_statuses s USING (status_id) WHERE s.category = 'COMPLETED' AND (p.completed <> 1 OR p.completion <> 100 OR p.completed_time IS NULL)",
      ),
    ).toBe(0);
  });

  it('has ~300 tasks: project tasks, ~30 personal ones of the demo user, subtasks', () => {
    const total = num(deps, 'SELECT COUNT(*) FROM tasks');
    expect(total).toBeGreaterThanOrEqual(270);
    expect(total).toBeLessThanOrEqual(340);
    const org2 = num(deps, 'SELECT COUNT(*) FROM tasks WHERE org_id = 2');
    expect(org2).toBeGreaterThanOrEqual(25);
    expect(org2).toBeLessThanOrEqual(40);
    expect(num(deps, 'SELECT COUNT(DISTINCT project_id) FROM tasks WHERE org_id = 2')).toBe(2);
    const personal = all(
      deps,
      'SELECT task_id, created_by FROM tasks WHERE project_id IS NULL AND parent_task_id IS NULL',
    );
    expect(personal.length).toBeGreaterThanOrEqual(25);
    expect(personal.length).toBeLessThanOrEqual(35);
    const demo = num(deps, "SELECT user_id FROM users WHERE email = 'demo@example.com'");
    for (const t of personal) expect(t.created_by).toBe(demo);
    expect(
      num(deps, 'SELECT COUNT(*) FROM tasks WHERE project_id IS NULL AND space_id IS NOT NULL'),
    ).toBe(0);
    expect(num(deps, 'SELECT COUNT(*) FROM tasks WHERE deleted <> 0')).toBe(0);
  });

  it('puts every subtask under a live top-level task of the same org, project and space', () => {
    const subtasks = num(deps, 'SELECT COUNT(*) FROM tasks WHERE parent_task_id IS NOT NULL');
    expect(subtasks).toBeGreaterThan(40);
    const broken = num(
      deps,
      `SELECT COUNT(*) FROM tasks c LEFT JOIN tasks p ON p.task_id = c.parent_task_id
        WHERE c.parent_task_id IS NOT NULL AND (p.task_id IS NULL OR p.org_id <> c.org_id OR p.parent_task_id IS NOT NULL
          OR p.project_id IS NOT c.project_id OR p.space_id IS NOT c.space_id)`,
    );
    expect(broken).toBe(0);
    const parents = num(deps, 'SELECT COUNT(DISTINCT parent_task_id) FROM tasks');
    const tops = num(deps, 'SELECT COUNT(*) FROM tasks WHERE parent_task_id IS NULL');
    expect(parents / tops).toBeGreaterThan(0.15);
    expect(parents / tops).toBeLessThan(0.4);
    // Personal subtasks exist too.
    expect(
      num(
        deps,
        'SELECT COUNT(*) FROM tasks WHERE parent_task_id IS NOT NULL AND project_id IS NULL',
      ),
    ).toBeGreaterThan(0);
  });

  it('uses the vocabularies, and Done means complete', () => {
    const statuses = all(deps, 'SELECT DISTINCT status FROM tasks').map((r) => r.status);
    expect(new Set(statuses)).toEqual(new Set(taskStatuses));
    const priorities = all(deps, 'SELECT DISTINCT priority FROM tasks').map((r) => r.priority);
    expect(new Set(priorities)).toEqual(new Set(taskPriorities));
    expect(num(deps, "SELECT COUNT(*) FROM tasks WHERE (status = 'Done') <> (completed = 1)")).toBe(
      0,
    );
    expect(
      num(
        deps,
        'SELECT COUNT(*) FROM tasks WHERE completed = 1 AND (completed_time IS NULL OR completion <> 100)',
      ),
    ).toBe(0);
    expect(
      num(deps, 'SELECT COUNT(*) FROM tasks WHERE completed = 0 AND completed_time IS NOT NULL'),
    ).toBe(0);
    expect(num(deps, 'SELECT COUNT(*) FROM tasks WHERE completion < 0 OR completion > 100')).toBe(
      0,
    );
  });

  it('spreads due dates: overdue, today, the next 7 days, later and none', () => {
    const dayStart = NOW - (NOW % DAY);
    const open = 'completed = 0 AND';
    expect(num(deps, `SELECT COUNT(*) FROM tasks WHERE ${open} due_date < ?`, NOW)).toBeGreaterThan(
      5,
    );
    expect(
      num(
        deps,
        `SELECT COUNT(*) FROM tasks WHERE ${open} due_date >= ? AND due_date < ?`,
        NOW,
        dayStart + DAY,
      ),
    ).toBeGreaterThan(3);
    expect(
      num(
        deps,
        `SELECT COUNT(*) FROM tasks WHERE ${open} due_date > ? AND due_date <= ?`,
        NOW,
        NOW + 7 * DAY,
      ),
    ).toBeGreaterThan(10);
    expect(
      num(deps, `SELECT COUNT(*) FROM tasks WHERE ${open} due_date > ?`, NOW + 7 * DAY),
    ).toBeGreaterThan(10);
    expect(num(deps, 'SELECT COUNT(*) FROM tasks WHERE due_date IS NULL')).toBeGreaterThan(10);
    expect(
      num(
        deps,
        'SELECT COUNT(*) FROM tasks WHERE start_date IS NOT NULL AND due_date IS NOT NULL AND start_date > due_date',
      ),
    ).toBe(0);
    // The demo user has work in each bucket too.
    const mine = `completed = 0 AND task_id IN (SELECT task_id FROM task_owners o JOIN users u USING (user_id) WHERE u.email = 'demo@example.com') AND`;
    expect(num(deps, `SELECT COUNT(*) FROM tasks WHERE ${mine} due_date < ?`, NOW)).toBeGreaterThan(
      0,
    );
    expect(
      num(
        deps,
        `SELECT COUNT(*) FROM tasks WHERE ${mine} due_date > ? AND due_date <= ?`,
        NOW,
        NOW + 7 * DAY,
      ),
    ).toBeGreaterThan(0);
  });

  it('keeps times in the last 60 days, modified after created, by members of the org', () => {
    for (const table of ['tasks', 'projects', 'spaces']) {
      const r = one(
        deps,
        `SELECT MIN(created_time) AS lo, MAX(modified_time) AS hi, SUM(modified_time < created_time) AS bad FROM ${table}`,
      );
      expect(Number(r.lo)).toBeGreaterThanOrEqual(NOW - 61 * DAY);
      expect(Number(r.hi)).toBeLessThanOrEqual(NOW);
      expect(Number(r.bad)).toBe(0);
      const outsiders = num(
        deps,
        `SELECT COUNT(*) FROM ${table} t WHERE NOT EXISTS (SELECT 1 FROM org_members m WHERE m.org_id = t.org_id AND m.user_id = t.created_by)
           OR NOT EXISTS (SELECT 1 FROM org_members m WHERE m.org_id = t.org_id AND m.user_id = t.modified_by)`,
      );
      expect(outsiders).toBe(0);
    }
    const spread = one(deps, 'SELECT MIN(created_time) AS lo, MAX(created_time) AS hi FROM tasks');
    expect(Number(spread.hi) - Number(spread.lo)).toBeGreaterThan(40 * DAY);
    expect(
      num(
        deps,
        'SELECT COUNT(*) FROM tasks c JOIN tasks p ON p.task_id = c.parent_task_id WHERE c.created_time < p.created_time',
      ),
    ).toBe(0);
  });

  it('gives tasks tags and owners who are members of the org', () => {
    expect(
      num(
        deps,
        'SELECT COUNT(*) FROM tasks t WHERE NOT EXISTS (SELECT 1 FROM task_owners o WHERE o.task_id = t.task_id)',
      ),
    ).toBe(0);
    expect(
      num(
        deps,
        'SELECT COUNT(*) FROM task_owners o JOIN tasks t USING (task_id) WHERE NOT EXISTS (SELECT 1 FROM org_members m WHERE m.org_id = t.org_id AND m.user_id = o.user_id)',
      ),
    ).toBe(0);
    expect(num(deps, 'SELECT COUNT(DISTINCT task_id) FROM task_tags')).toBeGreaterThan(150);
    expect(
      num(deps, "SELECT COUNT(*) FROM tasks WHERE description LIKE '%@%@example.com%'"),
    ).toBeGreaterThan(10);
  });

  it('has custom fields of every type with values in the stored forms', () => {
    const types = all(deps, 'SELECT DISTINCT field_type FROM custom_fields').map(
      (r) => r.field_type,
    );
    expect(new Set(types)).toEqual(new Set(['TEXT', 'NUMBER', 'DATE', 'DROPDOWN', 'CHECKBOX']));
    expect(
      num(deps, 'SELECT COUNT(*) FROM custom_fields WHERE project_id IS NULL'),
    ).toBeGreaterThan(0);
    expect(
      num(deps, 'SELECT COUNT(*) FROM custom_fields WHERE project_id IS NOT NULL'),
    ).toBeGreaterThan(0);
    expect(num(deps, 'SELECT COUNT(DISTINCT task_id) FROM custom_field_values')).toBeGreaterThan(
      100,
    );
    const values = all(
      deps,
      'SELECT v.task_id, v.value, v.text, v.num, f.field_id, f.field_type, f.space_id, f.project_id FROM custom_field_values v JOIN custom_fields f USING (field_id)',
    );
    for (const v of values) {
      const parsed = JSON.parse(String(v.value)) as unknown;
      switch (v.field_type) {
        case 'DATE':
        case 'NUMBER':
          expect(typeof parsed).toBe('number');
          expect(v.num).toBe(parsed);
          expect(v.text).toBe(String(parsed));
          if (v.field_type === 'DATE') expect(Number.isInteger(parsed)).toBe(true);
          break;
        case 'DROPDOWN': {
          const option = one(
            deps,
            'SELECT name FROM custom_field_options WHERE option_id = ? AND field_id = ?',
            parsed,
            v.field_id,
          );
          expect(option?.name).toBe(v.text);
          expect(v.num).toBeNull();
          break;
        }
        case 'CHECKBOX':
          expect(typeof parsed).toBe('boolean');
          expect(v.text).toBe(String(parsed));
          break;
        default:
          expect(parsed).toBe(v.text);
      }
    }
    // A value only on a task its field applies to (its space's, or its project's).
    const misplaced = num(
      deps,
      `SELECT COUNT(*) FROM custom_field_values v JOIN custom_fields f USING (field_id) JOIN tasks t USING (task_id)
        WHERE NOT ((f.project_id IS NULL AND f.space_id = t.space_id) OR f.project_id = t.project_id)`,
    );
    expect(misplaced).toBe(0);
  });

  it('has checklists on ~40% of tasks, positions dense from 0, some completed and assigned', () => {
    const withList = num(deps, 'SELECT COUNT(DISTINCT task_id) FROM checklist_items');
    const tasks = num(deps, 'SELECT COUNT(*) FROM tasks');
    expect(withList / tasks).toBeGreaterThan(0.3);
    expect(withList / tasks).toBeLessThan(0.5);
    const notDense = num(
      deps,
      'SELECT COUNT(*) FROM (SELECT task_id, COUNT(*) AS c, MIN(position) AS lo, MAX(position) AS hi, COUNT(DISTINCT position) AS d FROM checklist_items GROUP BY task_id) WHERE lo <> 0 OR hi <> c - 1 OR d <> c',
    );
    expect(notDense).toBe(0);
    expect(num(deps, 'SELECT COUNT(*) FROM checklist_items WHERE completed = 1')).toBeGreaterThan(
      0,
    );
    expect(num(deps, 'SELECT COUNT(*) FROM checklist_items WHERE completed = 0')).toBeGreaterThan(
      0,
    );
    expect(
      num(deps, 'SELECT COUNT(*) FROM checklist_items WHERE assignee_id IS NOT NULL'),
    ).toBeGreaterThan(0);
    expect(
      num(
        deps,
        'SELECT COUNT(*) FROM checklist_items c JOIN tasks t USING (task_id) WHERE c.assignee_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM org_members m WHERE m.org_id = t.org_id AND m.user_id = c.assignee_id)',
      ),
    ).toBe(0);
  });

  it('has attachments whose files exist with the recorded size', () => {
    const rows = all(deps, 'SELECT * FROM attachments');
    expect(rows.length).toBeGreaterThanOrEqual(5);
    const extensions = new Set(rows.map((r) => r.extension));
    for (const ext of ['txt', 'md', 'csv', 'png', 'json'])
      expect(extensions.has(ext), ext).toBe(true);
    expect(new Set(rows.map((r) => r.stored_name)).size).toBe(rows.length);
    for (const r of rows) {
      const path = join(deps.filesDir, String(r.stored_name));
      expect(statSync(path).size).toBe(r.size);
      expect(r.completed_bytes).toBe(r.size);
      expect(String(r.file_name).endsWith(`.${String(r.extension)}`)).toBe(true);
      expect((r.task_id === null) !== (r.project_id === null)).toBe(true);
      if (r.extension === 'png')
        expect(readFileSync(path).subarray(0, 8)).toEqual(
          Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
        );
      if (r.extension === 'json')
        expect(() => JSON.parse(readFileSync(path, 'utf8'))).not.toThrow();
      const owner =
        r.task_id === null
          ? 'SELECT org_id FROM projects WHERE project_id = ?'
          : 'SELECT org_id FROM tasks WHERE task_id = ?';
      expect(one(deps, owner, r.task_id ?? r.project_id)?.org_id).toBe(r.org_id);
    }
    expect(rows.some((r) => r.project_id !== null)).toBe(true);
    const onSubtask = num(
      deps,
      'SELECT COUNT(*) FROM attachments a JOIN tasks t USING (task_id) WHERE t.parent_task_id IS NOT NULL',
    );
    expect(onSubtask).toBeGreaterThan(0);
  });

  it('has only stopped timers: several of the demo user over the past two weeks', () => {
    expect(num(deps, "SELECT COUNT(*) FROM timers WHERE state <> 'STOPPED'")).toBe(0);
    expect(
      num(
        deps,
        'SELECT COUNT(*) FROM timers WHERE running_since IS NOT NULL OR end_time IS NULL OR accumulated_ms <> end_time - start_time OR end_time <= start_time',
      ),
    ).toBe(0);
    const demo = all(
      deps,
      "SELECT t.* FROM timers t JOIN users u USING (user_id) WHERE u.email = 'demo@example.com' AND t.org_id = 1",
    );
    expect(demo.length).toBeGreaterThanOrEqual(5);
    for (const t of demo) {
      expect(Number(t.start_time)).toBeGreaterThanOrEqual(NOW - 15 * DAY);
      expect(Number(t.end_time)).toBeLessThanOrEqual(NOW);
    }
    expect(new Set(demo.map((t) => t.billing_status))).toEqual(
      new Set(['BILLABLE', 'NON_BILLABLE']),
    );
    expect(demo.some((t) => t.notes !== null)).toBe(true);
    expect(
      num(
        deps,
        'SELECT COUNT(*) FROM timers r JOIN tasks t USING (task_id) WHERE r.org_id <> t.org_id OR r.project_id IS NOT t.project_id',
      ),
    ).toBe(0);
  });

  it('has comments on ~30 tasks and notifications for the demo user', () => {
    const commented = num(deps, 'SELECT COUNT(DISTINCT task_id) FROM comments');
    expect(commented).toBeGreaterThanOrEqual(25);
    expect(commented).toBeLessThanOrEqual(40);
    expect(
      num(
        deps,
        'SELECT COUNT(*) FROM comments c JOIN tasks t USING (task_id) WHERE c.created_time < t.created_time OR c.created_time > ?',
        NOW,
      ),
    ).toBe(0);
    const notes = all(
      deps,
      "SELECT n.* FROM notifications n JOIN users u USING (user_id) WHERE u.email = 'demo@example.com'",
    );
    expect(new Set(notes.map((n) => n.type))).toEqual(
      new Set(['ASSIGNED', 'MENTION', 'DUE', 'COMMENT', 'STATUS']),
    );
    const unread = notes.filter((n) => n.read === 0).length;
    expect(unread).toBeGreaterThanOrEqual(6);
    expect(unread).toBeLessThanOrEqual(10);
    expect(notes.length - unread).toBeGreaterThan(0);
    for (const n of notes) {
      const task = one(deps, 'SELECT org_id, project_id FROM tasks WHERE task_id = ?', n.task_id);
      expect(task?.org_id).toBe(n.org_id);
      expect(task?.project_id).toBe(n.project_id);
      expect(Number(n.created_time)).toBeLessThanOrEqual(NOW);
    }
  });

  it('is deterministic: two runs give the same rows (password hashes aside)', () => {
    const other = makeDeps();
    seedDemo(other);
    const tables = all(
      deps,
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    ).map((r) => String(r.name));
    expect(tables.length).toBeGreaterThan(20);
    for (const table of tables) {
      const dump = (d: ServerDeps) =>
        all(d, `SELECT * FROM ${table} ORDER BY 1, 2`).map((r) =>
          table === 'users' ? { ...r, password_hash: null } : r,
        );
      expect(dump(other), table).toEqual(dump(deps));
    }
  });
});

describe('bench seed', () => {
  it('makes 2,000 tasks with 6,000 checklist items in well under a few seconds', () => {
    const deps = makeDeps();
    const t0 = performance.now();
    const summary = seedBench(deps, 2000);
    expect(performance.now() - t0).toBeLessThan(3_000);
    expect(summary).toMatch(
      /^bench seed: 1 org, 20 users, 20 spaces, 40 projects, 2000 tasks .* in \d+\.\d+ s/,
    );
    expect(all(deps, 'SELECT org_id FROM orgs')).toEqual([{ org_id: 1 }]);
    expect(num(deps, 'SELECT COUNT(*) FROM org_members WHERE org_id = 1')).toBe(20);
    expect(num(deps, 'SELECT COUNT(*) FROM tasks')).toBe(2000);
    expect(num(deps, 'SELECT COUNT(*) FROM checklist_items')).toBe(6000);
    expect(num(deps, 'SELECT COUNT(DISTINCT modified_time) FROM tasks')).toBe(2000);
    expect(
      num(
        deps,
        'SELECT COUNT(*) FROM tasks WHERE modified_time < created_time OR modified_time > ?',
        NOW,
      ),
    ).toBe(0);
    const personal = num(deps, 'SELECT COUNT(*) FROM tasks WHERE project_id IS NULL');
    expect(personal).toBe(200);
    const subtasks = num(deps, 'SELECT COUNT(*) FROM tasks WHERE parent_task_id IS NOT NULL');
    expect(subtasks).toBeGreaterThan(300);
    expect(subtasks).toBeLessThan(500);
    const broken = num(
      deps,
      `SELECT COUNT(*) FROM tasks c LEFT JOIN tasks p ON p.task_id = c.parent_task_id
        WHERE c.parent_task_id IS NOT NULL AND (p.task_id IS NULL OR p.parent_task_id IS NOT NULL OR p.project_id IS NOT c.project_id)`,
    );
    expect(broken).toBe(0);
    expect(
      num(
        deps,
        'SELECT COUNT(*) FROM (SELECT task_id FROM checklist_items GROUP BY task_id HAVING MIN(position) <> 0 OR MAX(position) <> 2 OR COUNT(*) <> 3)',
      ),
    ).toBe(0);
    expect(
      num(
        deps,
        'SELECT COUNT(*) FROM tasks t WHERE NOT EXISTS (SELECT 1 FROM task_owners o WHERE o.task_id = t.task_id)',
      ),
    ).toBe(0);
    expect(
      num(
        deps,
        'SELECT COUNT(*) FROM tasks t WHERE NOT EXISTS (SELECT 1 FROM task_tags g WHERE g.task_id = t.task_id)',
      ),
    ).toBe(0);
    expect(
      num(deps, "SELECT COUNT(*) FROM custom_fields WHERE field_type IN ('DATE', 'TEXT')"),
    ).toBe(40);
    expect(num(deps, 'SELECT COUNT(DISTINCT task_id) FROM custom_field_values')).toBe(1000);
    expect(
      num(
        deps,
        "SELECT COUNT(*) FROM custom_field_values v JOIN custom_fields f USING (field_id) WHERE f.field_type = 'DATE' AND v.num IS NULL",
      ),
    ).toBe(0);
  });

  it('handles tiny counts', () => {
    for (const n of [0, 1, 7]) {
      const deps = makeDeps();
      seedBench(deps, n);
      expect(num(deps, 'SELECT COUNT(*) FROM tasks')).toBe(n);
      expect(num(deps, 'SELECT COUNT(*) FROM checklist_items')).toBe(3 * n);
    }
  });
});

describe('seedDatabase', () => {
  it('parses the --seed values', () => {
    expect(parseSeed('demo')).toEqual({ kind: 'demo' });
    expect(parseSeed('bench:2000')).toEqual({ kind: 'bench', tasks: 2000 });
    expect(() => parseSeed('bench')).toThrow();
  });

  it('seeds once: a second seeding is skipped', () => {
    const deps = makeDeps();
    expect(seedDatabase(deps, { kind: 'demo' })).toMatch(/^demo seed:/);
    const tasks = num(deps, 'SELECT COUNT(*) FROM tasks');
    expect(seedDatabase(deps, { kind: 'demo' })).toMatch(/seeding skipped/);
    expect(seedDatabase(deps, { kind: 'bench', tasks: 100 })).toMatch(/seeding skipped/);
    expect(num(deps, 'SELECT COUNT(*) FROM tasks')).toBe(tasks);
    expect(seedDatabase(makeDeps(), { kind: 'empty' })).toBeNull();
  });
});

describe('sign-in on a demo-seeded server', () => {
  let server: RunningServer | { url: string; close(): Promise<void> };
  beforeAll(async () => {
    try {
      server = await startServer({ dataDir: null, seed: { kind: 'demo' } });
    } catch (error) {
      // While route modules are still being written, startServer refuses to start; the
      // same wiring by hand still proves that the seeded user can sign in.
      if (!(error instanceof Error) || !error.message.includes('has no route for')) throw error;
      const { app, deps } = await buildApp({ dataDir: null });
      seedDatabase(deps, { kind: 'demo' });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server = { url: `http://127.0.0.1:${port}`, close: () => app.close() };
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  it('signs in demo@example.com / demo1234 and lists both orgs', async () => {
    const res = await fetch(`${server.url}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@example.com', password: 'demo1234' }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      data: { organizations: { orgId: number; orgName: string }[] };
    };
    expect(body.data.organizations).toEqual([
      { orgId: 1, orgName: 'Northwind Studio' },
      { orgId: 2, orgName: 'Globex Labs' },
    ]);
  });

  it('signs in other@example.com / other1234 into org 2 only', async () => {
    const res = await fetch(`${server.url}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'other@example.com', password: 'other1234' }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { organizations: { orgId: number }[] } };
    expect(body.data.organizations.map((o) => o.orgId)).toEqual([2]);
  });
});
