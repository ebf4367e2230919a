// biome-ignore-all lint/a11y/useSemanticElements: a virtualized list cannot be a <table>: rows are absolutely placed divs in the ARIA grid pattern
// biome-ignore-all lint/a11y/useFocusableInteractive: the grid holds the focus and points at the selected row with aria-activedescendant
// biome-ignore-all lint/a11y/useKeyWithClickEvents: rows are driven by the grid's keys (arrows, j/k, Enter, x)
import { useRef } from 'react';
import type { CustomField } from '../../../shared/api/custom-fields';
import type { BridgeTaskFilter, BridgeTaskScope } from '../../../shared/bridge';
import { useRefilling } from '../../data/refilling';
import { useFastScroll } from './fast-scroll';
import { useToday } from './my-tasks-groups';
import type { SortKey } from './table-columns';
import { LiteRow, Row } from './task-row';
import { groupHeaderAt, useDueGroupCounts, useGroupedPages } from './task-table-grouping';
import { TaskTableHead } from './task-table-head';
import {
  HEADER,
  ROW,
  useFittedColumns,
  useFollowSelected,
  useMainReadyAfterRows,
  usePaneWidth,
  useScrollTopOnChange,
  useTableKeys,
  useVirtualRows,
} from './task-table-hooks';

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

/**
 * The task list: virtualized (100k rows scroll like 100), read a page at a time from the
 * replica with the next pages read ahead in idle time, keyboard-driven (j/k, Enter, x) and
 * sortable on several keys (Shift+click adds a key).
 */
export function TaskTable(props: TaskTableProps) {
  const parent = useRef<HTMLDivElement>(null);
  const head = useRef<HTMLDivElement>(null);
  const { grouping, pages } = useGroupedPages(
    props.scope,
    props.filter,
    props.sort,
    props.groupByStatus,
  );
  const today = useToday();
  const dueGroups = useDueGroupCounts(
    props.scope,
    props.filter,
    grouping,
    pages.total !== null,
    today,
  );
  // Read failed before any rows came: the table gives way to the error and its retry.
  const failed = pages.error !== null && pages.total === null;
  const width = usePaneWidth(parent, !failed);
  const { columns, hidden, template, rowWidth, ids } = useFittedColumns(
    props.customFields,
    props.columns,
    props.scope.kind,
    width,
    props.onShownColumns,
  );
  const total = pages.total ?? 0;
  useMainReadyAfterRows(pages.total);
  const { virtualizer, items } = useVirtualRows(parent, pages, total, grouping, today);
  const fast = useFastScroll(virtualizer.scrollOffset ?? 0, virtualizer.isScrolling);
  useFollowSelected(props.selectedId, pages, virtualizer);
  const move = useTableKeys({
    pages,
    total,
    virtualizer,
    selectedId: props.selectedId,
    onSelect: props.onSelect,
    onOpen: props.onOpen,
  });
  useScrollTopOnChange(parent, pages);
  const rowAt = (i: number) => pages.rowAt(i);

  if (failed) {
    return (
      <div className="empty" role="alert">
        <strong>This list could not be read</strong>
        <span>{pages.error?.message}</span>
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
      <TaskTableHead
        paneRef={head}
        columns={columns}
        hidden={hidden}
        template={template}
        rowWidth={rowWidth}
        sort={props.sort}
        onSort={props.onSort}
      />
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
