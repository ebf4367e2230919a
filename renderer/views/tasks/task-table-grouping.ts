import { useMemo } from 'react';
import type { BridgeTaskFilter, BridgeTaskScope, TaskRow } from '../../../shared/bridge';
import type { DueGroup } from '../../../shared/due-groups';
import { useQuery } from '../../data/query';
import { useTaskPages } from '../../data/task-pages';
import { statusClass } from '../../lib/vocab';
import { dueDateFirst, dueGroupLabels, rowDueGroup, startsGroup } from './my-tasks-groups';
import type { SortKey } from './table-columns';

/** How a list's rows are grouped: by status when asked; My tasks by due day otherwise. */
export type Grouping = 'status' | 'due' | null;

const groupingOf = (scope: BridgeTaskScope, groupByStatus: boolean): Grouping =>
  groupByStatus ? 'status' : scope.kind === 'my' ? 'due' : null;

/** The sort the list is read with: a grouped list sorts by what it groups by first. */
const effectiveSort = (sort: SortKey[], grouping: Grouping): SortKey[] =>
  grouping === 'status'
    ? [{ property: 'status', direction: 'asc' }, ...sort.filter((s) => s.property !== 'status')]
    : grouping === 'due'
      ? dueDateFirst(sort)
      : sort;

/** The list's pages, read in the order its grouping needs. */
export function useGroupedPages(
  scope: BridgeTaskScope,
  filter: BridgeTaskFilter,
  picked: SortKey[],
  groupByStatus: boolean,
) {
  const grouping = groupingOf(scope, groupByStatus);
  const sort = useMemo(() => effectiveSort(picked, grouping), [picked, grouping]);
  return { grouping, pages: useTaskPages({ scope, filter, sort }) };
}

export type DueCounts = Partial<Record<DueGroup, number>>;

/**
 * The due groups' sizes, for their headers: the rows held are only the pages read so far.
 * Asked once the list itself has answered (`listed`), so it does not race the first rows.
 */
export function useDueGroupCounts(
  scope: BridgeTaskScope,
  filter: BridgeTaskFilter,
  grouping: Grouping,
  listed: boolean,
  today: number,
): DueCounts | undefined {
  return useQuery(
    'tasks.list',
    { scope, filter, limit: 1, dueGroupsOn: today },
    grouping === 'due' && listed,
  ).data?.dueGroups;
}

export interface GroupHeader {
  label: string;
  className: string;
  /** The group's size in the whole list, when known. */
  count: number | null;
}

/** The header a row carries when it starts a group of a grouped list. */
export function groupHeaderAt(
  grouping: Grouping,
  t: TaskRow,
  prev: TaskRow | undefined,
  index: number,
  today: number,
  dueCounts?: DueCounts,
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
