// biome-ignore-all lint/a11y/useSemanticElements: the header row of the table's ARIA grid, whose rows are absolutely placed divs
// biome-ignore-all lint/a11y/useFocusableInteractive: the grid holds the focus; its headers' sort buttons take their own
import type { RefObject } from 'react';
import type { Column, SortKey } from './table-columns';

export interface TaskTableHeadProps {
  /** The pane the rows' sideways scroll is copied to. */
  paneRef: RefObject<HTMLDivElement | null>;
  columns: readonly Column[];
  /** How many columns of the default set did not fit. */
  hidden: number;
  template: string;
  rowWidth: number;
  sort: readonly SortKey[];
  onSort: (sort: SortKey[]) => void;
}

/** The table's header row: one column header each, sortable ones as buttons. */
export function TaskTableHead(props: TaskTableHeadProps) {
  const { sort, onSort } = props;
  const sortFor = (property: SortKey['property']) => sort.find((s) => s.property === property);
  const clickSort = (property: SortKey['property'], add: boolean) => {
    const current = sortFor(property);
    const flipped: SortKey = {
      property,
      direction: current?.direction === 'asc' ? 'desc' : 'asc',
    };
    if (add) {
      onSort(
        current ? sort.map((s) => (s.property === property ? flipped : s)) : [...sort, flipped],
      );
    } else onSort([flipped]);
  };

  return (
    <div className="tt-head-pane" ref={props.paneRef}>
      <div
        className="tt-head"
        role="row"
        aria-rowindex={1}
        data-hidden-columns={props.hidden || undefined}
        style={{ gridTemplateColumns: props.template, minWidth: props.rowWidth }}
      >
        {props.columns.map((c) => {
          const s = c.sort ? sortFor(c.sort) : undefined;
          const rank = s && sort.length > 1 ? sort.indexOf(s) + 1 : null;
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
    </div>
  );
}
