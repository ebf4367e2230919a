import { useState } from 'react';
import { useApp } from '../../data/app-store';
import { applyEdit } from '../../data/edits';
import { dateInputToIso } from '../../lib/dates';
import { titleProblem } from '../../lib/task-title';
import { basePriorities, baseStatuses } from '../../lib/vocab';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { SelectField, TextField } from '../../ui/field';

/** C: a new task where the user is (the project on screen, else personal), opened at once. */
export function NewTaskDialog() {
  const open = useApp((s) => s.newTaskOpen);
  const route = useApp((s) => s.route);
  const [title, setTitle] = useState('');
  const [status, setStatus] = useState('To Do');
  const [priority, setPriority] = useState('Medium');
  const [due, setDue] = useState('');
  /** Said beside the title when Create is pressed with one the service would refuse. */
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    useApp.setState({ newTaskOpen: false });
  };
  const where = route.view === 'project' ? 'this project' : 'your personal tasks';
  const submit = async () => {
    const taskTitle = title.trim();
    const problem = titleProblem(taskTitle);
    if (problem) {
      setError(problem);
      return;
    }
    close();
    setTitle('');
    setDue('');
    const res = await applyEdit({
      kind: 'task.create',
      ...(route.view === 'project' ? { projectId: route.projectId } : {}),
      fields: { taskTitle, status, priority, ...(due ? { dueDate: dateInputToIso(due) } : {}) },
    });
    if (res) useApp.getState().openTask(res.id);
  };
  return (
    <Dialog
      open={open}
      title="New task"
      onClose={close}
      footer={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button variant="primary" type="submit" form="new-task" disabled={!title.trim()}>
            Create task
          </Button>
        </>
      }
    >
      <form
        id="new-task"
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <TextField
          label="Title"
          value={title}
          onChange={(e) => {
            setTitle(e.target.value);
            // Once shown, the error follows the typing (and goes when the title is right).
            if (error) setError(titleProblem(e.target.value));
          }}
          data-autofocus
          hint={`Created in ${where}.`}
          error={error}
          aria-invalid={error ? true : undefined}
          required
        />
        <div className="form-row">
          <SelectField
            label="Status"
            options={baseStatuses.map((s) => ({ value: s, label: s }))}
            value={status}
            onChange={(e) => setStatus(e.target.value)}
          />
          <SelectField
            label="Priority"
            options={basePriorities.map((s) => ({ value: s, label: s }))}
            value={priority}
            onChange={(e) => setPriority(e.target.value)}
          />
          <TextField label="Due" type="date" value={due} onChange={(e) => setDue(e.target.value)} />
        </div>
      </form>
    </Dialog>
  );
}
