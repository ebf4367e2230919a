import * as Radix from '@radix-ui/react-dialog';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { create } from 'zustand';
import { Button } from './button';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children?: ReactNode;
  footer?: ReactNode;
  /** Read after the title, as the dialog's description (a confirmation's question). */
  description?: ReactNode;
  /** `alertdialog` for confirmations that interrupt. */
  role?: 'dialog' | 'alertdialog';
  wide?: boolean;
}

/**
 * Where focus goes when a modal opens: the element marked `data-autofocus`, else Radix's
 * first tabbable one.
 */
const focusMarked = (root: HTMLElement | null, e: Event) => {
  const marked = root?.querySelector<HTMLElement>('[data-autofocus]');
  if (!marked) return;
  e.preventDefault();
  marked.focus();
};

/**
 * Gives focus back to what had it when the dialog opened. Radix returns it to its Trigger,
 * and our dialogs open from state (a shortcut, a menu item), not from a Trigger.
 */
function useReturnFocus() {
  const previous = useRef<HTMLElement | null>(null);
  return {
    remember: () => {
      previous.current =
        document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    restore: (e: Event) => {
      const el = previous.current;
      previous.current = null;
      if (el?.isConnected) {
        e.preventDefault();
        el.focus();
      }
    },
  };
}

/**
 * The open modals' surfaces, the last opened last. While one is open, Radix hides the rest of
 * the page from screen readers, stops pointer events outside it and holds focus inside: what
 * must stay reachable then (ui/toast.tsx) renders inside the top one.
 */
const useModalLayers = create<{ layers: HTMLElement[] }>(() => ({ layers: [] }));

/** The surface of the modal on top, or null when none is open. */
export const useTopModalLayer = (): HTMLElement | null =>
  useModalLayers((s) => s.layers.at(-1) ?? null);

/** Lists a modal's surface while it is mounted. */
function useModalLayer() {
  const [layer, setLayer] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!layer) return;
    useModalLayers.setState((s) => ({ layers: [...s.layers, layer] }));
    return () => useModalLayers.setState((s) => ({ layers: s.layers.filter((l) => l !== layer) }));
  }, [layer]);
  return setLayer;
}

export interface ModalProps {
  open: boolean;
  /** Names the modal; shown as its heading unless `hideTitle`. */
  title: string;
  hideTitle?: boolean;
  onClose: () => void;
  role?: 'dialog' | 'alertdialog';
  className: string;
  children: ReactNode;
}

/**
 * A modal on Radix Dialog: focus held inside and given back on close, Escape or a click
 * beside it closes it (not an alert dialog: that asks for an answer), the rest of the page
 * hidden from screen readers while it is open, the title naming it. Toasts show inside the
 * top modal, so they can be heard, clicked and reached with Tab while it is open.
 */
export function Modal({
  open,
  title,
  hideTitle,
  onClose,
  role = 'dialog',
  className,
  children,
}: ModalProps) {
  const content = useRef<HTMLDivElement | null>(null);
  const focus = useReturnFocus();
  const setLayer = useModalLayer();
  return (
    <Radix.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
    >
      <Radix.Portal>
        {/* The overlay holds the surface so that its flex box places it. */}
        <Radix.Overlay className="backdrop">
          <Radix.Content
            ref={(el) => {
              content.current = el;
              setLayer(el);
            }}
            role={role}
            aria-modal="true"
            className={className}
            onOpenAutoFocus={(e) => {
              focus.remember();
              focusMarked(content.current, e);
            }}
            onCloseAutoFocus={focus.restore}
            onPointerDownOutside={(e) => {
              if (role === 'alertdialog') e.preventDefault();
            }}
          >
            <Radix.Title className={hideTitle ? 'sr-only' : 'dialog-title'}>{title}</Radix.Title>
            {children}
          </Radix.Content>
        </Radix.Overlay>
      </Radix.Portal>
    </Radix.Root>
  );
}

/** A titled modal with a body and a footer of buttons. */
export function Dialog({
  open,
  title,
  onClose,
  children,
  footer,
  description,
  role = 'dialog',
  wide,
}: DialogProps) {
  return (
    <Modal
      open={open}
      title={title}
      onClose={onClose}
      role={role}
      className={`dialog${wide ? ' dialog-wide' : ''}`}
    >
      <div className="dialog-body">
        {description ? <Radix.Description>{description}</Radix.Description> : null}
        {children}
      </div>
      {footer ? <div className="dialog-footer">{footer}</div> : null}
    </Modal>
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
      description={message}
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
    />
  );
}
