// biome-ignore-all lint/a11y/useSemanticElements: a virtualized list cannot be a <table>: rows are absolutely placed divs in the ARIA grid pattern
// biome-ignore-all lint/a11y/useFocusableInteractive: the grid holds the focus and points at the selected row with aria-activedescendant
// biome-ignore-all lint/a11y/useKeyWithClickEvents: rows are driven by the grid's keys (arrows, j/k, Enter, x)
import { useVirtualizer } from '@tanstack/react-virtual';
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import type { CustomField } from '../../shared/api/custom-fields';
import type { BridgeTaskFilter, BridgeTaskScope, TaskRow } from '../../shared/bridge';
import type { DueGroup } from '../../shared/due-groups';
import { useApp } from '../data/app-store';
import { useQuery } from '../data/query';
import { useRefilling } from '../data/refilling';
import { afterPaint } from '../data/schedule';
import { useTaskPages } from '../data/task-pages';
import { statusClass } from '../lib/vocab';
import { useShortcut } from '../shortcuts/keys';
import { useFastScroll } from './fast-scroll';
import {
  dueDateFirst,
  dueGroupLabels,
  rowDueGroup,
  startsGroup,
  useToday,
} from './my-tasks-groups';
import {
  allColumns,
  defaultColumnIds,
  fitColumns,
  gridTemplate,
  minWidth,
  type SortKey,
} from './table-columns';
import { LiteRow, Row, toggleDone } from './task-row';

const ROW = 32;
const HEADER = 30;
/** Rows rendered beyond the screen; more rows ahead come as data (pages read in idle time). */
const OVERSCAN = 8;

export type { SortKey } from './table-columns';

export interface TaskTableProps {
  scope: BridgeTaskScope;
  filter: BridgeTaskFilter;
  sort: SortKey[];
  onSort: (sort: SortKey[]) => void;
  groupByStatus: boolean;
  customFields: readonly CustomField[];
  /** Columns the user picked (ids), or null for the default set fitted to the width. */
  columns: readonly string[] | null;
  /** Told the columns shown once fitted (the column picker shows those as checked). */
  onShownColumns?: (ids: readonly string[]) => void;
  selectedId: number | null;
  onSelect: (taskId: number) => void;
  onOpen: (taskId: number) => void;
  label: string;
}

/** How a list's rows are grouped: by status when asked; My tasks by due day otherwise. */
type Grouping = 'status' | 'due' | null;

const groupingOf = (scope: BridgeTaskScope, groupByStatus: boolean): Grouping =>
  groupByStatus ? 'status' : scope.kind === 'my' ? 'due' : null;

/** The sort the list is read with: a grouped list sorts by what it groups by first. */
export const effectiveSort = (sort: SortKey[], grouping: Grouping): SortKey[] =>
  grouping === 'status'
    ? [{ property: 'status', direction: 'asc' }, ...sort.filter((s) => s.property !== 'status')]
    : grouping === 'due'
      ? dueDateFirst(sort)
      : sort;

/**
 * The task list: virtualized (100k rows scroll like 100), read a page at a time from the
 * replica with the next pages read ahead in idle time, keyboard-driven (j/k, Enter, x) and
 * sortable on several keys (Shift+click adds a key).
 */
export function TaskTable(props: TaskTableProps) {
  const parent = useRef<HTMLDivElement>(null);
  const head = useRef<HTMLDivElement>(null);
  const grouping = groupingOf(props.scope, props.groupByStatus);
  const sort = useMemo(() => effectiveSort(props.sort, grouping), [props.sort, grouping]);
  const pages = useTaskPages({ scope: props.scope, filter: props.filter, sort });
  const today = useToday();
  // The groups' sizes, for their headers: the rows held are only the pages read so far.
  const dueGroups = useQuery(
    'tasks.list',
    { scope: props.scope, filter: props.filter, limit: 1, dueGroupsOn: today },
    grouping === 'due' && pages.total !== null,
  ).data?.dueGroups;
  const width = usePaneWidth(parent, !(pages.error && pages.total === null));
  const { columns, hidden, template, rowWidth, ids } = useMemo(() => {
    const fitted = fitColumns(
      allColumns(props.customFields),
      props.columns,
      defaultColumnIds(props.customFields, props.scope.kind),
      width,
    );
    return {
      columns: fitted.shown,
      hidden: fitted.hidden,
      template: gridTemplate(fitted.shown),
      rowWidth: minWidth(fitted.shown),
      ids: fitted.shown.map((c) => c.id),
    };
  }, [props.customFields, props.columns, props.scope.kind, width]);
  const onShown = props.onShownColumns;
  useEffect(() => onShown?.(ids), [ids, onShown]);
  const total = pages.total ?? 0;
  useEffect(() => {
    if (pages.total === null || useApp.getState().mainReady) return;
    // After the rows have painted: what waits on this (filters, counts, the sidebar) renders
    // in the frames after, not in the first list's.
    return afterPaint(() => useApp.setState({ mainReady: true }));
  }, [pages.total]);

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
  const fast = useFastScroll(virtualizer.scrollOffset ?? 0, virtualizer.isScrolling);

  // The list follows the open task once (a task just made or opened elsewhere comes into view
  // when its row arrives); after that the user's scroll is left alone.
  const followed = useRef<number | null>(null);
  useEffect(() => {
    const id = props.selectedId;
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
  }, [props.selectedId, pages, virtualizer]);
  const rowAt = (i: number) => pages.rowAt(i);

  /** Where the selected task is among the rows held (looked up only when a key needs it). */
  const selectedIndex = () => {
    for (const [i, t] of pages.entries()) if (t.taskId === props.selectedId) return i;
    return -1;
  };

  const move = (delta: number) => {
    const at = selectedIndex();
    const next = Math.max(0, Math.min(total - 1, (at < 0 ? -1 : at) + delta));
    const t = rowAt(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
    if (t) props.onSelect(t.taskId);
  };
  useShortcut('next', () => move(1));
  useShortcut('prev', () => move(-1));
  useShortcut('open', () => {
    if (props.selectedId !== null) props.onOpen(props.selectedId);
  });
  useShortcut('complete', () => {
    const at = selectedIndex();
    const t = at >= 0 ? rowAt(at) : undefined;
    if (t) toggleDone(t);
  });

  useEffect(() => {
    // Changing what the list shows starts at its top.
    if (pages) parent.current?.scrollTo({ top: 0 });
  }, [pages]);

  const sortFor = (property: SortKey['property']) =>
    props.sort.find((s) => s.property === property);
  const clickSort = (property: SortKey['property'], add: boolean) => {
    const current = sortFor(property);
    const flipped: SortKey = {
      property,
      direction: current?.direction === 'asc' ? 'desc' : 'asc',
    };
    if (add) {
      props.onSort(
        current
          ? props.sort.map((s) => (s.property === property ? flipped : s))
          : [...props.sort, flipped],
      );
    } else props.onSort([flipped]);
  };

  if (pages.error && pages.total === null) {
    return (
      <div className="empty" role="alert">
        <strong>This list could not be read</strong>
        <span>{pages.error.message}</span>
        <button type="button" className="btn" onClick={() => pages.retry()}>
          Try again
        </button>
      </div>
    );
  }

  const activeId = items.some((v) => rowAt(v.index)?.taskId === props.selectedId)
    ? `task-row-${props.selectedId}`
    : undefined;
  return (
    <div
      className="task-table"
      role="grid"
      aria-label={props.label}
      aria-rowcount={total + 1}
      aria-activedescendant={activeId}
      tabIndex={0}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown') move(1);
        else if (e.key === 'ArrowUp') move(-1);
        else return;
        e.preventDefault();
      }}
    >
      <div className="tt-head-pane" ref={head}>
        <div
          className="tt-head"
          role="row"
          aria-rowindex={1}
          data-hidden-columns={hidden || undefined}
          style={{ gridTemplateColumns: template, minWidth: rowWidth }}
        >
          {columns.map((c) => {
            const s = c.sort ? sortFor(c.sort) : undefined;
            const rank = s && props.sort.length > 1 ? props.sort.indexOf(s) + 1 : null;
            return (
              <div
                key={c.id}
                role="columnheader"
                aria-sort={s ? (s.direction === 'asc' ? 'ascending' : 'descending') : undefined}
                className="tt-th"
              >
                {c.sort ? (
                  <button
                    type="button"
                    className="tt-sort"
                    title="Sort (Shift+click adds a sort key)"
                    onClick={(e) => c.sort && clickSort(c.sort, e.shiftKey)}
                  >
                    {c.label}
                    {s ? (
                      <span aria-hidden="true">{s.direction === 'asc' ? ' ↑' : ' ↓'}</span>
                    ) : null}
                    {rank ? (
                      <sup>
                        <span className="sr-only">sort key </span>
                        {rank}
                      </sup>
                    ) : null}
                  </button>
                ) : (
                  c.label
                )}
              </div>
            );
          })}
        </div>
      </div>
      <div
        ref={parent}
        className="tt-body"
        role="rowgroup"
        // The header scrolls sideways with the rows: one pane, two elements.
        onScroll={(e) => {
          if (head.current) head.current.scrollLeft = e.currentTarget.scrollLeft;
        }}
      >
        {pages.total === null ? (
          <SkeletonRows />
        ) : total === 0 ? (
          <EmptyTable />
        ) : (
          <div
            style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: rowWidth }}
          >
            {items.map((v) => {
              const t = rowAt(v.index);
              const prev = rowAt(v.index - 1);
              const header = t ? groupHeaderAt(grouping, t, prev, v.index, today, dueGroups) : null;
              return (
                <div
                  key={v.key}
                  data-index={v.index}
                  ref={grouping ? virtualizer.measureElement : undefined}
                  style={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    right: 0,
                    transform: `translateY(${v.start}px)`,
                    height: grouping ? undefined : ROW,
                  }}
                >
                  {header ? (
                    <div className="tt-group" role="presentation" style={{ height: HEADER }}>
                      <span className={header.className}>{header.label}</span>
                      {header.count !== null ? (
                        <span className="tt-group-count">
                          {header.count}
                          <span className="sr-only">{header.count === 1 ? ' task' : ' tasks'}</span>
                        </span>
                      ) : null}
                    </div>
                  ) : null}
                  {t && fast ? (
                    <LiteRow
                      task={t}
                      index={v.index}
                      template={template}
                      selected={t.taskId === props.selectedId}
                      onSelect={props.onSelect}
                      onOpen={props.onOpen}
                    />
                  ) : t ? (
                    <Row
                      task={t}
                      index={v.index}
                      template={template}
                      columns={ids}
                      customFields={props.customFields}
                      selected={t.taskId === props.selectedId}
                      onSelect={props.onSelect}
                      onOpen={props.onOpen}
                    />
                  ) : (
                    <div className="tt-row" role="row" aria-rowindex={v.index + 2}>
                      <div role="gridcell" className="tt-cell grow">
                        <div className="skeleton" style={{ width: '40%' }} />
                      </div>
                    </div>
                  )}
                </div>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}

interface GroupHeader {
  label: string;
  className: string;
  /** The group's size in the whole list, when known. */
  count: number | null;
}

/** The header a row carries when it starts a group of a grouped list. */
function groupHeaderAt(
  grouping: Grouping,
  t: TaskRow,
  prev: TaskRow | undefined,
  index: number,
  today: number,
  dueCounts?: Partial<Record<DueGroup, number>>,
): GroupHeader | null {
  if (grouping === 'status')
    return index === 0 || (prev && prev.status !== t.status)
      ? { label: t.status ?? 'No status', className: statusClass(t.status), count: null }
      : null;
  if (grouping !== 'due' || !startsGroup(t, prev, index, today)) return null;
  const g = rowDueGroup(t, today);
  return {
    label: dueGroupLabels[g],
    className: `tt-group-name is-${g}`,
    count: dueCounts?.[g] ?? null,
  };
}

/** The width of the list's pane, followed as the window or the panes beside it change. */
function usePaneWidth(ref: RefObject<HTMLElement | null>, shown: boolean): number {
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

/** No rows: none match, or a fresh bootstrap has emptied the replica and is filling it. */
function EmptyTable() {
  const refilling = useRefilling();
  if (refilling === 'unknown') return <div className="empty" aria-busy="true" />;
  return refilling === 'yes' ? (
    <div className="empty" aria-busy="true">
      <strong>Copying your tasks from the server again</strong>
      <span>They show here as they arrive.</span>
    </div>
  ) : (
    <div className="empty">
      <strong>No tasks here</strong>
      <span>Press C to create one, or loosen the filters.</span>
    </div>
  );
}

function SkeletonRows() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading tasks">
      {Array.from({ length: 8 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <div key={i} className="tt-row">
          <div className="skeleton" style={{ width: `${30 + ((i * 17) % 40)}%` }} />
        </div>
      ))}
    </div>
  );
}
