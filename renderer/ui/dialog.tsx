import { type ReactNode, useId, useRef } from 'react';
import { Button } from './button';
import { useFocusTrap } from './focus-trap';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** `alertdialog` for confirmations that interrupt. */
  role?: 'dialog' | 'alertdialog';
  wide?: boolean;
}

/** A modal: focus trapped inside, Escape or a click on the backdrop closes it. */
export function Dialog({
  open,
  title,
  onClose,
  children,
  footer,
  role = 'dialog',
  wide,
}: DialogProps) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useFocusTrap(ref, open);
  if (!open) return null;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click beside the dialog is a mouse convenience; Escape is the keyboard path
    <div
      className="backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: role is dialog or alertdialog, both modal */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the role is given, only not as a literal */}
      <div
        ref={ref}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`dialog${wide ? ' dialog-wide' : ''}`}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        <div className="dialog-body">{children}</div>
        {footer ? <div className="dialog-footer">{footer}</div> : null}
      </div>
    </div>
  );
}

export interface ConfirmProps {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A destructive action's last word: the safe choice has the focus. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  onConfirm,
  onCancel,
}: ConfirmProps) {
  return (
    <Dialog
      open={open}
      title={title}
      role="alertdialog"
      onClose={onCancel}
      footer={
        <>
          <Button onClick={onCancel} data-autofocus>
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <p>{message}</p>
    </Dialog>
  );
}
