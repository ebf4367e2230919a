/**
 * What a task was before the user completed it here, so that Reopen puts it back (status and
 * completion) instead of resetting it. Kept in replica_info, one key a completed task, written
 * when an edit of this replica completes a task and dropped when one reopens it. A task
 * completed elsewhere has none: Reopen then takes the command's own values.
 */
import { stmt } from '../db/kysely';
import type { Sqlite } from '../db/open';
import type { JsonObject } from '../outbox';

const key = (taskId: number) => `task.before-done.${taskId}`;

export const isDoneStatus = (status: unknown): boolean =>
  typeof status === 'string' && status.toLowerCase() === 'done';

/** The ids a task went by in this replica: its id now and the local id it was made under. */
const idsOf = (db: Sqlite, taskId: number): number[] => [
  taskId,
  ...(
    stmt(db, "SELECT local_id FROM local_ids WHERE entity_kind = 'task' AND server_id = ?").all(
      taskId,
    ) as { local_id: number }[]
  ).map((r) => r.local_id),
];

/** Status and completion (those known) from before the task was completed here, or null. */
export const beforeDone = (db: Sqlite, taskId: number): JsonObject | null => {
  for (const id of idsOf(db, taskId)) {
    const r = stmt(db, 'SELECT value FROM replica_info WHERE key = ?').get(key(id)) as
      | { value: string }
      | undefined;
    if (!r) continue;
    const was = JSON.parse(r.value) as JsonObject;
    return Object.fromEntries(Object.entries(was).filter(([, v]) => v !== null)) as JsonObject;
  }
  return null;
};

/** Notes a task's move into or out of Done by the user's edit (`before` → `after`). */
export const noteDoneMove = (
  db: Sqlite,
  taskId: number,
  before: JsonObject,
  after: JsonObject,
): void => {
  const wasDone = isDoneStatus(before.status);
  if (!wasDone && isDoneStatus(after.status))
    stmt(db, 'INSERT OR REPLACE INTO replica_info (key, value) VALUES (?, ?)').run(
      key(taskId),
      JSON.stringify({ status: before.status ?? null, completion: before.completion ?? 0 }),
    );
  else if (wasDone && !isDoneStatus(after.status))
    for (const id of idsOf(db, taskId))
      stmt(db, 'DELETE FROM replica_info WHERE key = ?').run(key(id));
};
