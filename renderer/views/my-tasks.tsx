import { useApp } from '../data/app-store';
import { useQuery } from '../data/query';
import type { FilterValue } from '../filters/filter-model';
import { useToday } from './my-tasks-groups';
import { type ListFilter, TaskListView } from './task-list-view';

/** Done tasks are out of the way: My tasks opens on what is still to do. */
const openOnly: FilterValue = { pending: true };

/**
 * Everything the user owns, grouped by due day (the list does it for this scope: Overdue,
 * Today, Upcoming, Later, No date), with what is overdue, due today and coming up counted on
 * top; a count is also a filter.
 */
export function MyTasks() {
  // The user's today: the "due today" filter matches that calendar day (a UTC day, as stored).
  const day = useToday();
  const q = useQuery(
    'tasks.myTasks',
    { limit: 1 },
    useApp((s) => s.mainReady),
  );
  const c = q.data?.counts;
  const header = ({ filter, setFilter }: ListFilter) => {
    if (!c) return null;
    // A chip narrows the list to what it counts; pressed again, it lets go.
    const chip = (label: string, on: boolean, set: FilterValue, tone: string) => (
      <button
        type="button"
        className={`pill chip-filter ${tone}`}
        aria-pressed={on}
        onClick={() => setFilter(on ? openOnly : { ...openOnly, ...set })}
      >
        {label}
      </button>
    );
    return (
      <fieldset className="project-strip row chip-strip">
        <legend className="sr-only">Show only</legend>
        {chip(
          `${c.overdue} overdue`,
          filter.overdue === true,
          { overdue: true },
          c.overdue ? 'pill-danger' : '',
        )}
        {chip(
          `${c.today} due today`,
          filter.dueDate === day,
          { dueDate: day },
          c.today ? 'pill-warn' : '',
        )}
        {chip(`${c.upcoming} in the next 7 days`, filter.upcoming === true, { upcoming: true }, '')}
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
