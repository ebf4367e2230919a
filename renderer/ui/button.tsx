import type { ButtonHTMLAttributes, ReactNode } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: 'sm' | 'md';
  icon?: ReactNode;
  /** A keyboard hint shown after the label (e.g. "C"). */
  shortcut?: string;
}

export function Button({
  variant = 'secondary',
  size = 'md',
  icon,
  shortcut,
  className,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={`btn btn-${variant} btn-${size}${className ? ` ${className}` : ''}`}
      {...rest}
    >
      {icon}
      {children}
      {shortcut ? (
        <span className="kbd" aria-hidden="true">
          {shortcut}
        </span>
      ) : null}
    </button>
  );
}

/** A square button whose only content is an icon: the label is required for screen readers. */
export function IconButton({
  label,
  icon,
  className,
  ...rest
}: Omit<ButtonProps, 'children' | 'icon'> & { label: string; icon: ReactNode }) {
  return (
    <Button
      variant="ghost"
      size="sm"
      aria-label={label}
      title={label}
      className={`btn-icon${className ? ` ${className}` : ''}`}
      icon={icon}
      {...rest}
    />
  );
}
