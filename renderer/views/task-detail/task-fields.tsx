import { useEffect, useId, useState } from 'react';
import type { UserRef } from '../../../shared/api/common';
import type { CustomField } from '../../../shared/api/custom-fields';
import type { TaskRow } from '../../../shared/bridge';
import type { EditCommand } from '../../../shared/edits/commands';
import { isDropdown, optionOf } from '../../lib/custom-values';
import { dateInputToIso, dateInputToMs, isoToDateInput, msToDateInput } from '../../lib/dates';
import { userName } from '../../lib/format';
import { titleProblem } from '../../lib/task-title';
import { basePriorities, baseStatuses, mergeNames } from '../../lib/vocab';

type Patch = Extract<EditCommand, { kind: 'task.update' }>['patch'];

/**
 * A text input that saves on blur or Enter and shows the stored value otherwise. A value
 * `validate` refuses is not saved: Enter keeps editing with the problem shown below, leaving
 * the field puts the stored value back and says it was not changed; Escape reverts. `wrap`:
 * one line of text that wraps (a growing textarea; Enter saves, it never adds a newline).
 */
function CommitInput({
  value,
  onCommit,
  label,
  className = 'inline-input',
  multiline,
  wrap,
  id,
  validate,
}: {
  id?: string;
  wrap?: boolean;
  value: string;
  onCommit: (v: string) => void;
  label: string;
  className?: string;
  multiline?: boolean;
  validate?: (v: string) => string | null;
}) {
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  useEffect(() => setDraft(value), [value]);
  const check = () => {
    const problem = draft !== value ? (validate?.(draft) ?? null) : null;
    setError(problem);
    return problem;
  };
  const commit = () => {
    if (check()) {
      setError(`${label} not changed: ${validate?.(draft)}`);
      setDraft(value);
    } else if (draft !== value) onCommit(draft);
  };
  const common = {
    id,
    'aria-label': label,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
    className,
    value: draft,
    onBlur: commit,
  };
  const problem = error ? (
    <div id={errorId} className="field-error" role="alert">
      {error}
    </div>
  ) : null;
  // One line, typed or wrapped: a pasted newline becomes a space.
  const line = {
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const text = e.target.value.replace(/[\r\n]+/g, ' ');
      setDraft(text);
      if (error) setError(validate?.(text) ?? null);
    },
    onKeyDown: (e: React.KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      if (e.key === 'Enter') {
        if (wrap) e.preventDefault();
        if (!check()) e.currentTarget.blur();
      }
      if (e.key === 'Escape' && (draft !== value || error)) {
        // The first Escape undoes the edit; the next one closes the task as usual.
        e.preventDefault();
        setDraft(value);
        setError(null);
      }
    },
  };
  return multiline ? (
    <textarea
      {...common}
      rows={3}
      placeholder="Add a description…"
      onChange={(e) => setDraft(e.target.value)}
    />
  ) : (
    <>
      {wrap ? <textarea {...common} {...line} rows={1} /> : <input {...common} {...line} />}
      {problem}
    </>
  );
}

export function TitleField({ task, onPatch }: { task: TaskRow; onPatch: (p: Patch) => void }) {
  return (
    <CommitInput
      label="Title"
      className="inline-input title-input"
      wrap
      value={task.taskTitle}
      validate={titleProblem}
      onCommit={(v) => onPatch({ taskTitle: v.trim() })}
    />
  );
}

export function DescriptionField({
  task,
  onPatch,
}: {
  task: TaskRow;
  onPatch: (p: Patch) => void;
}) {
  return (
    <CommitInput
      label="Description"
      className="inline-input desc-input"
      multiline
      value={task.description ?? ''}
      onCommit={(v) => onPatch({ description: v })}
    />
  );
}

/** The property grid of a task: every editable field, each saving on its own. */
export function TaskProperties({
  task,
  users,
  customFields,
  onPatch,
}: {
  task: TaskRow;
  users: readonly UserRef[];
  customFields: readonly CustomField[];
  onPatch: (p: Patch) => void;
}) {
  const owners = (task.owners ?? []).map((o) => o.userId);
  const statuses = mergeNames(baseStatuses, [task.status]);
  const priorities = mergeNames(basePriorities, [task.priority]);
  return (
    <dl className="props">
      <dt>
        <label htmlFor="f-status">Status</label>
      </dt>
      <dd>
        <select
          id="f-status"
          className="input select"
          value={task.status ?? ''}
          onChange={(e) => onPatch({ status: e.target.value })}
        >
          {task.status ? null : <option value="">—</option>}
          {statuses.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </dd>
      <dt>
        <label htmlFor="f-priority">Priority</label>
      </dt>
      <dd>
        <select
          id="f-priority"
          className="input select"
          value={task.priority ?? ''}
          onChange={(e) => onPatch({ priority: e.target.value })}
        >
          {task.priority ? null : <option value="">—</option>}
          {priorities.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </dd>
      <dt id="f-owners">Owners</dt>
      <dd>
        <fieldset className="owners" aria-labelledby="f-owners">
          {users.map((u) => (
            <label key={u.userId} className={`chip${owners.includes(u.userId) ? ' is-on' : ''}`}>
              <input
                type="checkbox"
                className="sr-only"
                checked={owners.includes(u.userId)}
                onChange={() =>
                  onPatch({
                    owners: owners.includes(u.userId)
                      ? owners.filter((x) => x !== u.userId)
                      : [...owners, u.userId],
                  })
                }
              />
              {userName(u)}
            </label>
          ))}
        </fieldset>
      </dd>
      <dt>
        <label htmlFor="f-start">Start</label>
      </dt>
      <dd>
        <input
          id="f-start"
          type="date"
          className="input"
          value={isoToDateInput(task.startDate)}
          onChange={(e) => onPatch({ startDate: dateInputToIso(e.target.value) })}
        />
      </dd>
      <dt>
        <label htmlFor="f-due">Due</label>
      </dt>
      <dd>
        <input
          id="f-due"
          type="date"
          className="input"
          value={isoToDateInput(task.dueDate)}
          onChange={(e) => onPatch({ dueDate: dateInputToIso(e.target.value) })}
        />
      </dd>
      <dt>
        <label htmlFor="f-completion">Completion</label>
      </dt>
      <dd className="row">
        <input
          id="f-completion"
          type="range"
          min={0}
          max={100}
          step={5}
          value={task.completion ?? 0}
          onChange={(e) => onPatch({ completion: Number(e.target.value) })}
        />
        <span className="muted">{task.completion ?? 0}%</span>
      </dd>
      <dt>
        <label htmlFor="f-tags">Tags</label>
      </dt>
      <dd>
        <TagsInput id="f-tags" tags={task.tags ?? []} onChange={(tags) => onPatch({ tags })} />
      </dd>
      {customFields.map((f) => (
        <CustomFieldRow key={f.taskCustomFieldId} task={task} field={f} onPatch={onPatch} />
      ))}
    </dl>
  );
}

function TagsInput({
  id,
  tags,
  onChange,
}: {
  id: string;
  tags: readonly string[];
  onChange: (t: string[]) => void;
}) {
  const text = tags.join(', ');
  const [draft, setDraft] = useState(text);
  useEffect(() => setDraft(text), [text]);
  return (
    <input
      id={id}
      className="input"
      value={draft}
      placeholder="comma, separated"
      onChange={(e) => setDraft(e.target.value)}
      onBlur={() => {
        const next = [
          ...new Set(
            draft
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean),
          ),
        ];
        if (next.join(', ') !== text) onChange(next);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.currentTarget.blur();
      }}
    />
  );
}

function CustomFieldRow({
  task,
  field,
  onPatch,
}: {
  task: TaskRow;
  field: CustomField;
  onPatch: (p: Patch) => void;
}) {
  const held = task.customFields?.find((c) => c.taskCustomFieldId === field.taskCustomFieldId);
  const value = held?.fieldValue?.[0]?.value;
  const id = `cf-${field.taskCustomFieldId}`;
  const set = (v: string | number | boolean | null) =>
    onPatch({ customFieldValues: [{ taskCustomFieldId: field.taskCustomFieldId, value: v }] });
  const type = field.fieldType.toUpperCase();
  return (
    <>
      <dt>
        <label htmlFor={id}>{field.fieldName}</label>
      </dt>
      <dd>
        {type === 'DATE' ? (
          <input
            id={id}
            type="date"
            className="input"
            value={typeof value === 'number' ? msToDateInput(value) : ''}
            onChange={(e) => set(dateInputToMs(e.target.value) ?? null)}
          />
        ) : type === 'CHECKBOX' ? (
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            onChange={(e) => set(e.target.checked)}
          />
        ) : isDropdown(field) ? (
          <select
            id={id}
            className="input select"
            value={String(optionOf(field, value)?.optionId ?? '')}
            // The option's id, as the service stores it.
            onChange={(e) => set(e.target.value ? Number(e.target.value) : null)}
          >
            <option value="">—</option>
            {field.customFieldOption?.map((o) => (
              <option key={o.optionId} value={o.optionId}>
                {o.optionName}
              </option>
            ))}
          </select>
        ) : (
          <CommitInput
            id={id}
            label={field.fieldName}
            className="input"
            value={value === undefined || value === null ? '' : String(value)}
            onCommit={(v) => set(type === 'NUMBER' ? (v === '' ? null : Number(v)) : v || null)}
          />
        )}
      </dd>
    </>
  );
}
