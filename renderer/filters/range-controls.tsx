/**
 * The controls of one date rule or number comparison: a choice of comparison, then as many
 * inputs as it takes. Used for built-in columns (due date, Done %) and custom-field rows.
 */
import {
  type DateColumnKey,
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

export interface DateRuleProps {
  /** Names the controls for screen readers: "Due date", "Condition 2". */
  label: string;
  rule: DateInput | undefined;
  /** What a first choice applies to, while there is no rule yet. */
  target: { column: DateColumnKey } | { field: string };
  ops: readonly DateOp[];
  /** Offer "Any time", which removes the rule. */
  clearable?: boolean;
  onChange: (rule: DateInput | undefined) => void;
}

export function DateRuleControls({ label, rule, target, ops, clearable, onChange }: DateRuleProps) {
  const days = rule ? daysOf(rule) : [];
  return (
    <>
      <select
        aria-label={`${label}: when`}
        className="input select fb-op"
        value={rule?.op ?? ''}
        onChange={(e) => {
          const op = e.target.value as DateOp | '';
          onChange(op === '' ? undefined : withDateOp(rule ?? target, op));
        }}
      >
        {clearable ? <option value="">Any time</option> : null}
        {ops.map((op) => (
          <option key={op} value={op}>
            {dateOpLabels[op]}
          </option>
        ))}
      </select>
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
      <select
        aria-label={`${label}: comparison`}
        className="input select fb-op"
        value={rule?.op ?? ''}
        onChange={(e) => {
          const op = e.target.value as NumberOp | '';
          onChange(op === '' ? undefined : withNumberOp(rule ?? target, op));
        }}
      >
        {clearable ? <option value="">Any</option> : null}
        {numberOps.map((op) => (
          <option key={op} value={op}>
            {numberOpLabels[op]}
          </option>
        ))}
      </select>
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
