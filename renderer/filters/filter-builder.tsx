import { useId } from 'react';
import type { UserRef } from '../../shared/api/common';
import type { CustomField } from '../../shared/api/custom-fields';
import type { CustomFieldConditionName } from '../../shared/filters/custom-fields';
import { isDropdown } from '../lib/custom-values';
import { dateInputToMs, msToDateInput } from '../lib/dates';
import { userName } from '../lib/format';
import { Button, IconButton } from '../ui/button';
import { IconPlus, IconX } from '../ui/icons';
import {
  arity,
  type ConditionInput,
  conditionLabels,
  conditionsFor,
  type FilterValue,
  isDateField,
  withCondition,
} from './filter-model';

export interface FilterBuilderProps {
  value: FilterValue;
  onChange: (next: FilterValue) => void;
  statuses: readonly string[];
  priorities: readonly string[];
  tags: readonly string[];
  users: readonly UserRef[];
  customFields: readonly CustomField[];
}

type Flag = 'overdue' | 'dueDateSet' | 'pending' | 'upcoming';
type DateKey = 'startDate' | 'dueDate' | 'createdTime' | 'modifiedTime';

const flags: { key: Flag; label: string }[] = [
  { key: 'overdue', label: 'Overdue' },
  { key: 'dueDateSet', label: 'Has a due date' },
  { key: 'pending', label: 'Open (not completed)' },
  { key: 'upcoming', label: 'Upcoming' },
];
const dates: { key: DateKey; label: string }[] = [
  { key: 'startDate', label: 'Start date' },
  { key: 'dueDate', label: 'Due date' },
  { key: 'createdTime', label: 'Created on' },
  { key: 'modifiedTime', label: 'Modified on' },
];

const toggle = <T,>(list: readonly T[] | undefined, item: T) =>
  list?.includes(item) ? list.filter((x) => x !== item) : [...(list ?? []), item];

/**
 * Every task filter of the spec in one panel. Changes apply as they are made (the list
 * re-reads from the replica in milliseconds), so there is no Apply button to forget.
 */
export function FilterBuilder(props: FilterBuilderProps) {
  const { value, onChange } = props;
  const set = (patch: Partial<FilterValue>) => onChange({ ...value, ...patch });
  const titleId = useId();
  const conditions = value.customFields ?? [];

  return (
    <section className="filter-builder" aria-label="Filters">
      <div className="fb-grid">
        <label className="fb-label" htmlFor={titleId}>
          Title contains
        </label>
        <input
          id={titleId}
          className="input"
          value={value.title ?? ''}
          placeholder="Any title"
          onChange={(e) => set({ title: e.target.value || undefined })}
        />
      </div>

      <ChoiceGroup
        legend="Status"
        options={props.statuses.map((s) => ({ value: s, label: s }))}
        selected={value.status ?? []}
        onToggle={(s) => set({ status: toggle(value.status, s) })}
      />
      <ChoiceGroup
        legend="Priority"
        options={props.priorities.map((s) => ({ value: s, label: s }))}
        selected={value.priority ?? []}
        onToggle={(s) => set({ priority: toggle(value.priority, s) })}
      />
      <ChoiceGroup
        legend="Tags"
        options={props.tags.map((s) => ({ value: s, label: s }))}
        selected={value.tags ?? []}
        onToggle={(s) => set({ tags: toggle(value.tags, s) })}
      />
      <ChoiceGroup
        legend="Owners"
        options={props.users.map((u) => ({ value: String(u.userId), label: userName(u) }))}
        selected={(value.owners ?? []).map(String)}
        onToggle={(s) => set({ owners: toggle(value.owners, Number(s)) })}
      />
      <ChoiceGroup
        legend="Created by"
        options={props.users.map((u) => ({ value: String(u.userId), label: userName(u) }))}
        selected={(value.creators ?? []).map(String)}
        onToggle={(s) => set({ creators: toggle(value.creators, Number(s)) })}
      />

      <fieldset className="fb-fieldset">
        <legend>Dates (same day, UTC)</legend>
        <div className="fb-dates">
          {dates.map((d) => (
            <label key={d.key} className="fb-date">
              <span>{d.label}</span>
              <input
                type="date"
                className="input"
                value={msToDateInput(value[d.key])}
                onChange={(e) => set({ [d.key]: dateInputToMs(e.target.value) })}
              />
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className="fb-fieldset">
        <legend>State</legend>
        <div className="fb-flags">
          {flags.map((f) => (
            <label key={f.key} className="fb-flag">
              <span>{f.label}</span>
              <select
                className="input select"
                value={value[f.key] === undefined ? 'any' : value[f.key] ? 'yes' : 'no'}
                onChange={(e) =>
                  set({
                    [f.key]: e.target.value === 'any' ? undefined : e.target.value === 'yes',
                  })
                }
              >
                <option value="any">Any</option>
                <option value="yes">Yes</option>
                <option value="no">No</option>
              </select>
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className="fb-fieldset">
        <legend>Custom fields</legend>
        {conditions.length === 0 ? (
          <p className="muted fb-empty">No custom field conditions.</p>
        ) : (
          <ul className="fb-conditions">
            {conditions.map((c, i) => (
              <ConditionRow
                // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
                key={i}
                index={i}
                condition={c}
                fields={props.customFields}
                onChange={(next) =>
                  set({ customFields: conditions.map((x, j) => (j === i ? next : x)) })
                }
                onRemove={() => set({ customFields: conditions.filter((_, j) => j !== i) })}
              />
            ))}
          </ul>
        )}
        <Button
          size="sm"
          icon={<IconPlus />}
          disabled={props.customFields.length === 0}
          onClick={() => {
            const field = props.customFields[0];
            if (!field) return;
            const first = conditionsFor(field)[0] ?? 'IS';
            set({
              customFields: [
                ...conditions,
                withCondition({ field: field.fieldName, condition: first, value: [] }, first),
              ],
            });
          }}
        >
          Add condition
        </Button>
      </fieldset>

      <div className="fb-footer">
        <Button size="sm" variant="ghost" onClick={() => onChange({})}>
          Clear all filters
        </Button>
      </div>
    </section>
  );
}

function ChoiceGroup({
  legend,
  options,
  selected,
  onToggle,
}: {
  legend: string;
  options: { value: string; label: string }[];
  selected: readonly string[];
  onToggle: (value: string) => void;
}) {
  if (options.length === 0) return null;
  return (
    <fieldset className="fb-fieldset">
      <legend>{legend}</legend>
      <div className="fb-chips">
        {options.map((o) => (
          <label key={o.value} className={`chip${selected.includes(o.value) ? ' is-on' : ''}`}>
            <input
              type="checkbox"
              className="sr-only"
              checked={selected.includes(o.value)}
              onChange={() => onToggle(o.value)}
            />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function ConditionRow({
  index,
  condition,
  fields,
  onChange,
  onRemove,
}: {
  index: number;
  condition: ConditionInput;
  fields: readonly CustomField[];
  onChange: (c: ConditionInput) => void;
  onRemove: () => void;
}) {
  const field = fields.find((f) => f.fieldName === condition.field);
  const date = isDateField(field);
  const names = conditionsFor(field);
  const n = arity(condition.condition);
  const values = condition.value ?? [];
  const n1 = `Condition ${index + 1}`;
  const setValue = (i: number, v: string) => {
    const next = [...values];
    next[i] = date ? (dateInputToMs(v) ?? '') : v;
    onChange({ ...condition, value: next });
  };
  return (
    <li className="fb-condition">
      <select
        aria-label={`${n1}: field`}
        className="input select"
        value={condition.field}
        onChange={(e) => {
          const f = fields.find((x) => x.fieldName === e.target.value);
          const allowed = conditionsFor(f);
          const keep = allowed.includes(
            condition.condition.toUpperCase() as CustomFieldConditionName,
          );
          const next = { ...condition, field: e.target.value };
          onChange(
            keep && isDateField(f) === date
              ? next
              : withCondition({ ...next, value: [] }, allowed[0] ?? 'IS'),
          );
        }}
      >
        {fields.map((f) => (
          <option key={f.taskCustomFieldId} value={f.fieldName}>
            {f.fieldName}
          </option>
        ))}
      </select>
      <select
        aria-label={`${n1}: condition`}
        className="input select"
        value={condition.condition}
        onChange={(e) => onChange(withCondition(condition, e.target.value))}
      >
        {names.map((c) => (
          <option key={c} value={c}>
            {conditionLabels[c]}
          </option>
        ))}
      </select>
      {Array.from({ length: n }, (_, i) => {
        const raw = values[i];
        const label = `${n1}: ${n === 2 ? (i === 0 ? 'from' : 'to') : 'value'}`;
        return date ? (
          <input
            // biome-ignore lint/suspicious/noArrayIndexKey: at most two fixed inputs
            key={i}
            type="date"
            aria-label={label}
            className="input"
            value={typeof raw === 'number' ? msToDateInput(raw) : ''}
            onChange={(e) => setValue(i, e.target.value)}
          />
        ) : field && isDropdown(field) ? (
          // Text conditions compare a dropdown's option name: pick one of them.
          <select
            // biome-ignore lint/suspicious/noArrayIndexKey: at most two fixed inputs
            key={i}
            aria-label={label}
            className="input select"
            value={raw === undefined ? '' : String(raw)}
            onChange={(e) => setValue(i, e.target.value)}
          >
            <option value="" />
            {field.customFieldOption?.map((o) => (
              <option key={o.optionId} value={o.optionName}>
                {o.optionName}
              </option>
            ))}
          </select>
        ) : (
          <input
            // biome-ignore lint/suspicious/noArrayIndexKey: at most two fixed inputs
            key={i}
            aria-label={label}
            className="input"
            value={raw === undefined ? '' : String(raw)}
            onChange={(e) => setValue(i, e.target.value)}
          />
        );
      })}
      <IconButton label={`Remove condition ${index + 1}`} icon={<IconX />} onClick={onRemove} />
    </li>
  );
}
