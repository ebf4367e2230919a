// biome-ignore-all lint/a11y/useSemanticElements: a virtualized list cannot be a <table>: rows are absolutely placed divs in the ARIA grid pattern
// biome-ignore-all lint/a11y/useFocusableInteractive: the grid holds the focus and points at the selected row with aria-activedescendant
// biome-ignore-all lint/a11y/useKeyWithClickEvents: rows are driven by the grid's keys (arrows, j/k, Enter, x)
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef } from 'react';
import type { CustomField } from '../../shared/api/custom-fields';
import type {
  BridgeTaskFilter,
  BridgeTaskScope,
  BridgeTaskSort,
  TaskRow,
} from '../../shared/bridge';
import { useApp } from '../data/app-store';
import { applyEdit } from '../data/edits';
import { useQuery } from '../data/query';
import { initials, shortDate, userName } from '../lib/format';
import { DONE, isDone, priorityClass, REOPENED, statusClass } from '../lib/vocab';
import { useShortcut } from '../shortcuts/keys';
import { SyncMark } from '../ui/sync-mark';

/** Rows read per call: a screen and a half, so a scroll rarely waits on more than one read. */
const PAGE = 100;
const ROW = 32;
const HEADER = 30;

export type SortKey = NonNullable<BridgeTaskSort>[number];

export interface TaskTableProps {
  scope: BridgeTaskScope;
  filter: BridgeTaskFilter;
  sort: SortKey[];
  onSort: (sort: SortKey[]) => void;
  groupByStatus: boolean;
  customFields: readonly CustomField[];
  selectedId: number | null;
  onSelect: (taskId: number) => void;
  onOpen: (taskId: number) => void;
  label: string;
}

interface Column {
  id: string;
  label: string;
  width: string;
  sort?: SortKey['property'];
}

const baseColumns: Column[] = [
  { id: 'title', label: 'Title', width: 'minmax(240px, 1fr)', sort: 'taskTitle' },
  { id: 'status', label: 'Status', width: '110px', sort: 'status' },
  { id: 'priority', label: 'Priority', width: '84px', sort: 'priority' },
  { id: 'owners', label: 'Owners', width: '76px' },
  { id: 'due', label: 'Due', width: '76px', sort: 'dueDate' },
  { id: 'tags', label: 'Tags', width: '120px' },
  { id: 'completion', label: 'Done %', width: '64px', sort: 'completion' },
  { id: 'checklist', label: 'Checklist', width: '72px' },
];

/** The value a task holds for a custom field, as text (dates as dates). */
function customValue(task: TaskRow, field: CustomField): string {
  const f = task.customFields?.find((c) => c.taskCustomFieldId === field.taskCustomFieldId);
  const v =
    f?.fieldValue?.find((x) => x.taskId === task.taskId)?.value ?? f?.fieldValue?.[0]?.value;
  if (v === undefined || v === null || v === '') return '';
  if (field.fieldType.toUpperCase() === 'DATE' && typeof v === 'number') return shortDate(v);
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  return String(v);
}

/** The rows of one page of the list; a page out of view is not read. */
function usePage(props: TaskTableProps, page: number, enabled: boolean) {
  const sort = props.groupByStatus
    ? [
        { property: 'status' as const, direction: 'asc' as const },
        ...props.sort.filter((s) => s.property !== 'status'),
      ]
    : props.sort;
  return useQuery(
    'tasks.list',
    { scope: props.scope, filter: props.filter, sort, offset: page * PAGE, limit: PAGE },
    enabled,
  );
}

/**
 * The task list: virtualized (100k rows scroll like 100), read a page at a time from the
 * replica, keyboard-driven (j/k, Enter, x) and sortable on several keys (Shift+click adds a
 * key).
 */
export function TaskTable(props: TaskTableProps) {
  const parent = useRef<HTMLDivElement>(null);
  const columns = useMemo(
    (): Column[] => [
      ...baseColumns,
      ...props.customFields.slice(0, 4).map((f) => ({
        id: `cf-${f.taskCustomFieldId}`,
        label: f.fieldName,
        width: '110px',
      })),
    ],
    [props.customFields],
  );
  const template = columns.map((c) => c.width).join(' ');

  const first = usePage(props, 0, true);
  useEffect(() => {
    if (first.data && !useApp.getState().mainReady) useApp.setState({ mainReady: true });
  }, [first.data]);
  const total = first.data?.total ?? 0;
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => parent.current,
    estimateSize: () => ROW,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const startPage = Math.floor((items[0]?.index ?? 0) / PAGE);
  const endPage = Math.floor((items[items.length - 1]?.index ?? 0) / PAGE);
  const a = usePage(props, startPage, startPage > 0);
  const b = usePage(props, endPage, endPage > 0 && endPage !== startPage);
  // The page after the window is read ahead, so a scroll finds its rows already here.
  const ahead = endPage + 1;
  const c = usePage(props, ahead, ahead * PAGE < total);

  // Rows seen stay until replaced, so a page being re-read never blanks the screen.
  const rows = useRef(new Map<number, TaskRow>());
  const scopeKey = JSON.stringify([props.scope, props.filter, props.sort, props.groupByStatus]);
  const lastScope = useRef(scopeKey);
  if (lastScope.current !== scopeKey) {
    rows.current.clear();
    lastScope.current = scopeKey;
  }
  for (const [page, entry] of [
    [0, first],
    [startPage, a],
    [endPage, b],
    [ahead, c],
  ] as const) {
    entry.data?.items.forEach((t, i) => {
      rows.current.set(page * PAGE + i, t);
    });
  }
  const rowAt = (i: number) => rows.current.get(i);

  // Rows far from the window are let go: a long scroll must not make every frame slower.
  if (rows.current.size > 4 * PAGE * 4) {
    const lo = (startPage - 2) * PAGE;
    const hi = (ahead + 2) * PAGE;
    for (const i of rows.current.keys()) if (i < lo || i >= hi) rows.current.delete(i);
  }
  /** Where the selected task is among the rows held (looked up only when a key needs it). */
  const selectedIndex = () => {
    for (const [i, t] of rows.current) if (t.taskId === props.selectedId) return i;
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
    if (scopeKey) parent.current?.scrollTo({ top: 0 });
  }, [scopeKey]);

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

  if (first.error) {
    return (
      <div className="empty" role="alert">
        <strong>This list could not be read</strong>
        <span>{first.error.message}</span>
        <button type="button" className="btn" onClick={first.reload}>
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
      <div
        className="tt-head"
        role="row"
        aria-rowindex={1}
        style={{ gridTemplateColumns: template }}
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
                  {s ? <span aria-hidden="true">{s.direction === 'asc' ? ' ↑' : ' ↓'}</span> : null}
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
      <div ref={parent} className="tt-body" role="rowgroup">
        {first.loading && !first.data ? (
          <SkeletonRows />
        ) : total === 0 ? (
          <div className="empty">
            <strong>No tasks here</strong>
            <span>Press C to create one, or loosen the filters.</span>
          </div>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((v) => {
              const t = rowAt(v.index);
              const prev = rowAt(v.index - 1);
              const header =
                props.groupByStatus && t && (v.index === 0 || (prev && prev.status !== t.status));
              return (
                <div
                  key={v.key}
                  data-index={v.index}
                  ref={props.groupByStatus ? virtualizer.measureElement : undefined}
                  style={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    right: 0,
                    transform: `translateY(${v.start}px)`,
                    height: props.groupByStatus ? undefined : ROW,
                  }}
                >
                  {header ? (
                    <div className="tt-group" role="presentation" style={{ height: HEADER }}>
                      <span className={statusClass(t.status)}>{t.status ?? 'No status'}</span>
                    </div>
                  ) : null}
                  {t ? (
                    <Row
                      task={t}
                      index={v.index}
                      template={template}
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

const toggleDone = (t: TaskRow) =>
  applyEdit({
    kind: 'task.update',
    taskId: t.taskId,
    patch: isDone(t.status)
      ? { status: REOPENED, completion: 0 }
      : { status: DONE, completion: 100 },
  });

const Row = memo(function Row({
  task: t,
  index,
  template,
  customFields,
  selected,
  onSelect,
  onOpen,
}: {
  task: TaskRow;
  index: number;
  template: string;
  customFields: readonly CustomField[];
  selected: boolean;
  onSelect: (id: number) => void;
  onOpen: (id: number) => void;
}) {
  const done = isDone(t.status);
  const checklist = t.checklistCount ? `${t.checklistCompletedCount ?? 0}/${t.checklistCount}` : '';
  return (
    <div
      id={`task-row-${t.taskId}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-task-id={t.taskId}
      data-sync={t.sync}
      className={`tt-row${selected ? ' is-selected' : ''}${done ? ' is-done' : ''}${t.sync === 'failed' || t.sync === 'conflict' ? ' is-failed' : ''}`}
      style={{ gridTemplateColumns: template }}
      onClick={() => onSelect(t.taskId)}
      onDoubleClick={() => onOpen(t.taskId)}
    >
      <div role="gridcell" className="tt-cell tt-title">
        <input
          type="checkbox"
          className="check"
          checked={done}
          aria-label={done ? `Reopen ${t.taskTitle}` : `Complete ${t.taskTitle}`}
          onClick={(e) => e.stopPropagation()}
          onChange={() => toggleDone(t)}
        />
        <button
          type="button"
          className="tt-open ellipsis"
          tabIndex={-1}
          onClick={(e) => {
            e.stopPropagation();
            onSelect(t.taskId);
            onOpen(t.taskId);
          }}
        >
          {t.taskTitle}
        </button>
        {t.subtaskCount ? (
          <span className="pill" title={`${t.subtaskCount} subtasks`}>
            ↳ {t.subtaskCount}
          </span>
        ) : null}
        <SyncMark sync={t.sync} />
      </div>
      <div role="gridcell" className="tt-cell">
        {t.status ? <span className={statusClass(t.status)}>{t.status}</span> : null}
      </div>
      <div role="gridcell" className="tt-cell">
        {t.priority && t.priority !== 'None' ? (
          <span className={priorityClass(t.priority)}>{t.priority}</span>
        ) : null}
      </div>
      <div role="gridcell" className="tt-cell">
        <span className="avatars">
          {(t.owners ?? []).slice(0, 3).map((o) => (
            <span key={o.userId} className="avatar" title={userName(o)}>
              {initials(o)}
            </span>
          ))}
        </span>
      </div>
      <div role="gridcell" className={`tt-cell${t.overdue && !done ? ' is-overdue' : ''}`}>
        {shortDate(t.dueDate)}
      </div>
      <div role="gridcell" className="tt-cell ellipsis muted">
        {(t.tags ?? []).join(', ')}
      </div>
      <div role="gridcell" className="tt-cell muted">
        {t.completion ? `${t.completion}%` : ''}
      </div>
      <div role="gridcell" className="tt-cell muted">
        {checklist}
      </div>
      {customFields.slice(0, 4).map((f) => (
        <div key={f.taskCustomFieldId} role="gridcell" className="tt-cell ellipsis muted">
          {customValue(t, f)}
        </div>
      ))}
    </div>
  );
});

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
