/**
 * The controls of one date rule or number comparison: a choice of comparison, then as many
 * inputs as it takes. Used for built-in columns (due date, Done %) and custom-field rows.
 */
import type { DateColumn } from '../../shared/filters/ranges';
import {
  type DateInput,
  type DateOp,
  dateOpLabels,
  daysOf,
  type NumberInput,
  type NumberOp,
  numberOpLabels,
  numberOps,
  numbersOf,
  withDateOp,
  withDay,
  withNumber,
  withNumberOp,
} from './range-model';

/** "from"/"to" for a pair, else `single`. */
const inputName = (count: number, i: number, single: string) =>
  count === 2 ? (i === 0 ? 'from' : 'to') : single;

/** The choice of comparison; "" is the clearing choice, offered when `clearLabel` is given. */
function OpSelect<Op extends string>(props: {
  label: string;
  value: Op | undefined;
  ops: readonly Op[];
  labels: Record<Op, string>;
  clearLabel?: string;
  onChange: (op: Op | '') => void;
}) {
  return (
    <select
      aria-label={props.label}
      className="input select fb-op"
      value={props.value ?? ''}
      onChange={(e) => props.onChange(e.target.value as Op | '')}
    >
      {props.clearLabel ? <option value="">{props.clearLabel}</option> : null}
      {props.ops.map((op) => (
        <option key={op} value={op}>
          {props.labels[op]}
        </option>
      ))}
    </select>
  );
}

export interface DateRuleProps {
  /** Names the controls for screen readers: "Due date", "Condition 2". */
  label: string;
  rule: DateInput | undefined;
  /** What a first choice applies to, while there is no rule yet. */
  target: { column: DateColumn } | { field: string };
  ops: readonly DateOp[];
  /** Offer "Any time", which removes the rule. */
  clearable?: boolean;
  onChange: (rule: DateInput | undefined) => void;
}

export function DateRuleControls({ label, rule, target, ops, clearable, onChange }: DateRuleProps) {
  const days = rule ? daysOf(rule) : [];
  return (
    <>
      <OpSelect<DateOp>
        label={`${label}: when`}
        value={rule?.op}
        ops={ops}
        labels={dateOpLabels}
        clearLabel={clearable ? 'Any time' : undefined}
        onChange={(op) => onChange(op === '' ? undefined : withDateOp(rule ?? target, op))}
      />
      {days.length > 0 ? (
        <div className="fb-values">
          {days.map((day, i) => (
            <input
              // biome-ignore lint/suspicious/noArrayIndexKey: at most two fixed inputs
              key={i}
              type="date"
              className="input fb-value"
              aria-label={`${label}: ${inputName(days.length, i, 'day')}`}
              value={day}
              onChange={(e) => rule && onChange(withDay(rule, i, e.target.value))}
            />
          ))}
        </div>
      ) : null}
    </>
  );
}

export interface NumberRuleProps {
  label: string;
  rule: NumberInput | undefined;
  target: { column: 'completion' } | { field: string };
  clearable?: boolean;
  onChange: (rule: NumberInput | undefined) => void;
}

export function NumberRuleControls({ label, rule, target, clearable, onChange }: NumberRuleProps) {
  const values = rule ? numbersOf(rule) : [];
  return (
    <>
      <OpSelect<NumberOp>
        label={`${label}: comparison`}
        value={rule?.op}
        ops={numberOps}
        labels={numberOpLabels}
        clearLabel={clearable ? 'Any' : undefined}
        onChange={(op) => onChange(op === '' ? undefined : withNumberOp(rule ?? target, op))}
      />
      {values.length > 0 ? (
        <div className="fb-values">
          {values.map((value, i) => (
            <input
              // biome-ignore lint/suspicious/noArrayIndexKey: at most two fixed inputs
              key={i}
              type="number"
              step="any"
              inputMode="decimal"
              className="input fb-value"
              aria-label={`${label}: ${inputName(values.length, i, 'value')}`}
              value={Number.isFinite(value) ? value : ''}
              onChange={(e) =>
                rule &&
                onChange(
                  withNumber(rule, i, e.target.value === '' ? Number.NaN : Number(e.target.value)),
                )
              }
            />
          ))}
        </div>
      ) : null}
    </>
  );
}
