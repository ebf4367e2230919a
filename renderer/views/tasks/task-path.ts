import type { ListedTask, TaskPath, TaskRow } from '../../../shared/bridge';
import { type Route, useApp } from '../../data/app-store';

/** One step of where a task lives, and where following it goes. */
export interface PathPart {
  kind: 'space' | 'project' | 'personal' | 'parent';
  label: string;
  /** A view to open, or the parent task to open. */
  to: { route: Route } | { taskId: number };
}

/**
 * Space › Project › parent task, in plain words: a task in no project is one of the user's
 * personal tasks. The space leads to its overview, the project to its list.
 */
export function pathParts(path: TaskPath): PathPart[] {
  const parts: PathPart[] = [];
  if (path.space)
    parts.push({
      kind: 'space',
      label: path.space.name,
      to: { route: { view: 'space', spaceId: path.space.spaceId } },
    });
  if (path.project)
    parts.push({
      kind: 'project',
      label: path.project.name,
      to: { route: { view: 'project', projectId: path.project.projectId, mode: 'list' } },
    });
  if (!path.space && !path.project)
    parts.push({ kind: 'personal', label: 'Personal', to: { route: { view: 'personal' } } });
  if (path.parent)
    parts.push({ kind: 'parent', label: path.parent.title, to: { taskId: path.parent.taskId } });
  return parts;
}

/** The path as one line ("Product › Mobile App › Design review"), for a tooltip or a label. */
export const pathText = (parts: readonly PathPart[]) => parts.map((p) => p.label).join(' › ');

/** A list row's path: rows of `tasks.list` carry one (PagedRows keeps them as task rows). */
export const pathOf = (t: TaskRow): TaskPath | null =>
  'path' in t ? ((t as ListedTask).path ?? null) : null;

/** Goes where a step of the path leads: its view, or its parent task (opened beside the list). */
export function followPath(part: PathPart): void {
  const app = useApp.getState();
  if ('taskId' in part.to) app.openTask(part.to.taskId);
  else app.go(part.to.route);
}
