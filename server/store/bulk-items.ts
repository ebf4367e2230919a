import type { UserRef } from '../../shared/api';
import type { Db } from '../db/open';
import {
  customFieldDto,
  type FieldCatalog,
  type FieldDefRow,
  loadFieldCatalog,
} from './custom-fields';
import { type Fields, isOverdue, positionsOf, writerOf } from './dto-fields';
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
  PROJECT_COLUMN_LIST,
  projectFields,
  projectHealthDto,
  projectPriorityDto,
  projectStatusDto,
  projectTagDto,
} from './projects-dto';
import { IN_IDS, idsParam, rawStmt, stmt } from './statements';
import { TASK_COLUMN_LIST, type TaskPart, type TaskRow, taskFields } from './tasks-dto';
import { userRefs } from './users';

/**
 * Bulk export items written straight to JSON bytes (./json-writer), a page at a time (see
 * ./bulk for what the export promises). A page of 5,000 tasks as DTO objects, then a string,
 * then bytes, costs several times what the queries do; here rows come as arrays, and what
 * many items share (user references, custom field definitions, project vocabularies) is
 * serialized once per page.
 *
 * The fields and their columns are the DTO builders' own tables (`taskFields`,
 * `projectFields`, written by ./dto-fields); what is written here is only how the parts of
 * a page (lists, counts, shared objects) become bytes. The JSON must stay what the DTO
 * builders give for the same rows, bar the slim `customFields` of ./bulk: the bulk-export
 * conformance suite compares each item with the getTaskById / getProjectById answer.
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

/** A page row of the task export: the columns of TASK_COLUMN_LIST, in that order. */
export type TaskRaw = readonly unknown[];
const T = positionsOf(TASK_COLUMN_LIST);

/** A bulk task item: the TaskDto's fields, then its checklist and its attachments. */
const bulkTaskFields = [
  ...taskFields,
  { key: 'checklists', part: 'checklists' },
  { key: 'attachments', part: 'attachments' },
] as const satisfies Fields<TaskRow, TaskPart | 'checklists' | 'attachments'>;
const writeTaskItem = writerOf(bulkTaskFields, TASK_COLUMN_LIST);

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
  const ids = idsParam(rows.map((r) => r[T.task_id] as number));
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
    rows.map((r) => r[T.space_id] as number | null),
    rows.map((r) => r[T.project_id] as number | null),
  );
  const values =
    catalog.defs.length > 0
      ? inPage<ValueRaw>('x.field_id, x.value', 'custom_field_values', '')
      : [];

  const userIds: number[] = catalog.userIds();
  for (const r of rows) userIds.push(r[T.created_by] as number, r[T.modified_by] as number);
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
  writeTaskItems(w, rows, loadTaskPageParts(db, orgId, rows), now);
};

const writeTaskItems = (
  w: JsonWriter,
  rows: readonly TaskRaw[],
  { checklists, owners, tags, values, subtasks, attachments, catalog, users }: TaskPageParts,
  now: number,
): void => {
  const refs = new RefBytes(users);
  const fields = new FieldWriter(catalog, users);
  // The current task's rows of each embedded list: [at, end).
  let checklistAt = 0;
  let checklistEnd = 0;
  let ownerAt = 0;
  let ownerEnd = 0;
  let tagAt = 0;
  let tagEnd = 0;
  let valueAt = 0;
  let valueEnd = 0;
  let files: AttachmentRow[] | undefined;

  const parts: Parameters<typeof writeTaskItem>[2] = {
    tags: (w) => {
      w.ascii('[');
      for (let i = tagAt; i < tagEnd; i++) {
        if (i > tagAt) w.ascii(',');
        w.str(tags[i]![1]);
      }
      w.ascii(']');
    },
    owners: (w) => {
      w.ascii('[');
      for (let i = ownerAt; i < ownerEnd; i++) {
        if (i > ownerAt) w.ascii(',');
        w.bytes(refs.of(owners[i]![1]));
      }
      w.ascii(']');
    },
    overdue: (w, r) =>
      w.bool(isOverdue(r[T.due_date] as number | null, r[T.completed] as number, now)),
    customFields: (w, r) => {
      w.ascii('[');
      if (valueEnd > valueAt) {
        const taskId = r[T.task_id] as number;
        const scope = {
          spaceId: r[T.space_id] as number | null,
          projectId: r[T.project_id] as number | null,
        };
        // Only fields that apply to the task (its space's and project's), in their order.
        let first = true;
        for (const def of catalog.forScope(scope)) {
          for (let i = valueAt; i < valueEnd; i++) {
            const v = values[i]!;
            if (v[1] !== def.field_id) continue;
            if (!first) w.ascii(',');
            first = false;
            fields.write(w, def, taskId, v[2]);
          }
        }
      }
      w.ascii(']');
    },
    subtaskCount: (w, r) => w.num(subtasks.get(r[T.task_id] as number) ?? 0),
    checklistCount: (w) => w.num(checklistEnd - checklistAt),
    checklistCompletedCount: (w) => {
      let done = 0;
      for (let i = checklistAt; i < checklistEnd; i++) done += checklists[i]![3];
      w.num(done);
    },
    attachmentCount: (w) => w.num(files?.length ?? 0),
    checklists: (w, r) => {
      const taskId = r[T.task_id] as number;
      const parentTaskId = r[T.parent_task_id] as number | null;
      w.ascii('[');
      for (let i = checklistAt; i < checklistEnd; i++) {
        const [, checklistId, name, isDone, assigneeId, position, created, modified] =
          checklists[i]!;
        if (i > checklistAt) w.ascii(',');
        // checklistDto's shape: an item on a subtask names the parent as taskId.
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
      w.ascii(']');
    },
    attachments: (w, r) => {
      if (!files) {
        w.ascii('[]');
        return;
      }
      const taskId = r[T.task_id] as number;
      const parentTaskId = r[T.parent_task_id] as number | null;
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
    },
  };

  for (let k = 0; k < rows.length; k++) {
    const row = rows[k]!;
    checklistEnd = endOf(checklists, checklistAt, k);
    ownerEnd = endOf(owners, ownerAt, k);
    tagEnd = endOf(tags, tagAt, k);
    valueEnd = endOf(values, valueAt, k);
    files = attachments.get(row[T.task_id] as number);
    if (k > 0) w.ascii(',');
    writeTaskItem(w, row, parts, refs);
    checklistAt = checklistEnd;
    ownerAt = ownerEnd;
    tagAt = tagEnd;
    valueAt = valueEnd;
  }
};

// ---- projects ------------------------------------------------------------------------------

/** A page row of the project export: the columns of PROJECT_COLUMN_LIST, in that order. */
export type ProjectRaw = readonly unknown[];
const P = positionsOf(PROJECT_COLUMN_LIST);
const writeProjectItem = writerOf(projectFields, PROJECT_COLUMN_LIST);

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
  const idsAt = (position: number) =>
    rows.map((r) => r[position] as number | null).filter((id): id is number => id !== null);
  const { statuses, priorities, health, tags, members, contacts, spaceNames, catalog, users } =
    loadProjectPageParts(db, orgId, {
      projectIds: idsAt(P.project_id),
      spaceIds: idsAt(P.space_id),
      contactIds: idsAt(P.contact_id),
      userIds: [...idsAt(P.created_by), ...idsAt(P.modified_by), ...idsAt(P.deleted_by)],
    });
  const refs = new RefBytes(users);
  const json = (value: unknown) => Buffer.from(JSON.stringify(value));
  /** A shared object's JSON, made once per page, or null. */
  const shared = <R>(rowsById: ReadonlyMap<number, R>, dto: (row: R) => unknown) => {
    const bytes = memo((id: number) => {
      const row = rowsById.get(id);
      return json(row ? dto(row) : null);
    });
    return (w: JsonWriter, id: unknown) => {
      if (id === null) w.ascii('null');
      else w.bytes(bytes(id as number));
    };
  };
  const status = shared(statuses, projectStatusDto);
  const priority = shared(priorities, projectPriorityDto);
  const projectHealth = shared(health, projectHealthDto);
  const fieldJson = memo((def: FieldDefRow) => json(customFieldDto(def, catalog, users, [])));

  const parts: Parameters<typeof writeProjectItem>[2] = {
    contact: (w, r) => {
      const id = r[P.contact_id] as number | null;
      const contact = id === null ? undefined : contacts.get(id);
      if (contact) w.json(JSON.stringify(contactDto(orgId, contact.contact_id, contact.body)));
      else w.ascii('null');
    },
    overdue: (w, r) =>
      w.bool(isOverdue(r[P.due_date] as number | null, r[P.completed] as number, now)),
    projectStatus: (w, r) => status(w, r[P.status_id]),
    projectPriority: (w, r) => priority(w, r[P.priority_id]),
    projectHealth: (w, r) => projectHealth(w, r[P.health_id]),
    projectTags: (w, r) =>
      w.json(
        JSON.stringify(
          (tags.get(r[P.project_id] as number) ?? []).map((t) => projectTagDto(orgId, t)),
        ),
      ),
    projectMembers: (w, r) => {
      w.ascii('[');
      let first = true;
      for (const m of members.get(r[P.project_id] as number) ?? []) {
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
      w.ascii(']');
    },
    projectMail: (w) => w.ascii('null'),
    spaceName: (w, r) => w.str(spaceNames.get(r[P.space_id] as number)?.space_name ?? null),
    customFields: (w, r) => {
      w.ascii('[');
      let first = true;
      const scope = {
        spaceId: r[P.space_id] as number,
        projectId: r[P.project_id] as number,
      };
      for (const def of catalog.forScope(scope)) {
        if (!first) w.ascii(',');
        first = false;
        w.bytes(fieldJson(def));
      }
      w.ascii(']');
    },
  };
  for (let k = 0; k < rows.length; k++) {
    if (k > 0) w.ascii(',');
    writeProjectItem(w, rows[k]!, parts, refs);
  }
};
