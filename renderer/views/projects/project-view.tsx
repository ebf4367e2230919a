import { useState } from 'react';
import { useApp } from '../../data/app-store';
import { applyEdit } from '../../data/edits';
import { useQuery } from '../../data/query';
import { formatCalendarDay } from '../../lib/dates';
import { Button } from '../../ui/button';
import { IconBoard, IconList, IconPlus } from '../../ui/icons';
import { SyncMark } from '../../ui/sync-mark';
import { TaskListView } from '../tasks/task-list-view';
import { BoardView } from './board';
import { ProjectDialog } from './project-dialog';

function ModeSwitch({ projectId, mode }: { projectId: number; mode: 'list' | 'board' }) {
  const go = (m: 'list' | 'board') => useApp.getState().go({ view: 'project', projectId, mode: m });
  return (
    <div className="segmented" role="radiogroup" aria-label="Layout">
      {(['list', 'board'] as const).map((m) => (
        <label key={m} className={mode === m ? 'is-on' : ''}>
          <input
            type="radio"
            className="sr-only"
            name="layout"
            aria-label={m === 'list' ? 'List' : 'Board'}
            checked={mode === m}
            onChange={() => go(m)}
          />
          {m === 'list' ? <IconList /> : <IconBoard />}
          <span className="btn-label">{m === 'list' ? 'List' : 'Board'}</span>
        </label>
      ))}
    </div>
  );
}

/** A project: its facts in a strip, then its tasks as a list or a board. */
export function ProjectView({ projectId, mode }: { projectId: number; mode: 'list' | 'board' }) {
  const project = useQuery('projects.get', { projectId });
  const users = useQuery('users.list', {});
  const [editing, setEditing] = useState(false);
  const p = project.data;
  const title = p?.projectName ?? (project.loading ? '' : 'Project not found');
  const strip = p ? (
    <div className="project-strip row">
      {p.projectStatus ? (
        <span className="pill pill-accent">{p.projectStatus.projectStatusName}</span>
      ) : null}
      {p.projectPriority ? (
        <span className="pill">{p.projectPriority.priorityLabel} priority</span>
      ) : null}
      {p.projectHealth ? <span className="pill">{p.projectHealth.healthLabel}</span> : null}
      {p.dueDate ? <span className="muted">Due {formatCalendarDay(p.dueDate)}</span> : null}
      <span className="muted">{p.completion ?? 0}% done</span>
      {(p.projectTags ?? []).map((t) => (
        <span key={t.projectTagId} className="pill">
          #{t.tagName}
        </span>
      ))}
      <SyncMark sync={p.sync} />
      <span className="grow" />
      <span className="muted">{(p.projectMembers ?? []).length} members</span>
      <Button size="sm" variant="ghost" onClick={() => setEditing(true)}>
        Edit project
      </Button>
    </div>
  ) : null;
  const dialog = p ? (
    <ProjectDialog
      open={editing}
      project={p}
      users={users.data?.users ?? []}
      onClose={() => setEditing(false)}
      onSave={(fields) => {
        setEditing(false);
        void applyEdit({ kind: 'project.update', projectId, patch: fields });
      }}
    />
  ) : null;
  if (mode === 'board') {
    return (
      <div className="main">
        <div className="toolbar">
          <h1 className="ellipsis" title={title}>
            {title}
          </h1>
          <ModeSwitch projectId={projectId} mode={mode} />
          <Button
            size="sm"
            variant="primary"
            icon={<IconPlus />}
            shortcut="C"
            aria-label="New task"
            onClick={() => useApp.setState({ newTaskOpen: true })}
          >
            <span className="btn-label">New task</span>
          </Button>
        </div>
        {strip}
        <div className="content">
          <BoardView projectId={projectId} />
        </div>
        {dialog}
      </div>
    );
  }
  return (
    <>
      <TaskListView
        key={projectId}
        scope={{ kind: 'project', projectId }}
        title={title}
        actions={<ModeSwitch projectId={projectId} mode={mode} />}
        header={strip}
      />
      {dialog}
    </>
  );
}
