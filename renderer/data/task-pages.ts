import { useEffect, useSyncExternalStore } from 'react';
import type {
  BridgeTaskFilter,
  BridgeTaskScope,
  BridgeTaskSort,
  TaskRow,
} from '../../shared/bridge';
import { bridge } from './bridge';
import { PagedRows } from './paged-rows';
import { registerCache } from './query';

/** What a task list shows: one set of pages per distinct value. */
export interface TaskListQuery {
  scope: BridgeTaskScope;
  filter: BridgeTaskFilter;
  sort: NonNullable<BridgeTaskSort>;
}

interface Kept {
  rows: PagedRows<TaskRow>;
  refs: number;
  dropTimer: ReturnType<typeof setTimeout> | null;
  unregister: () => void;
}

const lists = new Map<string, Kept>();

export const taskListKey = (q: TaskListQuery) => JSON.stringify([q.scope, q.filter, q.sort]);

/** The pages of one task list, shared by whoever shows it (and by the read made before React). */
export function taskPages(q: TaskListQuery): PagedRows<TaskRow> {
  const key = taskListKey(q);
  let kept = lists.get(key);
  if (!kept) {
    const rows = new PagedRows<TaskRow>({
      method: 'tasks.list',
      read: (offset, limit) =>
        bridge().invoke('tasks.list', {
          scope: q.scope,
          filter: q.filter,
          sort: q.sort,
          offset,
          limit,
        }),
    });
    const entry: Kept = { rows, refs: 0, dropTimer: null, unregister: () => undefined };
    entry.unregister = registerCache(rows);
    lists.set(key, entry);
    kept = entry;
    // Nobody may come for it (a read started before the page knew it was signed in).
    release(key, entry);
  }
  return kept.rows;
}

function release(key: string, kept: Kept) {
  if (kept.dropTimer) clearTimeout(kept.dropTimer);
  // Kept a little so going back to a list paints from memory at once.
  kept.dropTimer = setTimeout(() => {
    if (kept.refs > 0) return;
    kept.unregister();
    lists.delete(key);
  }, 60_000);
}

/**
 * Starts reading the top of a list before anything renders (the app's first view), so the
 * first rows travel while the page is still starting.
 */
export function prefetchTaskList(q: TaskListQuery, rows = 40): void {
  const pages = taskPages(q);
  if (pages.total === null) pages.setWindow(0, rows - 1);
}

/**
 * The pages of a list for a component: re-renders only when rows it shows change. Rows kept
 * from an earlier visit paint at once; those the replica changed since are read again when the
 * component sets its window.
 */
export function useTaskPages(q: TaskListQuery): PagedRows<TaskRow> {
  const key = taskListKey(q);
  const rows = taskPages(q);
  useEffect(() => {
    const kept = lists.get(key);
    if (!kept) return;
    kept.refs++;
    if (kept.dropTimer) clearTimeout(kept.dropTimer);
    kept.dropTimer = null;
    return () => {
      kept.refs--;
      if (kept.refs === 0) release(key, kept);
    };
  }, [key]);
  useSyncExternalStore(rows.subscribe, rows.getVersion);
  return rows;
}
