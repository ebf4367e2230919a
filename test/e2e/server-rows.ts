import { join } from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';

const taskRow = z.object({
  taskId: z.number().int(),
  title: z.string(),
  status: z.string(),
  completed: z.number().int(),
  completedTime: z.number().int().nullable(),
});
const checklistRow = z.object({
  name: z.string(),
  completed: z.number().int(),
  assigneeId: z.number().int().nullable(),
});

/**
 * What the reference server itself stored, read from its SQLite file rather than through the
 * app: the client's own marks (synced, server ids) cannot prove that an edit arrived. The
 * server runs in WAL mode, so this read-only reader sits beside it without blocking it.
 * `titleLike` patterns select the live tasks of the org (deleted = 0) to return; `checklistOf`
 * is the task whose checklist items are returned.
 */
export const readServerRows = (
  serverDataDir: string,
  query: { orgId: number; titleLike: string[]; checklistOf: number },
) => {
  // The file name is openDb's (server/db/open.ts); fileMustExist fails loudly if it moves.
  const db = new Database(join(serverDataDir, 'server.sqlite'), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    const titles = query.titleLike.map(() => 'title LIKE ?').join(' OR ');
    const tasks = db
      .prepare(
        `SELECT task_id AS taskId, title, status, completed, completed_time AS completedTime
           FROM tasks WHERE org_id = ? AND deleted = 0 AND (${titles}) ORDER BY task_id`,
      )
      .all(query.orgId, ...query.titleLike);
    const checklist = db
      .prepare(
        `SELECT name, completed, assignee_id AS assigneeId
           FROM checklist_items WHERE task_id = ? ORDER BY position`,
      )
      .all(query.checklistOf);
    return {
      tasks: z.array(taskRow).parse(tasks),
      checklist: z.array(checklistRow).parse(checklist),
    };
  } finally {
    db.close();
  }
};
