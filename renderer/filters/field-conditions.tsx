/**
 * The custom-field part of the filter panel: one row per condition, each a field and what to
 * compare it with. Text and dropdown fields take the spec's text conditions, date fields day
 * rules (today, this week, between two days…), number fields comparisons (>, ≤, between…).
 */
import type { CustomField } from '../../shared/api/custom-fields';
import { conditionArity } from '../../shared/filters/custom-fields';
import { isDropdown } from '../lib/custom-values';
import { dateInputToMs, msToDateInput } from '../lib/dates';
import { Button, IconButton } from '../ui/button';
import { IconPlus, IconX } from '../ui/icons';
import {
  addFieldRow,
  type ConditionInput,
  changeRowField,
  conditionLabels,
  conditionsFor,
  type FieldRow,
  type FilterValue,
  fieldRows,
  isDateField,
  removeFieldRow,
  setFieldRow,
  withCondition,
} from './filter-model';
import { DateRuleControls, NumberRuleControls } from './range-controls';
import { dayOps } from './range-model';

export function FieldConditions({
  value,
  fields,
  onChange,
}: {
  value: FilterValue;
  fields: readonly CustomField[];
  onChange: (next: FilterValue) => void;
}) {
  const rows = fieldRows(value);
  return (
    <fieldset className="fb-fieldset">
      <legend>Custom fields</legend>
      {rows.length === 0 ? (
        <p className="muted fb-empty">No custom field conditions.</p>
      ) : (
        <ul className="fb-conditions">
          {rows.map((row, i) => (
            <FieldConditionRow
              key={`${row.kind}-${row.index}`}
              label={`Condition ${i + 1}`}
              row={row}
              value={value}
              fields={fields}
              onChange={onChange}
            />
          ))}
        </ul>
      )}
      <Button
        size="sm"
        icon={<IconPlus />}
        disabled={fields.length === 0}
        onClick={() => {
          const field = fields[0];
          if (field) onChange(addFieldRow(value, field));
        }}
      >
        Add condition
      </Button>
    </fieldset>
  );
}

function FieldConditionRow({
  label,
  row,
  value,
  fields,
  onChange,
}: {
  label: string;
  row: FieldRow;
  value: FilterValue;
  fields: readonly CustomField[];
  onChange: (next: FilterValue) => void;
}) {
  const entry =
    row.kind === 'text'
      ? value.customFields?.[row.index]
      : row.kind === 'date'
        ? value.dates?.[row.index]
        : value.numbers?.[row.index];
  const fieldName = entry && 'field' in entry ? (entry.field ?? '') : '';
  return (
    <li className="fb-condition">
      <select
        aria-label={`${label}: field`}
        className="input select fb-field"
        value={fieldName}
        onChange={(e) => {
          const f = fields.find((x) => x.fieldName === e.target.value);
          if (f) onChange(changeRowField(value, row, f));
        }}
      >
        {fields.map((f) => (
          <option key={f.taskCustomFieldId} value={f.fieldName}>
            {f.fieldName}
          </option>
        ))}
      </select>
      {row.kind === 'date' && value.dates?.[row.index] ? (
        <DateRuleControls
          label={label}
          rule={value.dates[row.index]}
          target={{ field: fieldName }}
          ops={dayOps}
          onChange={(r) => r && onChange(setFieldRow(value, row, r))}
        />
      ) : row.kind === 'number' && value.numbers?.[row.index] ? (
        <NumberRuleControls
          label={label}
          rule={value.numbers[row.index]}
          target={{ field: fieldName }}
          onChange={(r) => r && onChange(setFieldRow(value, row, r))}
        />
      ) : row.kind === 'text' && value.customFields?.[row.index] ? (
        <TextConditionControls
          label={label}
          condition={value.customFields[row.index] as ConditionInput}
          field={fields.find((f) => f.fieldName === fieldName)}
          onChange={(c) => onChange(setFieldRow(value, row, c))}
        />
      ) : null}
      <IconButton
        label={`Remove ${label.toLowerCase()}`}
        icon={<IconX />}
        onClick={() => onChange(removeFieldRow(value, row))}
      />
    </li>
  );
}

/**
 * The spec's conditions: text compared on text fields, an option picked on dropdowns, and on
 * date fields the epoch-ms conditions of filters saved before day rules (kept as they were).
 */
function TextConditionControls({
  label,
  condition,
  field,
  onChange,
}: {
  label: string;
  condition: ConditionInput;
  field: CustomField | undefined;
  onChange: (c: ConditionInput) => void;
}) {
  const date = isDateField(field);
  const n = conditionArity(condition.condition);
  const values = condition.value ?? [];
  const setValue = (i: number, v: string) => {
    const next = [...values];
    next[i] = date ? (dateInputToMs(v) ?? '') : v;
    onChange({ ...condition, value: next });
  };
  return (
    <>
      <select
        aria-label={`${label}: condition`}
        className="input select fb-op"
        value={condition.condition}
        onChange={(e) => onChange(withCondition(condition, e.target.value))}
      >
        {conditionsFor(field).map((c) => (
          <option key={c} value={c}>
            {conditionLabels[c]}
          </option>
        ))}
      </select>
      {Array.from({ length: n }, (_, i) => {
        const raw = values[i];
        const name = `${label}: ${n === 2 ? (i === 0 ? 'from' : 'to') : 'value'}`;
        const key = `v${i}`;
        if (date)
          return (
            <input
              key={key}
              type="date"
              aria-label={name}
              className="input fb-value"
              value={typeof raw === 'number' ? msToDateInput(raw) : ''}
              onChange={(e) => setValue(i, e.target.value)}
            />
          );
        if (field && isDropdown(field))
          // Text conditions compare a dropdown's option name: pick one of them.
          return (
            <select
              key={key}
              aria-label={name}
              className="input select fb-value"
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
          );
        return (
          <input
            key={key}
            aria-label={name}
            className="input fb-value"
            value={raw === undefined ? '' : String(raw)}
            onChange={(e) => setValue(i, e.target.value)}
          />
        );
      })}
    </>
  );
}
