import type { CustomField } from '../../../shared/api/custom-fields';
import type { BridgeTaskScope, BridgeTaskSort } from '../../../shared/bridge';

export type SortKey = NonNullable<BridgeTaskSort>[number];

export interface Column {
  id: string;
  label: string;
  /** The narrowest the column reads well at, in px (the title takes what is left over). */
  min: number;
  /** A share of the slack (`fr`); columns without one keep their minimum width. */
  grow?: number;
  sort?: SortKey['property'];
}

const TITLE_MIN = 220;
/** Column gap and the row's side padding (`.tt-row`), which the fit must count. */
const GAP = 8;
const PADDING = 32;

export const baseColumns: readonly Column[] = [
  { id: 'title', label: 'Title', min: TITLE_MIN, grow: 2, sort: 'taskTitle' },
  { id: 'status', label: 'Status', min: 104, sort: 'status' },
  { id: 'priority', label: 'Priority', min: 78, sort: 'priority' },
  { id: 'due', label: 'Due', min: 84, sort: 'dueDate' },
  // Space › Project › parent task: where a task of My tasks lives.
  { id: 'path', label: 'Project', min: 150, grow: 1.5 },
  { id: 'owners', label: 'Owners', min: 72 },
  { id: 'tags', label: 'Tags', min: 120 },
  { id: 'completion', label: 'Done %', min: 68, sort: 'completion' },
  { id: 'checklist', label: 'Checklist', min: 76 },
];

/** Custom fields shown by default; more can be picked. */
const DEFAULT_FIELDS = 4;

export const fieldColumnId = (f: CustomField) => `cf-${f.taskCustomFieldId}`;

/** Every column a list can show: the task's own, then its scope's custom fields. */
export const allColumns = (fields: readonly CustomField[]): Column[] => [
  ...baseColumns,
  ...fields.map((f) => ({ id: fieldColumnId(f), label: f.fieldName, min: 120 })),
];

/**
 * Columns a list shows unless the user picks: My tasks shows where each task lives instead of
 * its owners (always the user there); a project's list needs no path, it is the project.
 */
export const defaultColumnIds = (
  fields: readonly CustomField[],
  scope: BridgeTaskScope['kind'],
): string[] => [
  ...baseColumns.map((c) => c.id).filter((id) => id !== (scope === 'my' ? 'owners' : 'path')),
  ...fields.slice(0, DEFAULT_FIELDS).map(fieldColumnId),
];

/** The width a row of these columns needs at the least. */
export const minWidth = (columns: readonly Column[]) =>
  columns.reduce((w, c) => w + c.min, 0) + GAP * Math.max(0, columns.length - 1) + PADDING;

/**
 * The columns shown in a pane `width` px wide. Columns the user picked are all shown (the
 * pane scrolls sideways when they do not fit); the default set drops columns from its end
 * until the rest fit, keeping title and status.
 */
export function fitColumns(
  all: readonly Column[],
  chosen: readonly string[] | null,
  defaults: readonly string[],
  width: number,
): { shown: Column[]; hidden: number } {
  const wanted = (ids: readonly string[]) =>
    ['title', ...ids.filter((id) => id !== 'title')]
      .map((id) => all.find((c) => c.id === id))
      .filter((c): c is Column => c !== undefined);
  if (chosen) return { shown: wanted(chosen), hidden: 0 };
  const shown = wanted(defaults);
  const total = shown.length;
  // width 0: not measured yet; show the default set rather than a flash of two columns.
  while (width > 0 && shown.length > 2 && minWidth(shown) > width) shown.pop();
  return { shown, hidden: total - shown.length };
}

/** The grid template of the shown columns: the title (and the path) share the slack. */
export const gridTemplate = (columns: readonly Column[]) =>
  columns.map((c) => (c.grow ? `minmax(${c.min}px, ${c.grow}fr)` : `${c.min}px`)).join(' ');
