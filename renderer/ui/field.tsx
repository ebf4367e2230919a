import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';

interface Labelled {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  /** Keeps the label for screen readers but hides it (dense rows). */
  hideLabel?: boolean;
}

function Frame({
  id,
  label,
  hint,
  error,
  hideLabel,
  children,
}: Labelled & { id: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'field-label'}>
        {label}
      </label>
      {children}
      {error ? (
        <div id={`${id}-err`} className="field-error" role="alert">
          {error}
        </div>
      ) : hint ? (
        <div id={`${id}-hint`} className="field-hint">
          {hint}
        </div>
      ) : null}
    </div>
  );
}

const describedBy = (id: string, l: Labelled) =>
  l.error ? `${id}-err` : l.hint ? `${id}-hint` : undefined;

export function TextField({
  label,
  hint,
  error,
  hideLabel,
  id: given,
  className,
  ...rest
}: Labelled & InputHTMLAttributes<HTMLInputElement>) {
  const auto = useId();
  const id = given ?? auto;
  return (
    <Frame id={id} label={label} hint={hint} error={error} hideLabel={hideLabel}>
      <input
        id={id}
        className={`input${className ? ` ${className}` : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { label, hint, error })}
        {...rest}
      />
    </Frame>
  );
}

export function TextArea({
  label,
  hint,
  error,
  hideLabel,
  id: given,
  ...rest
}: Labelled & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const auto = useId();
  const id = given ?? auto;
  return (
    <Frame id={id} label={label} hint={hint} error={error} hideLabel={hideLabel}>
      <textarea
        id={id}
        className="input textarea"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { label, hint, error })}
        {...rest}
      />
    </Frame>
  );
}

export interface Option {
  value: string;
  label: string;
}

export function SelectField({
  label,
  hint,
  error,
  hideLabel,
  options,
  id: given,
  ...rest
}: Labelled & SelectHTMLAttributes<HTMLSelectElement> & { options: readonly Option[] }) {
  const auto = useId();
  const id = given ?? auto;
  return (
    <Frame id={id} label={label} hint={hint} error={error} hideLabel={hideLabel}>
      <select id={id} className="input select" {...rest}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}
