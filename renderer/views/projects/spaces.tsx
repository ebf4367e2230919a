import { useState } from 'react';
import type { ProjectRow, SpaceNode } from '../../../shared/bridge';
import { useApp } from '../../data/app-store';
import { applyEdit } from '../../data/edits';
import { useQuery } from '../../data/query';
import { formatCalendarDay } from '../../lib/dates';
import { Button, IconButton } from '../../ui/button';
import { ConfirmDialog, Dialog } from '../../ui/dialog';
import { TextArea, TextField } from '../../ui/field';
import { IconPlus, IconTrash } from '../../ui/icons';
import { SyncMark } from '../../ui/sync-mark';
import { ProjectDialog } from './project-dialog';
import '../../styles/space-overview.css';

type Deleting =
  | { kind: 'space'; space: SpaceNode }
  | { kind: 'project'; project: ProjectRow }
  | null;

/** Spaces and their projects: create, edit, delete (confirmed). */
export function Spaces() {
  const tree = useQuery('spaces.tree', {});
  const users = useQuery('users.list', {});
  const [spaceDialog, setSpaceDialog] = useState<{ space: SpaceNode | null } | null>(null);
  const [projectDialog, setProjectDialog] = useState<{
    spaceId: number;
    project: ProjectRow | null;
  } | null>(null);
  const [deleting, setDeleting] = useState<Deleting>(null);
  const spaces = tree.data?.spaces ?? [];
  return (
    <div className="main">
      <div className="toolbar">
        <h1>Spaces and projects</h1>
        <Button
          size="sm"
          variant="primary"
          icon={<IconPlus />}
          onClick={() => setSpaceDialog({ space: null })}
        >
          New space
        </Button>
      </div>
      <div className="content padded stack">
        {spaces.length === 0 && !tree.loading ? (
          <div className="empty">
            <strong>No spaces yet</strong>
            <span>A space groups projects and the people working on them.</span>
          </div>
        ) : null}
        {spaces.map((s) => (
          <section key={s.spaceId} className="space-card" aria-labelledby={`space-${s.spaceId}`}>
            <header className="row">
              <span
                className="swatch"
                style={{ background: s.color ?? 'var(--accent)' }}
                aria-hidden="true"
              />
              <h2 id={`space-${s.spaceId}`} className="grow ellipsis">
                <button
                  type="button"
                  className="link space-link"
                  onClick={() => useApp.getState().go({ view: 'space', spaceId: s.spaceId })}
                >
                  {s.spaceName}
                </button>
              </h2>
              <SyncMark sync={s.sync} />
              <span className="muted">{(s.spaceMembers ?? []).length} members</span>
              <Button size="sm" variant="ghost" onClick={() => setSpaceDialog({ space: s })}>
                Edit
              </Button>
              <IconButton
                label={`Delete space ${s.spaceName}`}
                icon={<IconTrash />}
                onClick={() => setDeleting({ kind: 'space', space: s })}
              />
            </header>
            {s.description ? <p className="muted">{s.description}</p> : null}
            <table className="sheet projects">
              <caption className="sr-only">Projects of {s.spaceName}</caption>
              {/* The same widths in every space's table: their columns line up down the page. */}
              <colgroup>
                <col />
                <col className="col-md" />
                <col className="col-sm" />
                <col className="col-sm" />
                <col className="col-sm" />
                <col className="col-xs" />
                <col className="col-actions" />
              </colgroup>
              <thead>
                <tr>
                  <th scope="col">Project</th>
                  <th scope="col">Status</th>
                  <th scope="col">Priority</th>
                  <th scope="col">Health</th>
                  <th scope="col">Due</th>
                  <th scope="col">Done</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {s.projects.map((p) => (
                  <tr key={p.projectId} data-project-id={p.projectId}>
                    <th scope="row">
                      <button
                        type="button"
                        className="link"
                        onClick={() =>
                          useApp
                            .getState()
                            .go({ view: 'project', projectId: p.projectId, mode: 'list' })
                        }
                      >
                        {p.projectName}
                      </button>{' '}
                      <SyncMark sync={p.sync} />
                    </th>
                    <td>{p.projectStatus?.projectStatusName ?? ''}</td>
                    <td>{p.projectPriority?.priorityLabel ?? ''}</td>
                    <td>{p.projectHealth?.healthLabel ?? ''}</td>
                    <td>{formatCalendarDay(p.dueDate)}</td>
                    <td>{p.completion ?? 0}%</td>
                    <td>
                      <div className="row">
                        <Button
                          size="sm"
                          variant="ghost"
                          onClick={() => setProjectDialog({ spaceId: s.spaceId, project: p })}
                        >
                          Edit
                        </Button>
                        <IconButton
                          label={`Delete project ${p.projectName}`}
                          icon={<IconTrash />}
                          onClick={() => setDeleting({ kind: 'project', project: p })}
                        />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Button
              size="sm"
              variant="ghost"
              icon={<IconPlus />}
              onClick={() => setProjectDialog({ spaceId: s.spaceId, project: null })}
            >
              New project in {s.spaceName}
            </Button>
          </section>
        ))}
      </div>
      <SpaceDialog
        open={spaceDialog !== null}
        space={spaceDialog?.space ?? null}
        onClose={() => setSpaceDialog(null)}
        onSave={(name, description) => {
          const space = spaceDialog?.space;
          void applyEdit(
            space
              ? {
                  kind: 'space.update',
                  spaceId: space.spaceId,
                  patch: { spaceName: name, description },
                }
              : { kind: 'space.create', fields: { spaceName: name, description } },
          );
          setSpaceDialog(null);
        }}
      />
      <ProjectDialog
        open={projectDialog !== null}
        project={projectDialog?.project ?? null}
        users={users.data?.users ?? []}
        onClose={() => setProjectDialog(null)}
        onSave={(fields) => {
          const d = projectDialog;
          if (!d) return;
          void applyEdit(
            d.project
              ? { kind: 'project.update', projectId: d.project.projectId, patch: fields }
              : { kind: 'project.create', spaceId: d.spaceId, fields },
          );
          setProjectDialog(null);
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={deleting?.kind === 'space' ? 'Delete this space?' : 'Delete this project?'}
        message={
          deleting?.kind === 'space'
            ? `“${deleting.space.spaceName}” and its ${deleting.space.projects.length} projects with all their tasks will be deleted.`
            : `“${deleting?.project.projectName ?? ''}” and all its tasks will be deleted.`
        }
        confirmLabel="Delete"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting?.kind === 'space')
            void applyEdit({ kind: 'space.delete', spaceId: deleting.space.spaceId });
          if (deleting?.kind === 'project')
            void applyEdit({ kind: 'project.delete', projectId: deleting.project.projectId });
          setDeleting(null);
        }}
      />
    </div>
  );
}

function SpaceDialog({
  open,
  space,
  onClose,
  onSave,
}: {
  open: boolean;
  space: SpaceNode | null;
  onClose: () => void;
  onSave: (name: string, description: string) => void;
}) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [shownFor, setShownFor] = useState<number | null | undefined>(undefined);
  if (open && shownFor !== (space?.spaceId ?? null)) {
    setShownFor(space?.spaceId ?? null);
    setName(space?.spaceName ?? '');
    setDescription(space?.description ?? '');
  }
  if (!open && shownFor !== undefined) setShownFor(undefined);
  return (
    <Dialog
      open={open}
      title={space ? `Edit ${space.spaceName}` : 'New space'}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="space-form" disabled={!name.trim()}>
            {space ? 'Save' : 'Create space'}
          </Button>
        </>
      }
    >
      <form
        id="space-form"
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) onSave(name.trim(), description);
        }}
      >
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          data-autofocus
          required
        />
        <TextArea
          label="Description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </form>
    </Dialog>
  );
}
