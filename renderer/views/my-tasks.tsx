import { useApp } from '../data/app-store';
import { useQuery } from '../data/query';
import { TaskListView } from './task-list-view';

/** Everything the user owns, with what is overdue, due today and coming up counted on top. */
export function MyTasks() {
  const q = useQuery(
    'tasks.myTasks',
    { limit: 1 },
    useApp((s) => s.mainReady),
  );
  const c = q.data?.counts;
  const header = c ? (
    <div className="project-strip row">
      <span className={`pill ${c.overdue ? 'pill-danger' : ''}`}>{c.overdue} overdue</span>
      <span className={`pill ${c.today ? 'pill-warn' : ''}`}>{c.today} due today</span>
      <span className="pill">{c.upcoming} in the next 7 days</span>
    </div>
  ) : null;
  return <TaskListView key="my" scope={{ kind: 'my' }} title="My tasks" header={header} />;
}
