import { createPortal } from 'react-dom';
import { create } from 'zustand';
import { IconButton } from './button';
import { useTopModalLayer } from './dialog';
import { IconX } from './icons';

export type ToastTone = 'info' | 'success' | 'error';

export interface Toast {
  id: number;
  tone: ToastTone;
  message: string;
  action?: { label: string; run: () => void };
}

interface ToastState {
  toasts: Toast[];
  push: (t: Omit<Toast, 'id'>, ttlMs?: number) => number;
  dismiss: (id: number) => void;
  /** A new screen starts without the last one's messages. */
  clear: () => void;
}

let seq = 0;

export const useToasts = create<ToastState>((set, get) => ({
  toasts: [],
  push: (t, ttlMs = t.tone === 'error' ? 8_000 : 4_000) => {
    const id = ++seq;
    set({ toasts: [...get().toasts.slice(-3), { ...t, id }] });
    setTimeout(() => get().dismiss(id), ttlMs);
    return id;
  },
  dismiss: (id) => set({ toasts: get().toasts.filter((t) => t.id !== id) }),
  clear: () => set({ toasts: [] }),
}));

export const toast = (message: string, tone: ToastTone = 'info', action?: Toast['action']) =>
  useToasts.getState().push({ message, tone, action });

/**
 * Errors are announced assertively, the rest politely. While a modal is open the region is
 * drawn inside it: outside, Radix has hidden the page from screen readers, stopped its
 * pointer events and keeps focus out of it, so a Retry or an Undo could be neither heard
 * nor clicked. Inside, the region is still fixed to the window's corner and its buttons
 * come last in the modal's Tab cycle.
 */
export function ToastRegion() {
  const toasts = useToasts((s) => s.toasts);
  const dismiss = useToasts((s) => s.dismiss);
  const modal = useTopModalLayer();
  const region = (
    <div className="toasts">
      <div role="status" aria-live="polite" className="toast-stack">
        {toasts
          .filter((t) => t.tone !== 'error')
          .map((t) => (
            <ToastView key={t.id} t={t} onClose={() => dismiss(t.id)} />
          ))}
      </div>
      <div role="alert" aria-live="assertive" className="toast-stack">
        {toasts
          .filter((t) => t.tone === 'error')
          .map((t) => (
            <ToastView key={t.id} t={t} onClose={() => dismiss(t.id)} />
          ))}
      </div>
    </div>
  );
  return modal ? createPortal(region, modal) : region;
}

function ToastView({ t, onClose }: { t: Toast; onClose: () => void }) {
  return (
    <div className={`toast toast-${t.tone}`}>
      <span className="grow">{t.message}</span>
      {t.action ? (
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => {
            t.action?.run();
            onClose();
          }}
        >
          {t.action.label}
        </button>
      ) : null}
      <IconButton label="Dismiss" icon={<IconX />} onClick={onClose} />
    </div>
  );
}
