/**
 * The create-project-task answer is documented as the project; the reference server answers
 * the task unless told otherwise. Either way the caller gets the created task: from a task
 * answer directly, from a project answer by finding the task in the project.
 */
import { type Task, task as taskSchema } from '../../shared/api/tasks';
import { badResponse } from './errors';
import type { Session } from './session';
import type { OperationArgs, Operations } from './types';

/** What of the client the lookup uses (client.ts builds on this file: not its type). */
interface ResolvingClient {
  readonly clock: () => number;
  readonly session: Session;
  readonly ops: Operations;
}

export interface ResolveOptions {
  /**
   * How far before the request's start (by our clock) the server's createdTime may be and
   * still count as this creation: server and client clocks differ.
   */
  skewMs?: number;
  /** Page size of the lookup; a user creating this many same-titled tasks at once is rare. */
  lookupSize?: number;
}

const DEFAULT_SKEW_MS = 2 * 60_000;

const createdAt = (t: Task): number | undefined => {
  if (!t.createdTime) return undefined;
  const ms = Date.parse(t.createdTime);
  return Number.isNaN(ms) ? undefined : ms;
};

export const createProjectTaskResolved = async (
  client: ResolvingClient,
  args: OperationArgs<'createProjectTask'>,
  options: ResolveOptions = {},
): Promise<Task> => {
  const startedAt = client.clock();
  const answer: unknown = await client.ops.createProjectTask(args);
  if (typeof (answer as { taskId?: unknown }).taskId === 'number') {
    const t = taskSchema.safeParse(answer);
    if (t.success) return t.data;
  }

  // The answer was the project. The body was valid (the call above checked it), so its
  // title is a string; the server stores it trimmed, as the body schema sends it.
  const title = String((args.body as { taskTitle?: unknown }).taskTitle ?? '').trim();
  const me = client.session.user?.userId;
  const page = await client.ops.getAllTasksInProject_1({
    path: args.path,
    query: {
      title,
      ...(me === undefined ? {} : { creators: [me] }),
      sort: ['createdTime,desc'],
      size: options.lookupSize ?? 50,
    },
    timeouts: args.timeouts,
    signal: args.signal,
  });
  const since = startedAt - (options.skewMs ?? DEFAULT_SKEW_MS);
  // The title filter may match substrings or ignore case, and the server's sort is not
  // trusted blindly either: exact title, ours, recent enough, newest first.
  const found = page.content
    .filter((t) => t.taskTitle.trim() === title)
    .filter(
      (t) => me === undefined || t.createdBy?.userId === undefined || t.createdBy.userId === me,
    )
    .map((t) => ({ t, at: createdAt(t) }))
    .filter((c): c is { t: Task; at: number } => c.at !== undefined && c.at >= since)
    .sort((a, b) => b.at - a.at)[0];
  if (!found)
    throw badResponse(
      'createProjectTask',
      `the server answered the project instead of the created task, and no task titled ` +
        `${JSON.stringify(title)} created${me === undefined ? '' : ` by user ${me}`} since ` +
        `${new Date(since).toISOString()} was found in project ${args.path.projectId}`,
    );
  return found.t;
};
