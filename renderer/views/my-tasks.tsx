import { useApp } from '../data/app-store';
import { useQuery } from '../data/query';
import type { FilterValue } from '../filters/filter-model';
import { type ListFilter, TaskListView } from './task-list-view';

/** Done tasks are out of the way: My tasks opens on what is still to do. */
const openOnly: FilterValue = { pending: true };

/** Today, as the list's day filter takes it (the same UTC day). */
const today = () => {
  const d = new Date();
  return Date.UTC(d.getFullYear(), d.getMonth(), d.getDate(), 12);
};

/** Everything the user owns, with what is overdue, due today and coming up counted on top. */
export function MyTasks() {
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
    const day = today();
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
