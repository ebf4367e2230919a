/**
 * Task statuses and priorities are names learned from the data (never a fixed list); these
 * are the ones offered before any task carries others. "Done" is what completes a task, on
 * the server and in the replica alike.
 */
export const baseStatuses = ['To Do', 'In Progress', 'In Review', 'Done'];
export const basePriorities = ['Urgent', 'High', 'Medium', 'Low', 'None'];
export const DONE = 'Done';
export const REOPENED = 'To Do';

export const isDone = (status: string | null | undefined) =>
  (status ?? '').toLowerCase() === DONE.toLowerCase();

/**
 * Complete, or Reopen: the engine puts a reopened task back as it was before it was completed
 * where it knows it, else to the first open status.
 */
export const completeToggle = (t: { taskId: number; status?: string | null | undefined }) =>
  isDone(t.status)
    ? {
        kind: 'task.update' as const,
        taskId: t.taskId,
        patch: { status: REOPENED, completion: 0 },
        reopen: true as const,
      }
    : { kind: 'task.update' as const, taskId: t.taskId, patch: { status: DONE, completion: 100 } };

/** Known names first in their usual order, then whatever else the data holds. */
export const mergeNames = (
  base: readonly string[],
  seen: readonly (string | null | undefined)[],
) => {
  const out = [...base];
  for (const s of seen) if (s && !out.some((x) => x.toLowerCase() === s.toLowerCase())) out.push(s);
  return out;
};

const statusTone: Record<string, string> = {
  done: 'pill-ok',
  'in progress': 'pill-accent',
  'in review': 'pill-warn',
};
export const statusClass = (s: string | null | undefined) =>
  `pill ${statusTone[(s ?? '').toLowerCase()] ?? ''}`;

const priorityTone: Record<string, string> = { urgent: 'pill-danger', high: 'pill-warn' };
export const priorityClass = (p: string | null | undefined) =>
  `pill ${priorityTone[(p ?? '').toLowerCase()] ?? ''}`;
