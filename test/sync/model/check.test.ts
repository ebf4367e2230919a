/** Rule 6 compares the replica with the server's store on every field the app edits. */
import { describe, expect, it } from 'vitest';
import { checkOrg, type OrgView } from './check';
import type { ReplicaDump } from './protocol';
import type { ServerState } from './server-side';

const fields = {
  title: 't',
  description: 'd',
  status: 'To Do',
  priority: 'None',
  completion: 0,
  startDate: null,
  dueDate: 1_893_574_800_000,
  owners: '1,4',
  tags: 'blue|red',
  'cf:7': '"v"',
};
const server: ServerState = {
  tasks: [{ id: 5, orgId: 1, deleted: false, projectId: null, parentTaskId: null, fields }],
  spaces: [],
  projects: [],
  items: [{ id: 9, taskId: 5, name: 'c', completed: false, assignee: 4 }],
  attachments: [],
  timers: [],
};
const replica = (over: Partial<ReplicaDump> = {}): ReplicaDump => ({
  tasks: [{ id: 5, fields: { ...fields } }],
  checklist: [{ id: 9, taskId: 5, name: 'c', completed: false, assignee: 4 }],
  attachments: [],
  timers: [],
  ...over,
});
const view = (r: ReplicaDump): OrgView => ({
  org: 0,
  orgIds: [1],
  status: null,
  drained: true,
  ids: null,
  replica: r,
  server,
});
const rule6 = (r: ReplicaDump) =>
  checkOrg({ entities: [], timers: [], uploads: [] }, view(r)).problems.filter(
    (p) => p.rule === '6 replica',
  );

describe('rule 6', () => {
  it('holds when every field matches, whatever order the fields were read in', () => {
    const reversed = Object.fromEntries(Object.entries(fields).reverse());
    expect(rule6(replica({ tasks: [{ id: 5, fields: reversed }] }))).toEqual([]);
  });

  it.each([
    ['description', 'other'],
    ['dueDate', null],
    ['owners', '1'],
    ['tags', 'red'],
    ['cf:7', '"w"'],
  ])("breaks on a task's %s", (field, value) => {
    expect(
      rule6(replica({ tasks: [{ id: 5, fields: { ...fields, [field]: value } }] })),
    ).toHaveLength(1);
  });

  it("breaks on an item's assignee", () => {
    const checklist = [{ id: 9, taskId: 5, name: 'c', completed: false, assignee: null }];
    expect(rule6(replica({ checklist }))).toHaveLength(1);
  });
});
