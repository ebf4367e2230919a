import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import type { CustomField } from '../../../shared/api/custom-fields';
import type { BridgeTaskScope, TaskRow } from '../../../shared/bridge';
import { useApp } from '../../data/app-store';
import type { PagedRows } from '../../data/paged-rows';
import { afterPaint } from '../../data/schedule';
import { useShortcut } from '../../shortcuts/keys';
import {
  allColumns,
  type Column,
  defaultColumnIds,
  fitColumns,
  gridTemplate,
  minWidth,
} from './table-columns';
import { toggleDone } from './task-row';
import { type Grouping, groupHeaderAt } from './task-table-grouping';

export const ROW = 32;
export const HEADER = 30;
/** Rows rendered beyond the screen; more rows ahead come as data (pages read in idle time). */
const OVERSCAN = 8;

type Pages = PagedRows<TaskRow>;
export type TableVirtualizer = Virtualizer<HTMLDivElement, Element>;

/** The width of the list's pane, followed as the window or the panes beside it change. */
export function usePaneWidth(ref: RefObject<HTMLElement | null>, shown: boolean): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    // The pane comes back after an error: measure the new one.
    if (!shown || !el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, shown]);
  return width;
}

export interface FittedColumns {
  columns: Column[];
  /** How many of the picked columns did not fit. */
  hidden: number;
  template: string;
  rowWidth: number;
  ids: string[];
}

/** The columns that fit the pane's width; `onShown` is told their ids whenever they change. */
export function useFittedColumns(
  customFields: readonly CustomField[],
  picked: readonly string[] | null,
  scopeKind: BridgeTaskScope['kind'],
  width: number,
  onShown: ((ids: readonly string[]) => void) | undefined,
): FittedColumns {
  const fitted = useMemo(() => {
    const { shown, hidden } = fitColumns(
      allColumns(customFields),
      picked,
      defaultColumnIds(customFields, scopeKind),
      width,
    );
    return {
      columns: shown,
      hidden,
      template: gridTemplate(shown),
      rowWidth: minWidth(shown),
      ids: shown.map((c) => c.id),
    };
  }, [customFields, picked, scopeKind, width]);
  const { ids } = fitted;
  useEffect(() => onShown?.(ids), [ids, onShown]);
  return fitted;
}

/** Once the first rows are known, marks the main view ready for what waits on it. */
export function useMainReadyAfterRows(total: number | null): void {
  useEffect(() => {
    if (total === null || useApp.getState().mainReady) return;
    // After the rows have painted: what waits on this (filters, counts, the sidebar) renders
    // in the frames after, not in the first list's.
    return afterPaint(() => useApp.setState({ mainReady: true }));
  }, [total]);
}

/** The rows on screen, with the pages told to hold (and read) what is on screen. */
export function useVirtualRows(
  parent: RefObject<HTMLDivElement | null>,
  pages: Pages,
  total: number,
  grouping: Grouping,
  today: number,
) {
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => parent.current,
    // A row that starts a group carries its header: estimated as tall as it will measure, so
    // rows do not jump (nor move under a click) when they are drawn after a scroll.
    estimateSize: (i) => {
      const t = pages.rowAt(i);
      return ROW + (t && groupHeaderAt(grouping, t, pages.rowAt(i - 1), i, today) ? HEADER : 0);
    },
    overscan: OVERSCAN,
  });
  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    pages.setWindow(firstIndex, Math.max(lastIndex, firstIndex + 40));
  }, [pages, firstIndex, lastIndex]);
  return { virtualizer, items };
}

/**
 * The list follows the open task once (a task just made or opened elsewhere comes into view
 * when its row arrives); after that the user's scroll is left alone.
 */
export function useFollowSelected(
  selectedId: number | null,
  pages: Pages,
  virtualizer: TableVirtualizer,
): void {
  const followed = useRef<number | null>(null);
  useEffect(() => {
    const id = selectedId;
    if (id === null) return;
    const follow = () => {
      if (followed.current === id) return;
      for (const [i, t] of pages.entries()) {
        if (t.taskId !== id) continue;
        followed.current = id;
        virtualizer.scrollToIndex(i, { align: 'auto' });
        return;
      }
    };
    follow();
    return pages.subscribe(follow);
  }, [selectedId, pages, virtualizer]);
}

export interface TableKeysOptions {
  pages: Pages;
  total: number;
  virtualizer: TableVirtualizer;
  selectedId: number | null;
  onSelect: (taskId: number) => void;
  onOpen: (taskId: number) => void;
}

/**
 * The list's keys (j/k, Enter, x) bound while it is shown; returns the selection move the
 * grid's own arrow keys use.
 */
export function useTableKeys(o: TableKeysOptions): (delta: number) => void {
  /** Where the selected task is among the rows held (looked up only when a key needs it). */
  const selectedIndex = () => {
    for (const [i, t] of o.pages.entries()) if (t.taskId === o.selectedId) return i;
    return -1;
  };
  const move = (delta: number) => {
    const at = selectedIndex();
    const next = Math.max(0, Math.min(o.total - 1, (at < 0 ? -1 : at) + delta));
    const t = o.pages.rowAt(next);
    o.virtualizer.scrollToIndex(next, { align: 'auto' });
    if (t) o.onSelect(t.taskId);
  };
  useShortcut('next', () => move(1));
  useShortcut('prev', () => move(-1));
  useShortcut('open', () => {
    if (o.selectedId !== null) o.onOpen(o.selectedId);
  });
  useShortcut('complete', () => {
    const at = selectedIndex();
    const t = at >= 0 ? o.pages.rowAt(at) : undefined;
    if (t) toggleDone(t);
  });
  return move;
}

/** Changing what the list shows starts at its top. */
export function useScrollTopOnChange(parent: RefObject<HTMLElement | null>, pages: Pages): void {
  useEffect(() => {
    if (pages) parent.current?.scrollTo({ top: 0 });
  }, [parent, pages]);
}
