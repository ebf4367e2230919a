import { useEffect, useState } from 'react';
import type { UserRef } from '../../../shared/api/common';
import type { ProjectCreateRequest } from '../../../shared/api/projects';
import type { ProjectRow } from '../../../shared/bridge';
import { dateInputToIso, isoToDateInput } from '../../lib/dates';
import { userName } from '../../lib/format';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { SelectField, TextArea, TextField } from '../../ui/field';

const statuses = ['Not Started', 'Active', 'On Hold', 'Completed'];
const priorities = ['High', 'Medium', 'Low'];
const healths = ['On Track', 'At Risk', 'Off Track'];
const opts = (xs: readonly string[], current?: string | null) =>
  [...new Set([...(current ? [current] : []), ...xs])].map((x) => ({ value: x, label: x }));

/** The fields of a project, for a create or an edit (an update sends the full state). */
export function ProjectDialog({
  open,
  project,
  users,
  onClose,
  onSave,
}: {
  open: boolean;
  project: ProjectRow | null;
  users: readonly UserRef[];
  onClose: () => void;
  onSave: (fields: ProjectCreateRequest) => void;
}) {
  const init = (): ProjectCreateRequest => ({
    projectName: project?.projectName ?? '',
    description: project?.description ?? '',
    status: project?.projectStatus?.projectStatusName ?? 'Not Started',
    priority: project?.projectPriority?.priorityLabel ?? 'Medium',
    health: project?.projectHealth?.healthLabel ?? 'On Track',
    tags: (project?.projectTags ?? []).map((t) => t.tagName),
    startDate: project?.startDate ?? null,
    dueDate: project?.dueDate ?? null,
    completion: project?.completion ?? 0,
    members: (project?.projectMembers ?? []).flatMap((m) => (m.user ? [m.user.userId] : [])),
  });
  const [f, setF] = useState(init);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when opened for another project
  useEffect(() => {
    if (open) setF(init());
  }, [open, project?.projectId]);
  const set = (p: Partial<ProjectCreateRequest>) => setF((x) => ({ ...x, ...p }));
  const members = f.members ?? [];
  return (
    <Dialog
      open={open}
      wide
      title={project ? `Edit ${project.projectName}` : 'New project'}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            variant="primary"
            type="submit"
            form="project-form"
            disabled={!f.projectName.trim()}
          >
            {project ? 'Save' : 'Create project'}
          </Button>
        </>
      }
    >
      <form
        id="project-form"
        className="form-grid"
        onSubmit={(e) => {
          e.preventDefault();
          if (f.projectName.trim()) onSave({ ...f, projectName: f.projectName.trim() });
        }}
      >
        <TextField
          label="Name"
          value={f.projectName}
          onChange={(e) => set({ projectName: e.target.value })}
          data-autofocus
          required
        />
        <TextArea
          label="Description"
          value={f.description ?? ''}
          onChange={(e) => set({ description: e.target.value })}
        />
        <div className="form-row">
          <SelectField
            label="Status"
            options={opts(statuses, f.status)}
            value={f.status}
            onChange={(e) => set({ status: e.target.value })}
          />
          <SelectField
            label="Priority"
            options={opts(priorities, f.priority)}
            value={f.priority}
            onChange={(e) => set({ priority: e.target.value })}
          />
          <SelectField
            label="Health"
            options={opts(healths, f.health)}
            value={f.health}
            onChange={(e) => set({ health: e.target.value })}
          />
        </div>
        <div className="form-row">
          <TextField
            label="Start"
            type="date"
            value={isoToDateInput(f.startDate)}
            onChange={(e) => set({ startDate: dateInputToIso(e.target.value) })}
          />
          <TextField
            label="Due"
            type="date"
            value={isoToDateInput(f.dueDate)}
            onChange={(e) => set({ dueDate: dateInputToIso(e.target.value) })}
          />
          <TextField
            label="Completion %"
            type="number"
            min={0}
            max={100}
            value={f.completion ?? 0}
            onChange={(e) =>
              set({
                completion: Math.max(0, Math.min(100, Math.round(Number(e.target.value) || 0))),
              })
            }
          />
        </div>
        <TextField
          label="Tags"
          hint="Comma separated"
          value={(f.tags ?? []).join(', ')}
          onChange={(e) =>
            set({
              tags: e.target.value
                .split(',')
                .map((t) => t.trim())
                .filter(Boolean),
            })
          }
        />
        <fieldset className="fb-fieldset">
          <legend>Members</legend>
          <div className="fb-chips">
            {users.map((u) => (
              <label key={u.userId} className={`chip${members.includes(u.userId) ? ' is-on' : ''}`}>
                <input
                  type="checkbox"
                  className="sr-only"
                  checked={members.includes(u.userId)}
                  onChange={() =>
                    set({
                      members: members.includes(u.userId)
                        ? members.filter((x) => x !== u.userId)
                        : [...members, u.userId],
                    })
                  }
                />
                {userName(u)}
              </label>
            ))}
          </div>
        </fieldset>
      </form>
    </Dialog>
  );
}
