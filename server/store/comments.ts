import type { Comment } from '../../shared/api';
import { type Page, pageOf, pageWindow } from '../../shared/filters';
import type { Db } from '../db/open';
import { stmt } from './statements';
import { iso } from './time';
import { userRefs } from './users';

interface CommentRow {
  comment_id: number;
  task_id: number;
  content: string;
  created_by: number;
  created_time: number;
  modified_time: number;
}

/** Comments of a task (read only: no API writes them), oldest first, id as the tie-breaker. */
export const listComments = (db: Db, taskId: number, page: number, size: number): Page<Comment> => {
  const { n } = stmt(db, 'SELECT COUNT(*) AS n FROM comments WHERE task_id = ?').get(taskId) as {
    n: number;
  };
  const { limit, offset } = pageWindow(page, size);
  const rows = stmt(
    db,
    `SELECT comment_id, task_id, content, created_by, created_time, modified_time FROM comments
     WHERE task_id = ? ORDER BY created_time, comment_id LIMIT ? OFFSET ?`,
  ).all(taskId, limit, offset) as CommentRow[];
  const users = userRefs(
    db,
    rows.map((c) => c.created_by),
  );
  const items = rows.map(
    (c): Comment => ({
      commentId: c.comment_id,
      taskId: c.task_id,
      content: c.content,
      createdBy: users.get(c.created_by) ?? { userId: c.created_by },
      createdTime: iso(c.created_time) ?? '',
      modifiedTime: iso(c.modified_time),
    }),
  );
  return pageOf(items, n, page, size);
};
