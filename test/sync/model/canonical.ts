/**
 * The canonical forms in which the model, the server's store and the replica's rows are
 * compared: a set's order is not a change, and a custom field is one field of its task.
 */

/** Owners as sorted ids, tags as sorted names: what a set of either means, order aside. */
export const ownersKey = (ids: readonly number[]) => [...ids].sort((x, y) => x - y).join(',');
export const tagsKey = (names: readonly string[]) => [...names].sort().join('|');

/** A custom field as a task's field: `cf:<id>`, its value the stored JSON. */
export const cfKey = (fieldId: number) => `cf:${fieldId}` as const;

/** A task's columns as the server's store and the replica both have them. */
export interface TaskColumns {
  task_id: number;
  title: string;
  description: string | null;
  status: string | null;
  priority: string | null;
  completion: number | null;
  start_date: number | null;
  due_date: number | null;
}

/** A task's every field the app edits, canonical (custom fields as `cf:<id>`). */
export const taskFields = (
  t: TaskColumns,
  owners: readonly number[],
  tags: readonly string[],
  values: Readonly<Record<string, string>>,
): Record<string, string | number | null> => ({
  title: t.title,
  description: t.description,
  status: t.status,
  priority: t.priority,
  completion: t.completion,
  startDate: t.start_date,
  dueDate: t.due_date,
  owners: ownersKey(owners),
  tags: tagsKey(tags),
  ...values,
});
