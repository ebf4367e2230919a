import { type ReactNode, useId } from 'react';
import type { UserRef } from '../../shared/api/common';
import type { CustomField } from '../../shared/api/custom-fields';
import { type DateColumn, momentColumns } from '../../shared/filters/ranges';
import { userName } from '../lib/format';
import { Button } from '../ui/button';
import { FieldConditions } from './field-conditions';
import type { FilterValue } from './filter-model';
import { DateRuleControls, NumberRuleControls } from './range-controls';
import {
  columnDateRule,
  columnNumberRule,
  type DateOp,
  dayOps,
  momentOps,
  setColumnDateRule,
  setColumnNumberRule,
} from './range-model';
import '../styles/filters.css';

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

const flags: { key: Flag; label: string }[] = [
  { key: 'overdue', label: 'Overdue' },
  { key: 'dueDateSet', label: 'Has a due date' },
  { key: 'pending', label: 'Open (not completed)' },
  { key: 'upcoming', label: 'Upcoming' },
];
const dates: { key: DateColumn; label: string }[] = [
  { key: 'dueDate', label: 'Due date' },
  { key: 'startDate', label: 'Start date' },
  { key: 'createdTime', label: 'Created' },
  { key: 'modifiedTime', label: 'Last changed' },
];
/** A moment (made, changed) is always set and always past: fewer comparisons fit it. */
const opsOf = (column: DateColumn): readonly DateOp[] =>
  momentColumns.includes(column) ? momentOps : dayOps;

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
        <legend>Dates</legend>
        <div className="fb-ranges">
          {dates.map((d) => (
            <RangeRow key={d.key} label={d.label}>
              <DateRuleControls
                label={d.label}
                rule={columnDateRule(value, d.key)}
                target={{ column: d.key }}
                ops={opsOf(d.key)}
                clearable
                onChange={(rule) => onChange(setColumnDateRule(value, d.key, rule))}
              />
            </RangeRow>
          ))}
        </div>
      </fieldset>

      <fieldset className="fb-fieldset">
        <legend>Progress</legend>
        <RangeRow label="Done %">
          <NumberRuleControls
            label="Done %"
            rule={columnNumberRule(value, 'completion')}
            target={{ column: 'completion' }}
            clearable
            onChange={(rule) => onChange(setColumnNumberRule(value, 'completion', rule))}
          />
        </RangeRow>
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

      <FieldConditions value={value} fields={props.customFields} onChange={onChange} />

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

/** A built-in column's label over its controls, named as a group for screen readers. */
function RangeRow({ label, children }: { label: string; children: ReactNode }) {
  const id = useId();
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset per row would repeat the legend style
    <div className="fb-range" role="group" aria-labelledby={id}>
      <span id={id} className="fb-range-label">
        {label}
      </span>
      <div className="fb-range-controls">{children}</div>
    </div>
  );
}
