import type { UserRef } from '../../shared/api';
import type { Db } from '../db/open';
import {
  customFieldDto,
  type FieldCatalog,
  type FieldDefRow,
  loadFieldCatalog,
} from './custom-fields';
import {
  type AttachmentParent,
  type AttachmentRow,
  attachmentColumns,
  attachmentDto,
} from './items-dto';
import type { JsonWriter } from './json-writer';
import {
  contactDto,
  loadProjectPageParts,
  projectHealthDto,
  projectPriorityDto,
  projectStatusDto,
  projectTagDto,
} from './projects-dto';
import { IN_IDS, idsParam, rawStmt, stmt } from './statements';
import { userRefs } from './users';

/**
 * Bulk export items written straight to JSON bytes (./json-writer), a page at a time (see
 * ./bulk for what the export promises). A page of 5,000 tasks as DTO objects, then a string,
 * then bytes, costs several times what the queries do; here rows come as arrays, and what
 * many items share (user references, custom field definitions, project vocabularies) is
 * serialized once per page.
 *
 * The JSON must stay what the DTO builders (./tasks-dto, ./projects-dto) give for the same
 * rows, bar the slim `customFields` of ./bulk: the bulk-export conformance suite compares each
 * item with the getTaskById / getProjectById answer.
 */

/** User references of a page, each serialized once. */
class RefBytes {
  private readonly cache = new Map<number, Buffer>();
  constructor(readonly users: ReadonlyMap<number, UserRef>) {}

  of(userId: number): Buffer {
    let bytes = this.cache.get(userId);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(this.users.get(userId) ?? { userId }));
      this.cache.set(userId, bytes);
    }
    return bytes;
  }
}

// ---- tasks ---------------------------------------------------------------------------------

/** The page query's columns, in the order `TaskRaw` reads them. */
export const TASK_RAW_COLUMNS = [
  'task_id',
  'modified_time',
  'space_id',
  'project_id',
  'parent_task_id',
  'title',
  'description',
  'status',
  'priority',
  'start_date',
  'due_date',
  'completion',
  'completed',
  'completed_time',
  'created_by',
  'modified_by',
  'created_time',
  'deleted',
  'deleted_time',
]
  .map((c) => `t.${c}`)
  .join(', ');

export type TaskRaw = [
  taskId: number,
  modifiedTime: number,
  spaceId: number | null,
  projectId: number | null,
  parentTaskId: number | null,
  title: string,
  description: string,
  status: string,
  priority: string,
  startDate: number | null,
  dueDate: number | null,
  completion: number,
  completed: number,
  completedTime: number | null,
  createdBy: number,
  modifiedBy: number,
  createdTime: number,
  deleted: number,
  deletedTime: number | null,
];

/**
 * A custom field in a bulk task item: the definition's identity, name and type, and this
 * task's value; a DROPDOWN also names its options (id and name), which a replica needs to
 * make its value searchable. The first time a field appears in a page it comes whole instead
 * (the definition of getTaskById, with the value), so that a replica taking definitions from
 * the items of a page stores the whole definition, never this summary.
 */
class FieldWriter {
  private readonly slim = new Map<number, { head: Buffer; tail: Buffer }>();
  private readonly whole = new Set<number>();
  constructor(
    private readonly catalog: FieldCatalog,
    private readonly users: ReadonlyMap<number, UserRef>,
  ) {}

  write(w: JsonWriter, def: FieldDefRow, taskId: number, valueJson: string): void {
    if (!this.whole.has(def.field_id)) {
      this.whole.add(def.field_id);
      const value = JSON.parse(valueJson) as unknown;
      w.json(JSON.stringify(customFieldDto(def, this.catalog, this.users, [{ taskId, value }])));
      return;
    }
    let parts = this.slim.get(def.field_id);
    if (!parts) {
      const options =
        def.field_type.toUpperCase() === 'DROPDOWN'
          ? `,"customFieldOption":${JSON.stringify(
              this.catalog
                .optionsOf(def.field_id)
                .map((o) => ({ optionId: o.option_id, optionName: o.name })),
            )}`
          : '';
      parts = {
        head: Buffer.from(
          `{"taskCustomFieldId":${def.field_id},"fieldName":${JSON.stringify(def.name)},"fieldType":${JSON.stringify(def.field_type)},"fieldValue":[{"taskId":`,
        ),
        tail: Buffer.from(`}]${options}}`),
      };
      this.slim.set(def.field_id, parts);
    }
    w.bytes(parts.head).num(taskId).ascii(',"value":').json(valueJson).bytes(parts.tail);
  }
}

/**
 * Rows embedded in the items of a page, in page order: the first column is the index of the
 * task in the page (json_each's key), so the writer walks them alongside the page, with no
 * map and no list per task.
 */
type ChecklistRaw = [
  index: number,
  checklistId: number,
  name: string,
  completed: number,
  assigneeId: number | null,
  position: number,
  createdTime: number,
  modifiedTime: number,
];
type OwnerRaw = [index: number, userId: number];
type TagRaw = [index: number, name: string];
/** The stored value is the JSON the API shows: it goes into the page as it is. */
type ValueRaw = [index: number, fieldId: number, value: string];

/** Where the rows of the page's task `index` end, from `from` on. */
const endOf = (rows: readonly (readonly [number, ...unknown[]])[], from: number, index: number) => {
  let i = from;
  while (i < rows.length && rows[i]![0] === index) i++;
  return i;
};

/** What the items of a page embed, loaded with a fixed number of queries. */
interface TaskPageParts {
  checklists: ChecklistRaw[];
  owners: OwnerRaw[];
  tags: TagRaw[];
  values: ValueRaw[];
  /** Live subtasks by parent task id. */
  subtasks: Map<number, number>;
  attachments: Map<number, AttachmentRow[]>;
  catalog: FieldCatalog;
  users: Map<number, UserRef>;
}

const loadTaskPageParts = (db: Db, orgId: number, rows: readonly TaskRaw[]): TaskPageParts => {
  const ids = idsParam(rows.map((r) => r[0]));
  // In page order, then the DTO's own order (checklist by position, owners by id, tags by name).
  const inPage = <R>(columns: string, table: string, orderBy: string): R[] =>
    rawStmt(
      db,
      `SELECT j.key, ${columns} FROM json_each(?) j JOIN ${table} x ON x.task_id = j.value ORDER BY j.key${orderBy}`,
    ).all(ids) as R[];
  const checklists = inPage<ChecklistRaw>(
    'x.checklist_id, x.name, x.completed, x.assignee_id, x.position, x.created_time, x.modified_time',
    'checklist_items',
    ', x.position, x.checklist_id',
  );
  const owners = inPage<OwnerRaw>('x.user_id', 'task_owners', ', x.user_id');
  const tags = inPage<TagRaw>('x.name', 'task_tags', ', x.name');
  const subtasks = new Map(
    rawStmt(
      db,
      `SELECT parent_task_id, COUNT(*) FROM tasks WHERE parent_task_id IN ${IN_IDS} AND deleted = 0 GROUP BY parent_task_id`,
    ).all(ids) as [number, number][],
  );
  // Attachments are few: object rows and the attachment DTO of the other answers.
  const attachments = new Map<number, AttachmentRow[]>();
  for (const a of stmt(
    db,
    `SELECT ${attachmentColumns} FROM attachments WHERE task_id IN ${IN_IDS} ORDER BY created_time, attachment_id`,
  ).all(ids) as AttachmentRow[]) {
    if (a.task_id === null) continue;
    const list = attachments.get(a.task_id);
    if (list) list.push(a);
    else attachments.set(a.task_id, [a]);
  }
  const catalog = loadFieldCatalog(
    db,
    orgId,
    rows.map((r) => r[2]),
    rows.map((r) => r[3]),
  );
  const values =
    catalog.defs.length > 0
      ? inPage<ValueRaw>('x.field_id, x.value', 'custom_field_values', '')
      : [];

  const userIds: number[] = catalog.userIds();
  for (const r of rows) userIds.push(r[14], r[15]);
  for (const o of owners) userIds.push(o[1]);
  for (const list of attachments.values()) for (const a of list) userIds.push(a.created_by);
  const users = userRefs(db, userIds);
  return { checklists, owners, tags, values, subtasks, attachments, catalog, users };
};

/**
 * Writes the bulk task items of a page of rows, in the rows' order and comma-separated, with
 * a fixed number of queries whatever the page size. Counts of checklist items and attachments
 * come from the embedded lists (the very rows the DTO's count queries count).
 */
export const writeBulkTaskItems = (
  w: JsonWriter,
  db: Db,
  orgId: number,
  rows: readonly TaskRaw[],
  now: number,
): void => {
  if (rows.length === 0) return;
  writeTaskItems(w, orgId, rows, loadTaskPageParts(db, orgId, rows), now);
};

const writeTaskItems = (
  w: JsonWriter,
  orgId: number,
  rows: readonly TaskRaw[],
  { checklists, owners, tags, values, subtasks, attachments, catalog, users }: TaskPageParts,
  now: number,
): void => {
  const refs = new RefBytes(users);
  const fields = new FieldWriter(catalog, users);
  // Where each embedded list's rows of the current task start.
  let checklistAt = 0;
  let ownerAt = 0;
  let tagAt = 0;
  let valueAt = 0;

  for (let k = 0; k < rows.length; k++) {
    const [
      taskId,
      modifiedTime,
      spaceId,
      projectId,
      parentTaskId,
      title,
      description,
      status,
      priority,
      startDate,
      dueDate,
      completion,
      completed,
      completedTime,
      createdBy,
      modifiedBy,
      createdTime,
      deleted,
      deletedTime,
    ] = rows[k]!;
    const checklistEnd = endOf(checklists, checklistAt, k);
    const ownerEnd = endOf(owners, ownerAt, k);
    const tagEnd = endOf(tags, tagAt, k);
    const valueEnd = endOf(values, valueAt, k);
    const files = attachments.get(taskId);
    if (k > 0) w.ascii(',');

    w.ascii('{"taskId":').num(taskId);
    w.ascii(',"tenantId":').num(orgId);
    w.ascii(',"spaceId":').num(spaceId);
    w.ascii(',"projectId":').num(projectId);
    w.ascii(',"parentTaskId":').num(parentTaskId);
    w.ascii(',"taskTitle":').str(title);
    w.ascii(',"description":').str(description);
    w.ascii(',"status":').str(status);
    w.ascii(',"priority":').str(priority);
    w.ascii(',"tags":[');
    for (let i = tagAt; i < tagEnd; i++) {
      if (i > tagAt) w.ascii(',');
      w.str(tags[i]![1]);
    }
    w.ascii('],"owners":[');
    for (let i = ownerAt; i < ownerEnd; i++) {
      if (i > ownerAt) w.ascii(',');
      w.bytes(refs.of(owners[i]![1]));
    }
    w.ascii('],"startDate":').iso(startDate);
    w.ascii(',"dueDate":').iso(dueDate);
    w.ascii(',"completion":').num(completion);
    w.ascii(',"completedTime":').iso(completedTime);
    w.ascii(',"overdue":').bool(dueDate !== null && dueDate < now && completed !== 1);
    w.ascii(',"createdBy":').bytes(refs.of(createdBy));
    w.ascii(',"modifiedBy":').bytes(refs.of(modifiedBy));
    w.ascii(',"createdTime":').iso(createdTime);
    w.ascii(',"modifiedTime":').iso(modifiedTime);
    w.ascii(',"deleted":').bool(deleted === 1);
    w.ascii(',"deletedTime":').iso(deletedTime);
    w.ascii(',"customFields":[');
    if (valueEnd > valueAt) {
      // Only fields that apply to the task (its space's and project's), in their order.
      let first = true;
      for (const def of catalog.forScope({ spaceId, projectId })) {
        for (let i = valueAt; i < valueEnd; i++) {
          const v = values[i]!;
          if (v[1] !== def.field_id) continue;
          if (!first) w.ascii(',');
          first = false;
          fields.write(w, def, taskId, v[2]);
        }
      }
    }
    let done = 0;
    for (let i = checklistAt; i < checklistEnd; i++) done += checklists[i]![3];
    w.ascii('],"subtaskCount":').num(subtasks.get(taskId) ?? 0);
    w.ascii(',"checklistCount":').num(checklistEnd - checklistAt);
    w.ascii(',"checklistCompletedCount":').num(done);
    w.ascii(',"attachmentCount":').num(files?.length ?? 0);
    w.ascii(',"checklists":[');
    for (let i = checklistAt; i < checklistEnd; i++) {
      const [, checklistId, name, isDone, assigneeId, position, created, modified] = checklists[i]!;
      if (i > checklistAt) w.ascii(',');
      // An item on a subtask names the parent as taskId and the subtask as subtaskId.
      w.ascii('{"checklistId":').num(checklistId);
      w.ascii(',"taskId":').num(parentTaskId ?? taskId);
      w.ascii(',"subtaskId":').num(parentTaskId === null ? null : taskId);
      w.ascii(',"name":').str(name);
      w.ascii(',"completed":').bool(isDone === 1);
      w.ascii(',"assigneeId":').num(assigneeId);
      w.ascii(',"position":').num(position);
      w.ascii(',"createdTime":').iso(created);
      w.ascii(',"modifiedTime":').iso(modified);
      w.ascii('}');
    }
    w.ascii('],"attachments":');
    if (files) {
      const parent: AttachmentParent =
        parentTaskId === null
          ? { kind: 'task', taskId }
          : { kind: 'subtask', taskId: parentTaskId, subtaskId: taskId };
      w.json(
        JSON.stringify(
          files.map((a) =>
            attachmentDto(a, parent, users.get(a.created_by) ?? { userId: a.created_by }),
          ),
        ),
      );
    } else w.ascii('[]');
    w.ascii('}');
    checklistAt = checklistEnd;
    ownerAt = ownerEnd;
    tagAt = tagEnd;
    valueAt = valueEnd;
  }
};

// ---- projects ------------------------------------------------------------------------------

/** The project page query's columns, in the order `ProjectRaw` reads them. */
export const PROJECT_RAW_COLUMNS = [
  'project_id',
  'modified_time',
  'space_id',
  'project_name',
  'description',
  'start_date',
  'due_date',
  'completion',
  'is_public',
  'archived',
  'status_id',
  'priority_id',
  'health_id',
  'contact_id',
  'completed',
  'completed_time',
  'created_by',
  'modified_by',
  'created_time',
  'deleted',
  'deleted_time',
  'deleted_by',
]
  .map((c) => `p.${c}`)
  .join(', ');

export type ProjectRaw = [
  projectId: number,
  modifiedTime: number,
  spaceId: number,
  projectName: string,
  description: string,
  startDate: number | null,
  dueDate: number | null,
  completion: number,
  isPublic: number,
  archived: number,
  statusId: number | null,
  priorityId: number | null,
  healthId: number | null,
  contactId: number | null,
  completed: number,
  completedTime: number | null,
  createdBy: number,
  modifiedBy: number,
  createdTime: number,
  deleted: number,
  deletedTime: number | null,
  deletedBy: number | null,
];

/** The JSON of a shared object, made once per page. */
const memo = <K, V>(make: (key: K) => V) => {
  const cache = new Map<K, V>();
  return (key: K): V => {
    let v = cache.get(key);
    if (v === undefined) {
      v = make(key);
      cache.set(key, v);
    }
    return v;
  };
};

/**
 * Writes the bulk project items of a page of rows: the project DTOs of the other answers
 * (./projects-dto, custom field definitions whole), what projects share serialized once.
 */
export const writeBulkProjectItems = (
  w: JsonWriter,
  db: Db,
  orgId: number,
  rows: readonly ProjectRaw[],
  now: number,
): void => {
  if (rows.length === 0) return;
  const userIds: number[] = [];
  for (const r of rows) {
    userIds.push(r[16], r[17]);
    if (r[21] !== null) userIds.push(r[21]);
  }
  const { statuses, priorities, health, tags, members, contacts, spaceNames, catalog, users } =
    loadProjectPageParts(db, orgId, {
      projectIds: rows.map((r) => r[0]),
      spaceIds: rows.map((r) => r[2]),
      contactIds: rows.map((r) => r[13]).filter((c): c is number => c !== null),
      userIds,
    });
  const refs = new RefBytes(users);
  const json = (value: unknown) => Buffer.from(JSON.stringify(value));
  const statusJson = memo((id: number) => {
    const status = statuses.get(id);
    return json(status ? projectStatusDto(status) : null);
  });
  const priorityJson = memo((id: number) => {
    const priority = priorities.get(id);
    return json(priority ? projectPriorityDto(priority) : null);
  });
  const healthJson = memo((id: number) => {
    const h = health.get(id);
    return json(h ? projectHealthDto(h) : null);
  });
  const fieldJson = memo((def: FieldDefRow) => json(customFieldDto(def, catalog, users, [])));

  let firstProject = true;
  for (const r of rows) {
    const [
      projectId,
      modifiedTime,
      spaceId,
      projectName,
      description,
      startDate,
      dueDate,
      completion,
      isPublic,
      archived,
      statusId,
      priorityId,
      healthId,
      contactId,
      completed,
      completedTime,
      createdBy,
      modifiedBy,
      createdTime,
      deleted,
      deletedTime,
      deletedBy,
    ] = r;
    if (!firstProject) w.ascii(',');
    firstProject = false;
    const contact = contactId === null ? undefined : contacts.get(contactId);

    w.ascii('{"tenantId":').num(orgId);
    w.ascii(',"spaceId":').num(spaceId);
    w.ascii(',"projectId":').num(projectId);
    w.ascii(',"contact":');
    if (contact) w.json(JSON.stringify(contactDto(orgId, contact.contact_id, contact.body)));
    else w.ascii('null');
    w.ascii(',"projectName":').str(projectName);
    w.ascii(',"description":').str(description);
    w.ascii(',"startDate":').iso(startDate);
    w.ascii(',"dueDate":').iso(dueDate);
    w.ascii(',"completion":').num(completion);
    w.ascii(',"deleted":').bool(deleted === 1);
    w.ascii(',"public":').bool(isPublic === 1);
    w.ascii(',"overdue":').bool(dueDate !== null && dueDate < now && completed !== 1);
    w.ascii(',"archived":').bool(archived === 1);
    w.ascii(',"createdTime":').iso(createdTime);
    w.ascii(',"modifiedTime":').iso(modifiedTime);
    w.ascii(',"deletedTime":').iso(deletedTime);
    w.ascii(',"completedTime":').iso(completedTime);
    w.ascii(',"createdBy":').bytes(refs.of(createdBy));
    w.ascii(',"modifiedBy":').bytes(refs.of(modifiedBy));
    w.ascii(',"deletedBy":');
    if (deletedBy === null) w.ascii('null');
    else w.bytes(refs.of(deletedBy));
    w.ascii(',"projectStatus":');
    if (statusId === null) w.ascii('null');
    else w.bytes(statusJson(statusId));
    w.ascii(',"projectPriority":');
    if (priorityId === null) w.ascii('null');
    else w.bytes(priorityJson(priorityId));
    w.ascii(',"projectHealth":');
    if (healthId === null) w.ascii('null');
    else w.bytes(healthJson(healthId));
    w.ascii(',"projectTags":').json(
      JSON.stringify((tags.get(projectId) ?? []).map((t) => projectTagDto(orgId, t))),
    );
    w.ascii(',"projectMembers":[');
    let first = true;
    for (const m of members.get(projectId) ?? []) {
      if (!first) w.ascii(',');
      first = false;
      // projectMemberDto's shape, with the user references serialized once per page.
      w.ascii('{"projectMemberId":').num(m.project_member_id);
      w.ascii(',"projectId":').num(m.project_id);
      w.ascii(',"user":').bytes(refs.of(m.user_id));
      w.ascii(',"invitedBy":');
      if (m.invited_by === null) w.ascii('null');
      else w.bytes(refs.of(m.invited_by));
      w.ascii(',"role":{"projectRoleId":').num(m.role_id);
      w.ascii(',"projectRoleName":').str(m.role_name);
      w.ascii('}}');
    }
    w.ascii('],"projectMail":null,"spaceName":').str(spaceNames.get(spaceId)?.space_name ?? null);
    w.ascii(',"customFields":[');
    first = true;
    for (const def of catalog.forScope({ spaceId, projectId })) {
      if (!first) w.ascii(',');
      first = false;
      w.bytes(fieldJson(def));
    }
    w.ascii(']}');
  }
};
