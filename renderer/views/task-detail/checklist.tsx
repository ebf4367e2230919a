import { useRef, useState } from 'react';
import type { UserRef } from '../../../shared/api/common';
import type { ChecklistRow } from '../../../shared/bridge';
import type { EditCommand } from '../../../shared/edits/commands';
import { userName } from '../../lib/format';
import { IconButton } from '../../ui/button';
import { IconPlus, IconTrash } from '../../ui/icons';
import { SyncMark } from '../../ui/sync-mark';

export interface ChecklistProps {
  taskId: number;
  items: readonly ChecklistRow[];
  users: readonly UserRef[];
  onEdit: (cmd: EditCommand) => void;
}

/**
 * A task's checklist, in position order. Every change is one edit command carrying only what
 * changed: a toggle sends `{completed}` alone, so the host keeps the assignee (the API itself
 * would unassign an item whose update omits it).
 */
export function Checklist({ taskId, items, users, onEdit }: ChecklistProps) {
  const [draft, setDraft] = useState('');
  const ordered = [...items].sort((a, b) => a.position - b.position);
  const done = ordered.filter((i) => i.completed).length;
  const add = () => {
    const name = draft.trim();
    if (!name) return;
    onEdit({ kind: 'checklist.create', taskId, name });
    setDraft('');
  };
  return (
    <section className="section" aria-labelledby="checklist-h">
      <div className="section-head">
        <h3 id="checklist-h">Checklist</h3>
        {ordered.length ? (
          <span className="muted">
            {done}/{ordered.length}
          </span>
        ) : null}
      </div>
      {ordered.length ? (
        <div className="progress" aria-hidden="true">
          <span style={{ width: `${(done / ordered.length) * 100}%` }} />
        </div>
      ) : null}
      <ul className="checklist" aria-label="Checklist items">
        {ordered.map((item) => (
          <ChecklistItemRow key={item.checklistId} item={item} users={users} onEdit={onEdit} />
        ))}
      </ul>
      <form
        className="row add-row"
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <input
          className="input grow"
          aria-label="New checklist item"
          placeholder="Add an item…"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        <IconButton label="Add item" icon={<IconPlus />} type="submit" disabled={!draft.trim()} />
      </form>
    </section>
  );
}

function ChecklistItemRow({
  item,
  users,
  onEdit,
}: {
  item: ChecklistRow;
  users: readonly UserRef[];
  onEdit: (cmd: EditCommand) => void;
}) {
  const [name, setName] = useState(item.name);
  const [editing, setEditing] = useState(false);
  const shown = editing ? name : item.name;
  // Escape blurs the field too; that blur must not save what Escape threw away.
  const cancelled = useRef(false);
  const commit = () => {
    setEditing(false);
    if (cancelled.current) {
      cancelled.current = false;
      setName(item.name);
      return;
    }
    const next = name.trim();
    if (next && next !== item.name)
      onEdit({ kind: 'checklist.update', checklistId: item.checklistId, patch: { name: next } });
    else setName(item.name);
  };
  const toggle = () =>
    onEdit({
      kind: 'checklist.update',
      checklistId: item.checklistId,
      patch: { completed: !item.completed },
    });
  return (
    <li
      className={`check-item${item.completed ? ' is-done' : ''}`}
      data-checklist-id={item.checklistId}
      data-sync={item.sync}
    >
      <input
        type="checkbox"
        className="check"
        checked={item.completed}
        aria-label={`Done: ${item.name}`}
        onChange={toggle}
      />
      <input
        className="inline-input grow"
        aria-label={`Name of ${item.name}`}
        value={shown}
        onFocus={() => {
          setName(item.name);
          setEditing(true);
        }}
        onChange={(e) => setName(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') e.currentTarget.blur();
          if (e.key === 'Escape') {
            cancelled.current = true;
            e.currentTarget.blur();
          }
        }}
      />
      <select
        className="input select assignee"
        aria-label={`Assignee of ${item.name}`}
        value={item.assigneeId ?? ''}
        onChange={(e) =>
          onEdit({
            kind: 'checklist.update',
            checklistId: item.checklistId,
            patch: { assigneeId: e.target.value ? Number(e.target.value) : null },
          })
        }
      >
        <option value="">Unassigned</option>
        {users.map((u) => (
          <option key={u.userId} value={u.userId}>
            {userName(u)}
          </option>
        ))}
      </select>
      <SyncMark sync={item.sync} />
      <IconButton
        label={`Delete ${item.name}`}
        icon={<IconTrash />}
        onClick={() => onEdit({ kind: 'checklist.delete', checklistId: item.checklistId })}
      />
    </li>
  );
}
