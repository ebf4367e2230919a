import type { Comment, Timesheet, TimesheetSummary } from '../../shared/api';
import { type ApiClient, isApiClientError, NumberedPaging } from '../api';
import { first, qb } from '../db/kysely';
import {
  type AttachmentFile,
  type Cached,
  getAttachmentFile,
  getComments,
  getTimesheet,
  getTimesheetSummary,
  putAttachmentFile,
  putComments,
  putTimesheet,
  putTimesheetSummary,
  type TimesheetQuery,
} from '../db/queries/lazy-cache';
import type { Replica } from '../db/replica';

/** Where an answer came from: just fetched, or the copy kept from an earlier fetch. */
export interface Lazy<T> {
  value: T;
  source: 'network' | 'cache';
  fetchedAt: number;
  /** Why the network was not used, when the cache answered after a failed fetch. */
  offlineReason?: string;
}

export interface LazyOptions {
  /** A cached copy younger than this is served without asking the server. */
  maxAgeMs?: number;
}

/** Only a failure to reach the server falls back to the cache; a refusal is the answer. */
const unreachable = (error: unknown): boolean => isApiClientError(error) && error.transient;

/**
 * Data the bulk export does not carry (comments, timesheets, attachment content): fetched
 * when a view asks, kept in the replica, and served from there when the server cannot be
 * reached, so a view that opened once opens again offline.
 */
export class LazyData {
  constructor(
    private readonly replica: Replica,
    private readonly client: ApiClient,
    /** The replica's own folder, where attachment content is stored. */
    private readonly filesDir: string,
    private readonly now: () => number = Date.now,
  ) {}

  private async cachedOrFetch<T>(
    cached: Cached<T> | null,
    fetch: () => Promise<T>,
    store: (value: T, at: number) => void,
    options: LazyOptions,
  ): Promise<Lazy<T>> {
    if (
      cached &&
      options.maxAgeMs !== undefined &&
      this.now() - cached.fetchedAt <= options.maxAgeMs
    )
      return { value: cached.value, source: 'cache', fetchedAt: cached.fetchedAt };
    try {
      const value = await fetch();
      const at = this.now();
      store(value, at);
      return { value, source: 'network', fetchedAt: at };
    } catch (error) {
      if (cached && unreachable(error))
        return {
          value: cached.value,
          source: 'cache',
          fetchedAt: cached.fetchedAt,
          offlineReason: (error as Error).message,
        };
      throw error;
    }
  }

  /** Every comment of a task, oldest first. */
  comments(taskId: number, options: LazyOptions = {}): Promise<Lazy<Comment[]>> {
    return this.cachedOrFetch(
      getComments(this.replica.db, taskId),
      async () => {
        const all: Comment[] = [];
        const paging = new NumberedPaging('getTaskComments');
        for (let page = 0; ; page++) {
          const p = await this.client.ops.getTaskComments({
            path: { taskId },
            query: { page, size: 100 },
          });
          const last = paging.check(page, p);
          all.push(...p.content);
          if (last) return all;
        }
      },
      (value, at) => putComments(this.replica.db, taskId, value, at),
      options,
    );
  }

  timesheet(q: TimesheetQuery, options: LazyOptions = {}): Promise<Lazy<Timesheet>> {
    const query = { from: q.from, to: q.to };
    return this.cachedOrFetch(
      getTimesheet(this.replica.db, q),
      () =>
        q.kind === 'timesheet'
          ? this.client.ops.getTimesheet({ query })
          : this.client.ops.getProjectTimesheet({ path: { projectId: q.projectId }, query }),
      (value, at) => putTimesheet(this.replica.db, q, value, at),
      options,
    );
  }

  projectTimesheetSummary(
    projectId: number,
    from: number,
    to: number,
    options: LazyOptions = {},
  ): Promise<Lazy<TimesheetSummary>> {
    const q = { kind: 'project-timesheet-summary' as const, projectId, from, to };
    return this.cachedOrFetch(
      getTimesheetSummary(this.replica.db, q),
      () =>
        this.client.ops.getProjectTimesheetSummary({ path: { projectId }, query: { from, to } }),
      (value, at) => putTimesheetSummary(this.replica.db, q, value, at),
      options,
    );
  }

  /**
   * The content of an attachment as a file on disk. Content never changes for an attachment
   * id (a rename keeps the bytes), so a stored copy is served without asking the server.
   */
  async attachmentContent(
    attachmentId: number,
  ): Promise<AttachmentFile & { source: 'network' | 'cache' }> {
    const cached = getAttachmentFile(this.replica.db, this.filesDir, attachmentId);
    if (cached) return { ...cached, source: 'cache' };
    const row = first(
      this.replica.db,
      qb
        .selectFrom('attachments as a')
        .leftJoin('tasks as t', 't.task_id', 'a.task_id')
        .leftJoin('projects as p', 'p.project_id', 'a.project_id')
        .select(['a.task_id', 'a.project_id', 't.parent_task_id', 'p.space_id'])
        .where('a.attachment_id', '=', attachmentId),
    );
    if (!row) throw new Error(`attachment ${attachmentId} is not in the replica`);
    const path = { attachmentId };
    const content =
      row.project_id !== null && row.space_id !== null
        ? await this.client.ops.getProjectAttachmentContent({
            path: { ...path, spaceId: row.space_id, projectId: row.project_id },
          })
        : row.task_id !== null && row.parent_task_id !== null
          ? await this.client.ops.getSubtaskAttachmentContent({
              path: { ...path, taskId: row.parent_task_id, subtaskId: row.task_id },
            })
          : row.task_id !== null
            ? await this.client.ops.getTaskAttachmentContent({
                path: { ...path, taskId: row.task_id },
              })
            : null;
    if (!content) throw new Error(`attachment ${attachmentId} has no parent in the replica`);
    const file = await putAttachmentFile(
      this.replica.db,
      this.filesDir,
      { attachmentId, bytes: content.bytes, contentType: content.contentType ?? null },
      this.now(),
    );
    return { ...file, source: 'network' };
  }
}
