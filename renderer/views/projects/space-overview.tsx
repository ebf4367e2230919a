import type { SpaceOverview as Overview } from '../../../shared/bridge';
import { useApp } from '../../data/app-store';
import { useQuery } from '../../data/query';
import { formatCalendarDay } from '../../lib/dates';
import { initials, userName } from '../../lib/format';
import { SyncMark } from '../../ui/sync-mark';
import '../../styles/space-overview.css';

type ProjectLine = Overview['projects'][number];

const openProject = (projectId: number) =>
  useApp.getState().go({ view: 'project', projectId, mode: 'list' });

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "3 of 8 done" as a bar and words; a project without tasks says so instead of "0%". */
function Progress({ tasks, name }: { tasks: ProjectLine['tasks']; name: string }) {
  if (tasks.total === 0) return <span className="muted">No tasks yet</span>;
  const percent = Math.round((tasks.done / tasks.total) * 100);
  return (
    <div className="ov-progress">
      <div
        className="progress"
        role="progressbar"
        aria-label={`${name}: tasks done`}
        aria-valuemin={0}
        aria-valuemax={tasks.total}
        aria-valuenow={tasks.done}
        aria-valuetext={`${tasks.done} of ${tasks.total} done`}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <span className="ov-count">
        {tasks.done} of {tasks.total} done
      </span>
    </div>
  );
}

function Summary({ projects }: { projects: ProjectLine[] }) {
  const total = projects.reduce((n, p) => n + p.tasks.total, 0);
  const done = projects.reduce((n, p) => n + p.tasks.done, 0);
  const overdue = projects.reduce((n, p) => n + p.tasks.overdue, 0);
  const stats = [
    { label: 'Projects', value: projects.length },
    { label: 'Open tasks', value: total - done },
    { label: 'Overdue', value: overdue, warn: overdue > 0 },
    { label: 'Done', value: total === 0 ? '—' : `${Math.round((done / total) * 100)}%` },
  ];
  return (
    <dl className="ov-stats">
      {stats.map((s) => (
        <div key={s.label} className={`ov-stat${s.warn ? ' is-overdue' : ''}`}>
          <dt>{s.label}</dt>
          <dd>{s.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Projects({ overview }: { overview: Overview }) {
  const { space, projects } = overview;
  if (projects.length === 0)
    return (
      <div className="empty">
        <strong>No projects in {space.spaceName} yet</strong>
        <span>Add one from Spaces and projects.</span>
      </div>
    );
  return (
    <table className="sheet ov-projects">
      <caption className="sr-only">Projects of {space.spaceName}</caption>
      <colgroup>
        <col />
        <col className="ov-col-progress" />
        <col className="ov-col-num" />
        <col className="ov-col-num" />
        <col className="ov-col-due" />
      </colgroup>
      <thead>
        <tr>
          <th scope="col">Project</th>
          <th scope="col">Progress</th>
          <th scope="col" className="num">
            Open
          </th>
          <th scope="col" className="num">
            Overdue
          </th>
          <th scope="col">Due</th>
        </tr>
      </thead>
      <tbody>
        {projects.map((p) => (
          <tr key={p.projectId} data-project-id={p.projectId}>
            <th scope="row">
              <button
                type="button"
                className="link ellipsis ov-name"
                onClick={() => openProject(p.projectId)}
              >
                {p.projectName}
              </button>{' '}
              <SyncMark sync={p.sync} />
              {p.projectStatus?.projectStatusName ? (
                <span className="ov-status muted">{p.projectStatus.projectStatusName}</span>
              ) : null}
            </th>
            <td>
              <Progress tasks={p.tasks} name={p.projectName} />
            </td>
            <td className="num">{p.tasks.total - p.tasks.done}</td>
            <td className={`num${p.tasks.overdue > 0 ? ' is-overdue' : ''}`}>{p.tasks.overdue}</td>
            <td>{formatCalendarDay(p.dueDate) || <span className="muted">No date</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Members({ overview }: { overview: Overview }) {
  const members = (overview.space.spaceMembers ?? []).filter((m) => m.user && !m.hidden);
  if (members.length === 0) return <p className="muted">No members listed for this space.</p>;
  return (
    <ul className="ov-members">
      {members.map((m) => {
        const user = m.user;
        if (!user) return null;
        return (
          <li key={m.spaceMemberId} className="row">
            <span className="avatar" aria-hidden="true">
              {initials(user)}
            </span>
            <span className="ellipsis">{userName(user)}</span>
            {m.spaceRole?.spaceRoleName ? (
              <span className="muted small">{m.spaceRole.spaceRoleName}</span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** One space at a glance: how far each project is, what is open and late, who is in it. */
export function SpaceOverview({ spaceId }: { spaceId: number }) {
  const answer = useQuery('spaces.overview', { spaceId });
  const overview = answer.data;
  const back = (
    <button type="button" className="link" onClick={() => useApp.getState().go({ view: 'spaces' })}>
      Spaces
    </button>
  );
  if (!overview)
    return (
      <div className="main">
        <div className="toolbar">
          <nav aria-label="Breadcrumb">{back}</nav>
        </div>
        {answer.loading ? (
          <div className="content" aria-busy="true" />
        ) : (
          <div className="empty">
            <strong>This space is gone</strong>
            <span>It was deleted, or you are no longer a member.</span>
          </div>
        )}
      </div>
    );
  const { space } = overview;
  const memberCount = (space.spaceMembers ?? []).filter((m) => m.user && !m.hidden).length;
  return (
    <div className="main">
      <div className="toolbar">
        <nav aria-label="Breadcrumb" className="row ov-crumbs">
          {back}
          <span aria-hidden="true" className="muted">
            /
          </span>
        </nav>
        <h1 className="row ellipsis">
          <span
            className="swatch"
            style={{ background: space.color ?? 'var(--accent)' }}
            aria-hidden="true"
          />
          <span className="ellipsis">{space.spaceName}</span>
        </h1>
        <SyncMark sync={space.sync} />
      </div>
      <div className="content padded">
        <div className="ov">
          {space.description ? <p className="muted ov-description">{space.description}</p> : null}
          <Summary projects={overview.projects} />
          <section className="ov-section" aria-labelledby="ov-projects-h">
            <h2 id="ov-projects-h">Projects</h2>
            <Projects overview={overview} />
          </section>
          <section className="ov-section" aria-labelledby="ov-members-h">
            <h2 id="ov-members-h">Members · {plural(memberCount, 'person', 'people')}</h2>
            <Members overview={overview} />
          </section>
        </div>
      </div>
    </div>
  );
}
