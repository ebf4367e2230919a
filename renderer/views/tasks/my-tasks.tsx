import { type DueGroup, dueGroupCondition } from '../../../shared/due-groups';
import type { DateCondition } from '../../../shared/filters/ranges';
import { useApp } from '../../data/app-store';
import { useQuery } from '../../data/query';
import type { FilterValue } from '../../filters/filter-model';
import { useToday } from './my-tasks-groups';
import { type ListFilter, TaskListView } from './task-list-view';

/** Done tasks are out of the way: My tasks opens on what is still to do. */
const openOnly: FilterValue = { pending: true };

type ChipGroup = Extract<DueGroup, 'overdue' | 'today' | 'upcoming'>;

const sameRule = (a: unknown, b: DateCondition) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Everything the user owns, grouped by due day (the list does it for this scope: Overdue,
 * Today, Upcoming, Later, No date), with what is overdue, due today and coming up counted on
 * top; a count is also a filter. Count, filter and group are one rule (shared/due-groups.ts):
 * the user's calendar day, so a task due today is not overdue until tomorrow.
 */
export function MyTasks() {
  // The user's today: chips count, filter and the list groups on that one day.
  const day = useToday();
  // The groups' own counts of everything still to do: a chip counts what its group shows.
  const c = useQuery(
    'tasks.list',
    { scope: { kind: 'my' }, filter: openOnly, limit: 1, dueGroupsOn: day },
    useApp((s) => s.mainReady),
  ).data?.dueGroups;
  const header = ({ filter, setFilter }: ListFilter) => {
    if (!c) return null;
    // A chip narrows the list to its group's days; pressed again, it lets go.
    const chip = (group: ChipGroup, label: string, tone: string) => {
      const rule = dueGroupCondition(group, day);
      const on = filter.dates?.length === 1 && sameRule(filter.dates[0], rule);
      return (
        <button
          type="button"
          className={`pill chip-filter ${c[group] ? tone : ''}`}
          aria-pressed={on}
          onClick={() => setFilter(on ? openOnly : { ...openOnly, dates: [rule] })}
        >
          {`${c[group]} ${label}`}
        </button>
      );
    };
    return (
      <fieldset className="project-strip row chip-strip">
        <legend className="sr-only">Show only</legend>
        {chip('overdue', 'overdue', 'pill-danger')}
        {chip('today', 'due today', 'pill-warn')}
        {chip('upcoming', 'in the next 7 days', '')}
      </fieldset>
    );
  };
  return (
    <TaskListView
      key="my"
      scope={{ kind: 'my' }}
      title="My tasks"
      header={header}
      initialFilter={openOnly}
    />
  );
}
