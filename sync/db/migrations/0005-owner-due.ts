/**
 * 0005: "my tasks" (due today / overdue / upcoming for one owner) answered from one narrow
 * index: the owner rows carry their task's due date and completion, kept by the task writer.
 * On 100k tasks a user may own tens of thousands; joining each to its task was ~13 ms.
 */
export const up = `
ALTER TABLE task_owners ADD COLUMN due_date INTEGER;
ALTER TABLE task_owners ADD COLUMN completed INTEGER NOT NULL DEFAULT 0;
UPDATE task_owners SET
  due_date = (SELECT t.due_date FROM tasks t WHERE t.task_id = task_owners.task_id),
  completed = COALESCE((SELECT t.completed FROM tasks t WHERE t.task_id = task_owners.task_id), 0);
CREATE INDEX task_owners_due ON task_owners(user_id, completed, due_date, task_id);
`;
