/**
 * Tasks of the user's own work that a pull's tombstones delete: recorded, with their last
 * state, before they go, so that the user learns of it and can make the task again. Own work:
 * a task the user owns or made. A task with queued edits is not here: its edits become
 * conflicts, recorded as such.
 */
import type { JsonObject } from '../../shared/edits/kinds';
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import { localUser, taskState } from '../edits/state';
import { recordChange } from './store';

/** What a deleted task's "restore mine" makes again: its state and where it was. */
export interface DeletedTask {
  fields: JsonObject;
  projectId: number | null;
  parentTaskId: number | null;
}

export const noteDeletedWork = (db: Sqlite, taskIds: readonly number[], now: number): void => {
  if (taskIds.length === 0) return;
  const user = localUser(db);
  if (user === null) return;
  const own = stmt(
    db,
    `SELECT t.task_id AS id, t.project_id AS projectId, t.parent_task_id AS parentTaskId
     FROM tasks t WHERE t.task_id IN (SELECT value FROM json_each(?))
       AND (t.created_by = ? OR EXISTS (SELECT 1 FROM task_owners o WHERE o.task_id = t.task_id AND o.user_id = ?))
       AND NOT EXISTS (SELECT 1 FROM outbox q WHERE q.entity = 'task:' || t.task_id)`,
  ).all(JSON.stringify(taskIds), user, user) as {
    id: number;
    projectId: number | null;
    parentTaskId: number | null;
  }[];
  for (const t of own) {
    const fields = taskState(db, t.id);
    if (!fields) continue;
    const mine: DeletedTask = { fields, projectId: t.projectId, parentTaskId: t.parentTaskId };
    recordChange(
      db,
      {
        kind: 'deleted',
        entity: `task:${t.id}`,
        mine: mine as unknown as JsonObject,
        theirs: null,
        message: 'Deleted by someone else.',
      },
      now,
    );
  }
};
