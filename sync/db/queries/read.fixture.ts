/**
 * Test fixture for the read side: server answers shaped like the reference server's DTOs
 * (every field it sends, ISO times from toISOString), parsed by the shared zod schemas and
 * written through the real writers (*-write.ts) into a replica file in a temp dir.
 *
 * The clock is fixed: Sunday 2025-06-15 12:00 UTC. Space 10 holds projects 100 (Alpha) and
 * 101 (Beta), space 11 holds project 110; tasks 1-8 are project tasks and subtasks, 9-15
 * personal ones. The comments on each task say which lists and views it is meant to hit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type BulkTask,
  bulkTask,
  type CustomField,
  type Project,
  project,
  type Space,
  space,
  type Task,
  type UserRef,
} from '../../../shared/api';
import { Replica } from '../replica';
import { applyProjectItems, replaceSpaces } from './projects-write';
import { applyTaskItems } from './tasks-write';

export const NOW = Date.UTC(2025, 5, 15, 12);
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** 'MM-DDTHH:mm[:ss.sss]' or 'MM-DD' in 2025, UTC. */
export const at = (s: string): number => Date.parse(`2025-${s.length === 5 ? `${s}T00:00` : s}Z`);
export const iso = (ms: number | null): string | null =>
  ms === null ? null : new Date(ms).toISOString();

const user = (userId: number, first: string, last: string): UserRef => ({
  userId,
  firstName: first,
  lastName: last,
  email: `${first.toLowerCase()}@example.com`,
  profilePicURL: null,
  profilePicName: null,
  profilePicColor: '#0ea5e9',
  provider: 'LOCAL',
  newUser: false,
  isTourCompleted: true,
  about: '',
  updateTime: iso(at('01-01')),
  expiryDate: null,
  status: 'ACTIVE',
  role: { orgRoleId: 3, roleName: 'Member' },
});
export const alice = user(1, 'Alice', 'Adams');
export const bob = user(2, 'Bob', 'Brown');
export const carol = user(3, 'Carol', 'Clark');
const users = [alice, bob, carol];
const ref = (id: number): UserRef => users.find((u) => u.userId === id) ?? { userId: id };

// ---- custom field definitions (as the server sends them, fieldValue left out) ----------

/** A definition as the server sends it, without fieldValue. */
type Def = CustomField;
const def = (
  id: number,
  name: string,
  type: string,
  scope: { spaceId: number; projectId: number | null },
  order: number,
  options: string[] = [],
): Def => ({
  tenantId: 1,
  taskCustomFieldId: id,
  fieldName: name,
  description: '',
  fieldType: type,
  fieldIcon: '',
  spaceId: scope.spaceId,
  projectId: scope.projectId,
  associatedId: scope.projectId ?? scope.spaceId,
  order,
  createdBy: alice,
  modifiedBy: alice,
  createdTime: iso(at('05-01')),
  modifiedTime: iso(at('05-01')),
  customFieldOption: options.map((o, i) => ({
    optionId: id * 10 + i + 1,
    optionName: o,
    color: '#999999',
    spaceId: scope.spaceId,
    projectId: scope.projectId,
    taskCustomFieldId: id,
  })),
});
export const CLIENT = 501;
export const DEADLINE = 502;
export const STAGE = 503;
export const POINTS = 504;
export const defs: Def[] = [
  // Space-level fields of space 10 apply to every task of its projects.
  def(CLIENT, 'Client', 'TEXT', { spaceId: 10, projectId: null }, 0),
  def(DEADLINE, 'Deadline', 'DATE', { spaceId: 10, projectId: null }, 1),
  def(STAGE, 'Stage', 'DROPDOWN', { spaceId: 10, projectId: 100 }, 0, ['Design', 'Build', 'Ship']),
  def(POINTS, 'Points', 'NUMBER', { spaceId: 10, projectId: 101 }, 0),
];
/** The definitions that apply to a task, in the server's order, with its values. */
const fieldsOf = (
  taskId: number,
  spaceId: number | null,
  projectId: number | null,
  values: Record<number, unknown>,
): CustomField[] =>
  defs
    .filter((d) =>
      d.projectId === null ? spaceId !== null && d.spaceId === spaceId : d.projectId === projectId,
    )
    .sort((a, b) => Number(a.projectId !== null) - Number(b.projectId !== null))
    .map((d) => ({
      ...d,
      fieldValue:
        values[d.taskCustomFieldId] === undefined
          ? []
          : [{ taskId, value: values[d.taskCustomFieldId] }],
    }));

// ---- tasks ----------------------------------------------------------------------------------

export interface TaskSpec {
  taskId: number;
  taskTitle: string;
  projectId?: number | null;
  parentTaskId?: number | null;
  description?: string;
  status?: string;
  priority?: string;
  tags?: string[];
  owners?: number[];
  startDate?: number | null;
  dueDate?: number | null;
  completion?: number;
  completedTime?: number | null;
  createdBy?: number;
  createdTime?: number;
  modifiedTime?: number;
  values?: Record<number, unknown>;
  counts?: Partial<
    Record<
      'subtaskCount' | 'checklistCount' | 'checklistCompletedCount' | 'attachmentCount',
      number
    >
  >;
  extra?: Record<string, unknown>;
}

const spaceOfProject = (projectId: number | null) =>
  projectId === null ? null : projectId >= 110 ? 11 : 10;

/** The TaskDto the reference server sends for this spec, at NOW. */
export const taskDto = (s: TaskSpec): Task => {
  const projectId = s.projectId ?? null;
  const spaceId = spaceOfProject(projectId);
  const done = s.completedTime !== undefined && s.completedTime !== null;
  const due = s.dueDate ?? null;
  return {
    taskId: s.taskId,
    tenantId: 1,
    spaceId,
    projectId,
    parentTaskId: s.parentTaskId ?? null,
    taskTitle: s.taskTitle,
    description: s.description ?? '',
    status: s.status ?? (done ? 'Done' : 'To Do'),
    priority: s.priority ?? 'None',
    tags: [...(s.tags ?? [])].sort(),
    owners: [...(s.owners ?? [])].sort((a, b) => a - b).map(ref),
    startDate: iso(s.startDate ?? null),
    dueDate: iso(due),
    completion: s.completion ?? (done ? 100 : 0),
    completed: done,
    completedTime: iso(s.completedTime ?? null),
    overdue: due !== null && due < NOW && !done,
    createdBy: ref(s.createdBy ?? 1),
    modifiedBy: ref(s.createdBy ?? 1),
    createdTime: iso(s.createdTime ?? at('06-01') + s.taskId * HOUR),
    modifiedTime: iso(s.modifiedTime ?? at('06-10') + s.taskId * HOUR),
    deleted: false,
    deletedTime: null,
    deletedBy: null,
    customFields: fieldsOf(s.taskId, spaceId, projectId, s.values ?? {}),
    subtaskCount: 0,
    checklistCount: 0,
    checklistCompletedCount: 0,
    attachmentCount: 0,
    ...s.counts,
    ...s.extra,
  } as Task;
};

// biome-ignore format: a fixture reads best as a table
export const taskSpecs: TaskSpec[] = [
  // Project Alpha (100): top-level 1-4, subtasks 5-6 of task 1.
  { taskId: 1, taskTitle: 'Write spec', projectId: 100, status: 'To Do', priority: 'High', tags: ['backend', 'urgent'], owners: [1, 2],
    startDate: at('06-10T09:00'), dueDate: at('06-14T10:00'), createdTime: at('06-01T08:00'), modifiedTime: at('06-15T08:00'),
    description: 'Outline the sync protocol and the conflict rules', values: { [CLIENT]: 'Acme Corp', [DEADLINE]: at('06-20'), [STAGE]: 'Design' },
    counts: { subtaskCount: 2, checklistCount: 3, checklistCompletedCount: 1, attachmentCount: 1 } },
  { taskId: 2, taskTitle: 'Review the SPEC', projectId: 100, status: 'In Progress', priority: 'Medium', tags: ['Backend'], owners: [2], createdBy: 2,
    startDate: at('06-12'), dueDate: at('06-16T09:00'), createdTime: at('06-02T08:00'), modifiedTime: at('06-14T23:59:59.999'), completion: 40,
    values: { [CLIENT]: 'acme corp', [DEADLINE]: at('06-15T08:00'), [STAGE]: 'Build' } },
  { taskId: 3, taskTitle: 'Ship 50% off banner', projectId: 100, priority: 'Low', tags: ['frontend'], createdBy: 3, completedTime: at('06-11'),
    dueDate: at('06-10'), createdTime: at('06-03'), values: { [STAGE]: 'Ship', [CLIENT]: '' } },
  { taskId: 4, taskTitle: 'Café crème menu', projectId: 100, priority: 'Urgent', owners: [3], createdBy: 3, completion: 10,
    description: 'Résumé of the naïve plan: "quotes" and (parentheses) AND OR NOT', createdTime: at('06-04') },
  { taskId: 5, taskTitle: 'Draft outline', projectId: 100, parentTaskId: 1, owners: [1], dueDate: NOW - 1, createdTime: at('06-05') },
  { taskId: 6, taskTitle: 'Check references', projectId: 100, parentTaskId: 1, completedTime: at('06-12'), createdTime: at('06-06') },
  // Project Beta (101).
  { taskId: 7, taskTitle: 'Plan launch', projectId: 101, status: 'In Review', owners: [2], createdBy: 2, dueDate: NOW + 7 * DAY,
    values: { [POINTS]: 8 }, createdTime: at('06-07') },
  { taskId: 8, taskTitle: 'Budget review', projectId: 101, priority: 'High', tags: ['finance'], owners: [1, 2], createdBy: 2,
    dueDate: NOW + 7 * DAY - 1, values: { [POINTS]: 13 }, createdTime: at('06-08'), extra: { sprint: { name: 'S24', goal: 42 } } },
  // Personal tasks (no space, no project).
  { taskId: 9, taskTitle: 'Buy milk', owners: [1], dueDate: at('06-15T18:00'), counts: { subtaskCount: 1 } },
  { taskId: 10, taskTitle: 'Call plumber', owners: [1], createdBy: 2, dueDate: NOW },
  { taskId: 11, taskTitle: 'Bob private', owners: [2], createdBy: 2 },
  { taskId: 12, taskTitle: 'Renew passport', completedTime: at('06-13'), dueDate: at('06-14'), owners: [1] },
  { taskId: 13, taskTitle: 'Whole milk', parentTaskId: 9, owners: [1], dueDate: at('06-15T10:00') },
  { taskId: 14, taskTitle: 'Pay rent', owners: [1], dueDate: at('06-22T23:59') },
  { taskId: 15, taskTitle: 'Dentist', owners: [1], dueDate: at('06-23') },
];

export const CHECKLIST_1 = [
  {
    checklistId: 71,
    taskId: 1,
    subtaskId: null,
    name: 'Collect notes',
    completed: true,
    assigneeId: 2,
    position: 0,
  },
  {
    checklistId: 73,
    taskId: 1,
    subtaskId: null,
    name: 'Write draft',
    completed: false,
    assigneeId: null,
    position: 1,
  },
  {
    checklistId: 72,
    taskId: 1,
    subtaskId: null,
    name: 'Ask for review',
    completed: false,
    assigneeId: 1,
    position: 2,
  },
].map((c) => ({ ...c, createdTime: iso(at('06-02')), modifiedTime: iso(at('06-03')) }));
/** Items on subtask 5 report the parent (1) as taskId and the subtask as subtaskId. */
export const CHECKLIST_5 = [
  {
    checklistId: 81,
    taskId: 1,
    subtaskId: 5,
    name: 'Headings',
    completed: false,
    assigneeId: null,
    position: 0,
  },
  {
    checklistId: 82,
    taskId: 1,
    subtaskId: 5,
    name: 'Examples',
    completed: true,
    assigneeId: 1,
    position: 1,
  },
].map((c) => ({ ...c, createdTime: iso(at('06-05')), modifiedTime: iso(at('06-05')) }));

export const attachmentOf = (
  attachmentId: number,
  taskId: number,
  subtaskId: number | null,
  name: string,
) => ({
  attachmentId,
  fileName: name,
  extension: name.split('.').pop() ?? '',
  contentType: 'application/pdf',
  size: 1234,
  downloadUrl:
    subtaskId === null
      ? `/v1/tasks/${taskId}/attachments/${attachmentId}/content`
      : `/v1/tasks/${taskId}/subtasks/${subtaskId}/attachments/${attachmentId}/content`,
  taskId,
  subtaskId,
  projectId: null,
  createdBy: bob,
  createdTime: iso(at('06-03') + attachmentId),
  completedBytes: 1234,
  totalSize: 1234,
});
export const ATTACHMENTS_1 = [attachmentOf(91, 1, null, 'spec.pdf')];
export const ATTACHMENTS_5 = [attachmentOf(92, 1, 5, 'outline.pdf')];

/** The bulk items: each task DTO with its embedded checklist and attachments. */
export const bulkItems = (): BulkTask[] =>
  taskSpecs.map((s) =>
    bulkTask.parse({
      ...taskDto(s),
      checklists: s.taskId === 1 ? CHECKLIST_1 : s.taskId === 5 ? CHECKLIST_5 : [],
      attachments: s.taskId === 1 ? ATTACHMENTS_1 : s.taskId === 5 ? ATTACHMENTS_5 : [],
    }),
  );

// ---- spaces and projects --------------------------------------------------------------------

export const spaceDto = (spaceId: number, name: string, memberIds: number[]): Space =>
  space.parse({
    tenantId: 1,
    spaceId,
    spaceName: name,
    description: `${name} work`,
    color: '#0ea5e9',
    spaceType: 'PUBLIC',
    createdBy: alice,
    modifiedBy: bob,
    deletedBy: null,
    createdTime: iso(at('05-01')),
    modifiedTime: iso(at('05-02')),
    deletedTime: null,
    deleted: false,
    archived: false,
    projectAdminMatch: false,
    spaceMembers: memberIds.map((u, i) => ({
      spaceMemberId: spaceId * 100 + i,
      spaceId,
      user: ref(u),
      invitedBy: i === 0 ? null : alice,
      spaceRole: { spaceRoleId: i === 0 ? 1 : 2, spaceRoleName: i === 0 ? 'Admin' : 'Member' },
      joined: true,
      hidden: false,
    })),
    customFields: defs
      .filter((d) => d.spaceId === spaceId && d.projectId === null)
      .map((d) => ({ ...d, fieldValue: [] })),
  });

export interface ProjectSpec {
  projectId: number;
  projectName: string;
  status?: { name: string; category: string };
  priority?: string;
  health?: string;
  tags?: string[];
  members?: number[];
  createdBy?: number;
  startDate?: number | null;
  dueDate?: number | null;
  createdTime?: number;
  modifiedTime?: number;
  completion?: number;
  completedTime?: number | null;
  isPublic?: boolean;
  archived?: boolean;
}

export const projectDto = (s: ProjectSpec): Project => {
  const spaceId = spaceOfProject(s.projectId) ?? 10;
  const status = s.status ?? { name: 'Active', category: 'ACTIVE' };
  const done = status.category === 'COMPLETED';
  const due = s.dueDate ?? null;
  return project.parse({
    tenantId: 1,
    spaceId,
    projectId: s.projectId,
    contact:
      s.projectId === 100
        ? { tenantId: 1, contactId: 7, contactName: 'Ada', email: 'ada@acme.test' }
        : null,
    projectName: s.projectName,
    description: '',
    startDate: iso(s.startDate ?? null),
    dueDate: iso(due),
    completion: s.completion ?? 0,
    deleted: false,
    public: s.isPublic ?? false,
    overdue: due !== null && due < NOW && !done,
    archived: s.archived ?? false,
    completed: done,
    createdTime: iso(s.createdTime ?? at('05-10') + s.projectId * HOUR),
    modifiedTime: iso(s.modifiedTime ?? at('06-10') + s.projectId * HOUR),
    deletedTime: null,
    completedTime: iso(s.completedTime ?? null),
    createdBy: ref(s.createdBy ?? 1),
    modifiedBy: ref(s.createdBy ?? 1),
    deletedBy: null,
    projectStatus: {
      tenantId: 1,
      projectStatusId: status.category === 'COMPLETED' ? 3 : 1,
      projectStatusName: status.name,
      color: '#22c55e',
      projectStatusCategory: status.category,
      createdTime: iso(at('01-01')),
      modifiedTime: iso(at('01-01')),
      createdBy: null,
      modifiedBy: null,
      default: status.name === 'Active',
    },
    projectPriority: s.priority
      ? {
          tenantId: 1,
          projectPriorityId: 4,
          priorityLabel: s.priority,
          color: '#f00',
          createdBy: null,
          modifiedBy: null,
          default: false,
          primary: false,
        }
      : null,
    projectHealth: s.health
      ? {
          tenantId: 1,
          projectHealthId: 2,
          healthLabel: s.health,
          color: '#0f0',
          createdBy: null,
          modifiedBy: null,
          default: false,
          primary: true,
        }
      : null,
    projectTags: (s.tags ?? [])
      .map((t, i) => ({
        tenantId: 1,
        projectTagId: s.projectId * 10 + (s.tags?.length ?? 0) - i,
        tagName: t,
        color: '#123456',
        createdBy: 1,
        modifiedBy: 1,
      }))
      .sort((a, b) => a.projectTagId - b.projectTagId),
    projectMembers: (s.members ?? []).map((u, i) => ({
      projectMemberId: s.projectId * 10 + i,
      projectId: s.projectId,
      user: ref(u),
      invitedBy: alice,
      role: { projectRoleId: 1, projectRoleName: 'Member' },
    })),
    projectMail: null,
    spaceName: spaceId === 10 ? 'Product' : 'Ops',
    customFields: defs
      .filter((d) => (d.projectId === null ? d.spaceId === spaceId : d.projectId === s.projectId))
      .sort((a, b) => Number(a.projectId !== null) - Number(b.projectId !== null))
      .map((d) => ({ ...d, fieldValue: [] })),
  });
};

// biome-ignore format: a fixture reads best as a table
export const projectSpecs: ProjectSpec[] = [
  { projectId: 100, projectName: 'Alpha launch', priority: 'High', health: 'On track', tags: ['web', 'q3'], members: [1, 2],
    startDate: at('06-01'), dueDate: at('06-14T10:00'), createdTime: at('05-01'), modifiedTime: at('06-15T01:00'), completion: 30 },
  { projectId: 101, projectName: 'beta budget', priority: 'Low', health: 'At risk', tags: ['finance'], members: [2], createdBy: 2,
    startDate: at('06-05'), dueDate: NOW + 3 * DAY, createdTime: at('05-02'), completion: 60, isPublic: true },
  { projectId: 102, projectName: 'Gamma_archive', status: { name: 'Closed', category: 'COMPLETED' }, completedTime: at('06-01'),
    dueDate: at('05-20'), members: [3], createdBy: 3, createdTime: at('05-03'), completion: 100, archived: true },
  { projectId: 103, projectName: 'Delta 100%', priority: 'high', dueDate: null, createdTime: at('05-03'), completion: 0 },
  { projectId: 110, projectName: 'Ops project', members: [1] },
];

// ---- the replica ------------------------------------------------------------------------------

export interface TestReplica {
  replica: Replica;
  dir: string;
  close(): void;
}

/** An empty replica file in a fresh temp dir. */
export const openTestReplica = (): TestReplica => {
  const dir = mkdtempSync(join(tmpdir(), 'replica-read-'));
  const replica = Replica.openFile(join(dir, 'replica.sqlite'));
  return {
    replica,
    dir,
    close: () => {
      replica.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** Spaces, projects and tasks of the fixture, written the way a bootstrap writes them. */
export const seedReplica = (r: Replica): void => {
  r.transaction(() => {
    replaceSpaces(r.db, [spaceDto(10, 'Product', [1, 2, 3]), spaceDto(11, 'Ops', [1])]);
    applyProjectItems(r.db, projectSpecs.map(projectDto));
    applyTaskItems(r.db, bulkItems());
  });
};

/** Fields the writers drop (no column, not kept in `extra`): a read cannot give them back. */
export const LOST_ON_WRITE = {
  task: [],
  space: [],
  spaceMember: [],
  attachment: [],
} as const;

/** `obj` without the given paths ("a" or "a.b"). */
export const without = <T extends object>(obj: T, paths: readonly string[]): T => {
  const out = structuredClone(obj) as Record<string, unknown>;
  for (const path of paths) {
    const [head, tail] = path.split('.') as [string, string | undefined];
    if (tail === undefined) delete out[head];
    else if (out[head] && typeof out[head] === 'object')
      delete (out[head] as Record<string, unknown>)[tail];
  }
  return out as T;
};
