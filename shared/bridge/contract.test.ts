import { describe, expect, it } from 'vitest';
import { bridgeContract, bridgeEvents, defaultSettings, settings } from './index';

describe('bridge contract', () => {
  it('names every method domain.verb and every event domain.noun', () => {
    for (const name of [...Object.keys(bridgeContract), ...Object.keys(bridgeEvents)])
      expect(name).toMatch(/^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/);
  });

  it('takes a task list query with filters and a multi-key sort, defaults applied', () => {
    const parsed = bridgeContract['tasks.list'].input.parse({
      scope: { kind: 'project', projectId: 3 },
      filter: {
        status: ['Open'],
        overdue: true,
        customFields: [{ field: 'Stage', condition: 'is', value: ['Beta'] }],
      },
      sort: [{ property: 'dueDate', direction: 'desc' }, { property: 'taskTitle' }],
    });
    expect(parsed).toEqual({
      scope: { kind: 'project', projectId: 3 },
      filter: {
        status: ['Open'],
        overdue: true,
        customFields: [{ field: 'Stage', condition: 'IS', value: ['Beta'] }],
      },
      sort: [
        { property: 'dueDate', direction: 'desc' },
        { property: 'taskTitle', direction: 'asc' },
      ],
      offset: 0,
      limit: 100,
    });
  });

  it('refuses unknown keys, unknown sort properties and malformed custom field conditions', () => {
    const input = bridgeContract['tasks.list'].input;
    const issuesOf = (v: unknown) =>
      (input.safeParse(v).error?.issues ?? []).map((i) => i.path.join('.'));
    expect(issuesOf({ scope: { kind: 'personal' }, colour: 'red' })).toEqual(['']);
    expect(issuesOf({ scope: { kind: 'personal' }, sort: [{ property: 'title' }] })).toEqual([
      'sort.0.property',
    ]);
    expect(
      issuesOf({
        scope: { kind: 'personal' },
        filter: { customFields: [{ field: 'Due', condition: 'BETWEEN', value: [1] }] },
      }),
    ).toEqual(['filter.customFields']);
    expect(issuesOf({ scope: { kind: 'project' } })).toEqual(['scope.projectId']);
  });

  it('accepts only http(s) server URLs at sign-in', () => {
    const input = bridgeContract['session.signIn'].input;
    const base = { email: 'demo@example.com', password: 'x' };
    expect(input.safeParse({ ...base, serverUrl: 'https://work.example.com' }).success).toBe(true);
    expect(input.safeParse({ ...base, serverUrl: 'file:///etc/passwd' }).success).toBe(false);
    expect(input.safeParse({ ...base, serverUrl: 'not a url' }).success).toBe(false);
  });

  it('has valid default settings and refuses a bad patch', () => {
    expect(settings.parse(defaultSettings)).toEqual(defaultSettings);
    const patch = bridgeContract['settings.set'].input;
    expect(patch.safeParse({ theme: 'dark' }).success).toBe(true);
    expect(patch.safeParse({ theme: 'purple' }).success).toBe(false);
    expect(patch.safeParse({ idleMinutes: 0 }).success).toBe(false);
    expect(patch.safeParse({ globalShortcut: 'Ctrl+Alt+T; rm -rf' }).success).toBe(false);
  });

  it('rows carry local (negative) ids and a sync mark', () => {
    const out = bridgeContract['tasks.detail'].output;
    const row = { taskId: -4, taskTitle: 'offline', projectId: -2, sync: 'pending' };
    expect(
      out.safeParse({
        task: row,
        path: { space: null, project: { projectId: -2, name: 'Made offline' }, parent: null },
        subtasks: [],
        checklist: [],
        attachments: [],
        timers: [],
        failedEdits: [],
      }).success,
    ).toBe(true);
    expect(out.safeParse({ task: { ...row, sync: 'maybe' } }).success).toBe(false);
  });
});
