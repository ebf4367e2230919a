// biome-ignore-all lint/a11y/useSemanticElements: rows of a virtualized ARIA grid are divs
// biome-ignore-all lint/a11y/useFocusableInteractive: the grid holds the focus (aria-activedescendant)
// biome-ignore-all lint/a11y/useKeyWithClickEvents: rows are driven by the grid's keys (arrows, j/k, Enter, x)
// biome-ignore-all lint/a11y/noStaticElementInteractions: the title opens the task on click; Enter does it from the keyboard
import { Fragment, memo } from 'react';
import type { CustomField } from '../../../shared/api/custom-fields';
import type { TaskRow } from '../../../shared/bridge';
import { applyEdit } from '../../data/edits';
import { isDropdown, optionOf } from '../../lib/custom-values';
import { formatCalendarDay, formatDue, isPastDue } from '../../lib/dates';
import { initials, userName } from '../../lib/format';
import { completeToggle, isDone, priorityClass, statusClass } from '../../lib/vocab';
import { SyncMark } from '../../ui/sync-mark';
import { fieldColumnId } from './table-columns';
import { pathOf, pathParts, pathText } from './task-path';

/** Complete or reopen, with Undo on its toast (a row's box, the x key, the detail's button). */
export const toggleDone = (t: { taskId: number; taskTitle: string; status?: string | null }) =>
  applyEdit(completeToggle(t), {
    undoToast: `${isDone(t.status) ? 'Reopened' : 'Completed'} “${t.taskTitle}”`,
  });

/** The value a task holds for a custom field, as text (dates as dates). */
function customValue(task: TaskRow, field: CustomField): string {
  const f = task.customFields?.find((c) => c.taskCustomFieldId === field.taskCustomFieldId);
  const v =
    f?.fieldValue?.find((x) => x.taskId === task.taskId)?.value ?? f?.fieldValue?.[0]?.value;
  if (v === undefined || v === null || v === '') return '';
  if (field.fieldType.toUpperCase() === 'DATE' && typeof v === 'number')
    return formatCalendarDay(v);
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (isDropdown(field)) return optionOf(field, v)?.optionName ?? '';
  return String(v);
}

export interface RowProps {
  task: TaskRow;
  index: number;
  template: string;
  /** The columns shown, in order: ids of `table-columns`. */
  columns: readonly string[];
  customFields: readonly CustomField[];
  selected: boolean;
  onSelect: (id: number) => void;
  onOpen: (id: number) => void;
}

/** What every row carries, full or light: its identity for the grid, tests and styles. */
const rowAttributes = (t: TaskRow, index: number, selected: boolean, template: string) => {
  const failed = t.sync === 'failed' || t.sync === 'conflict';
  return {
    id: `task-row-${t.taskId}`,
    role: 'row',
    'aria-rowindex': index + 2,
    'aria-selected': selected,
    'data-task-id': t.taskId,
    'data-sync': t.sync,
    className: `tt-row${selected ? ' is-selected' : ''}${isDone(t.status) ? ' is-done' : ''}${failed ? ' is-failed' : ''}`,
    style: { gridTemplateColumns: template },
  };
};

/** One cell of a task's row, by column id. */
function cell(
  id: string,
  t: TaskRow,
  customFields: readonly CustomField[],
  open: () => void,
): React.ReactNode {
  const done = isDone(t.status);
  switch (id) {
    case 'title':
      return (
        <div key={id} role="gridcell" className="tt-cell tt-title">
          <input
            type="checkbox"
            className="check"
            checked={done}
            aria-label={done ? `Reopen ${t.taskTitle}` : `Complete ${t.taskTitle}`}
            onClick={(e) => e.stopPropagation()}
            onChange={() => toggleDone(t)}
          />
          {/* Not a button: the row is the grid's focus target, and a control per row costs every frame of a scroll. */}
          <span
            className="tt-open ellipsis"
            onClick={(e) => {
              e.stopPropagation();
              open();
            }}
          >
            {t.taskTitle}
          </span>
          {t.subtaskCount ? (
            <span className="pill" title={`${t.subtaskCount} subtasks`}>
              ↳ {t.subtaskCount}
            </span>
          ) : null}
          <SyncMark sync={t.sync} />
        </div>
      );
    case 'status':
      return (
        <div key={id} role="gridcell" className="tt-cell">
          {t.status ? <span className={statusClass(t.status)}>{t.status}</span> : null}
        </div>
      );
    case 'priority':
      return (
        <div key={id} role="gridcell" className="tt-cell">
          {t.priority && t.priority !== 'None' ? (
            <span className={priorityClass(t.priority)}>{t.priority}</span>
          ) : null}
        </div>
      );
    case 'owners':
      return (
        <div key={id} role="gridcell" className="tt-cell">
          {t.owners?.length ? (
            <span className="avatars" title={t.owners.map(userName).join(', ')}>
              {t.owners.slice(0, 3).map((o) => (
                <span key={o.userId} className="avatar">
                  {initials(o)}
                </span>
              ))}
            </span>
          ) : null}
        </div>
      );
    case 'due':
      return (
        <div
          key={id}
          role="gridcell"
          className={`tt-cell${!done && isPastDue(t.dueDate) ? ' is-overdue' : ''}`}
        >
          {formatDue(t.dueDate)}
        </div>
      );
    case 'path': {
      const path = pathOf(t);
      const parts = path ? pathParts(path) : [];
      return (
        <div key={id} role="gridcell" className="tt-cell tt-path muted" title={pathText(parts)}>
          {parts.map((p, i) => (
            <Fragment key={p.kind}>
              {i > 0 ? (
                <span className="tt-path-sep" aria-hidden="true">
                  ›
                </span>
              ) : null}
              <span className={`tt-path-part is-${p.kind}`}>
                {i > 0 ? <span className="sr-only">, </span> : null}
                {p.label}
              </span>
            </Fragment>
          ))}
        </div>
      );
    }
    case 'tags':
      return (
        <div key={id} role="gridcell" className="tt-cell ellipsis muted">
          {(t.tags ?? []).join(', ')}
        </div>
      );
    case 'completion':
      return (
        <div key={id} role="gridcell" className="tt-cell muted">
          {t.completion ? `${t.completion}%` : ''}
        </div>
      );
    case 'checklist':
      return (
        <div key={id} role="gridcell" className="tt-cell muted">
          {t.checklistCount ? `${t.checklistCompletedCount ?? 0}/${t.checklistCount}` : ''}
        </div>
      );
  }
  const field = customFields.find((f) => fieldColumnId(f) === id);
  return (
    <div key={id} role="gridcell" className="tt-cell ellipsis muted">
      {field ? customValue(t, field) : ''}
    </div>
  );
}

/** One task in the list, the shown columns. Props are stable across frames, so it renders once. */
export const Row = memo(function Row({
  task: t,
  index,
  template,
  columns,
  customFields,
  selected,
  onSelect,
  onOpen,
}: RowProps) {
  const open = () => {
    onSelect(t.taskId);
    onOpen(t.taskId);
  };
  return (
    <div
      {...rowAttributes(t, index, selected, template)}
      onClick={() => onSelect(t.taskId)}
      onDoubleClick={() => onOpen(t.taskId)}
    >
      {columns.map((id) => cell(id, t, customFields, open))}
    </div>
  );
});

/**
 * The same task while the list flies past (faster than the eye reads a row): its title and
 * status as text, no controls. The full row replaces it when the scroll slows or stops; a
 * click that comes first (a scroll ends, the click lands before the next render) still
 * selects and opens, as on the full row. It selects on the press: should the full row come
 * between the press and the release, the browser sends the click to no row, and the user's
 * click would be lost (seen in CI, a click just after a scroll into view).
 */
export const LiteRow = memo(function LiteRow({
  task: t,
  index,
  template,
  selected,
  onSelect,
  onOpen,
}: Pick<RowProps, 'task' | 'index' | 'template' | 'selected' | 'onSelect' | 'onOpen'>) {
  return (
    <div
      {...rowAttributes(t, index, selected, template)}
      data-lite=""
      onPointerDown={(e) => {
        if (e.button === 0) onSelect(t.taskId);
      }}
      onClick={() => onSelect(t.taskId)}
      onDoubleClick={() => onOpen(t.taskId)}
    >
      <div role="gridcell" className="tt-cell tt-title">
        {t.taskTitle}
      </div>
      <div role="gridcell" className="tt-cell muted">
        {t.status}
      </div>
    </div>
  );
});
