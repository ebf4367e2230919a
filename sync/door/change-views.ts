/**
 * "Changes from sync" in the bridge's shape: each stored change with its entity's kind and id,
 * the field and its writer in the user's words, and whether "restore mine" can be done now.
 */
import type { SyncChange, SyncChanges } from '../../shared/bridge/changes';
import type { StoredChange } from '../changes/store';
import { unseenChanges } from '../changes/store';
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import type { ViewContext, Views } from './context';

/** Request fields in the words the detail panes use. */
const fieldWords: Readonly<Record<string, string>> = {
  taskTitle: 'Title',
  description: 'Description',
  status: 'Status',
  priority: 'Priority',
  startDate: 'Start date',
  dueDate: 'Due date',
  completion: 'Progress',
  owners: 'Owners',
  tags: 'Tags',
  name: 'Name',
  completed: 'Done',
  assigneeId: 'Assignee',
  fileName: 'File name',
  projectName: 'Name',
  spaceName: 'Name',
  spaceType: 'Type',
  members: 'Members',
  public: 'Public',
  health: 'Health',
  contactId: 'Contact',
  billingStatus: 'Billable',
  notes: 'Notes',
  startTime: 'Start',
  durationSeconds: 'Duration',
};

const ITEM = /^customFieldValues\[(-?\d+)\]$/;

const fieldLabel = (db: Sqlite, field: string | null): string | null => {
  if (field === null) return null;
  const item = ITEM.exec(field);
  if (item) {
    const r = stmt(db, 'SELECT name FROM custom_fields WHERE field_id = ?').get(Number(item[1])) as
      | { name: string }
      | undefined;
    return r?.name ?? 'Custom field';
  }
  return fieldWords[field] ?? field;
};

const userName = (db: Sqlite, userId: number): string | null => {
  const r = stmt(db, 'SELECT first_name, last_name, email FROM users WHERE user_id = ?').get(
    userId,
  ) as { first_name: string | null; last_name: string | null; email: string | null } | undefined;
  if (!r) return null;
  const name = [r.first_name, r.last_name].filter(Boolean).join(' ');
  return name || r.email;
};

const view = (ctx: ViewContext, c: StoredChange): SyncChange => {
  const i = c.entity.lastIndexOf(':');
  return {
    changeId: c.changeId,
    kind: c.kind,
    entity: c.entity,
    entityKind: c.entity.slice(0, i),
    entityId: Number(c.entity.slice(i + 1)),
    taskId: c.taskId,
    name: c.name,
    field: c.field,
    fieldLabel: fieldLabel(ctx.db, c.field),
    mine: c.mine,
    theirs: c.theirs,
    // The server's own writer of a field is another person; the user is never "who" here.
    by:
      c.byUser === null || c.byUser === ctx.userId
        ? null
        : { userId: c.byUser, name: userName(ctx.db, c.byUser) },
    at: c.at,
    message: c.message,
    createdAt: c.createdAt,
    settled: c.settled,
    canRestore: ctx.engine.canRestoreChange(c),
  };
};

const changesView = (ctx: ViewContext): SyncChanges => ({
  changes: ctx.engine.changesFromSync().map((c) => view(ctx, c)),
  unseen: unseenChanges(ctx.db, ctx.now),
});

/** The list, and each action on it answering the list after it. */
export const changeViews = {
  'sync.changes': changesView,
  'sync.changesSeen': (ctx) => {
    ctx.engine.seeChanges();
    return changesView(ctx);
  },
  'sync.resolveChange': (ctx, input) => {
    ctx.engine.resolveChange(input.changeId, input.choice);
    return changesView(ctx);
  },
} satisfies Partial<Views>;
